import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@portale/shared/lists';

/** A list's order as the URL writes it: `sort=name` ascending, `sort=-name` descending. */
export interface SortState {
  column: string;
  direction: 'asc' | 'desc';
}

export function parseSort(value: string | null, fallback: string): SortState {
  const raw = value?.trim() || fallback;
  return raw.startsWith('-')
    ? { column: raw.slice(1), direction: 'desc' }
    : { column: raw, direction: 'asc' };
}

export function sortParam(sort: SortState): string {
  return sort.direction === 'desc' ? `-${sort.column}` : sort.column;
}

/** The page number of the URL (1 when missing or not a positive integer). */
export function parsePage(value: string | null): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export function parsePageSize(value: string | null): number {
  const n = Number(value);
  return (PAGE_SIZES as readonly number[]).includes(n) ? n : DEFAULT_PAGE_SIZE;
}

/**
 * New search params from the current ones: `null` or '' removes a key. Any change other than the page
 * itself sends the list back to page 1 (a new filter, order or page size starts from the top).
 */
export function withParams(
  current: URLSearchParams,
  changes: Record<string, string | number | null | undefined>,
): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  if (!('page' in changes)) next.delete('page');
  if (next.get('page') === '1') next.delete('page');
  return next;
}

/** `?a=1&b=2`, or '' for no params (links keep the list's pathname). */
export function searchString(params: URLSearchParams): string {
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The options of a list's "Ordina per" select: each sortable column, ascending then descending. */
export function sortOptionsOf(
  columns: readonly { value: string; label: string }[],
): { value: string; label: string }[] {
  return columns.flatMap((c) => [
    { value: c.value, label: `${c.label}, crescente` },
    { value: `-${c.value}`, label: `${c.label}, decrescente` },
  ]);
}

/** Page numbers to show: the first, the last and two around the current one, with gaps as `null`. */
export function pageWindow(page: number, pages: number): (number | null)[] {
  const wanted = new Set(
    [1, pages, page - 2, page - 1, page, page + 1, page + 2].filter((n) => n >= 1 && n <= pages),
  );
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((n, i) => {
    if (i > 0 && n - sorted[i - 1]! > 1) out.push(null);
    out.push(n);
  });
  return out;
}
