import { z } from 'zod';

/** Page sizes a list offers; the server refuses any other (no unbounded pages). */
export const PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;
/** A search text longer than this is refused: it cannot match a name and only costs time. */
export const MAX_SEARCH_LENGTH = 100;
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** Free-text search: trimmed, at most MAX_SEARCH_LENGTH characters, empty = no search. */
export const SearchTextSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() || undefined : v),
  z
    .string()
    .max(MAX_SEARCH_LENGTH, `La ricerca può contenere al massimo ${MAX_SEARCH_LENGTH} caratteri.`)
    .optional(),
);

/** An optional filter from a closed list; an unknown value is a 422 with an Italian message. */
export function optionalEnum<const T extends readonly [string, ...string[]]>(values: T, label: string) {
  return z.preprocess(
    emptyToUndefined,
    z.enum(values, { error: `Valore non valido per «${label}».` }).optional(),
  );
}

/** `true`/`false` in a query string; empty = no filter. */
export const QueryBooleanSchema = z.preprocess(
  emptyToUndefined,
  z
    .enum(['true', 'false'], { error: 'Usa «true» o «false».' })
    .transform((v) => v === 'true')
    .optional(),
);

/**
 * `sort=name` (ascending) or `sort=-name` (descending), limited to the list's sortable columns.
 * Without a value the server decides (relevance when searching, otherwise the list's natural order).
 */
export function sortSchema<const T extends readonly [string, ...string[]]>(columns: T) {
  const values = columns.flatMap((c) => [c, `-${c}`]) as [string, ...string[]];
  return z.preprocess(
    emptyToUndefined,
    z
      .enum(values, { error: 'Ordinamento non disponibile per questa colonna.' })
      .transform((v) => ({
        column: v.replace(/^-/, '') as T[number],
        direction: v.startsWith('-') ? ('desc' as const) : ('asc' as const),
      }))
      .optional(),
  );
}

/** Page number (1-based) and page size; a page past the end answers an empty page, never an error. */
export const PaginationSchema = z.object({
  page: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'Pagina non valida.' })
      .int('Pagina non valida.')
      .min(1, 'Pagina non valida.')
      .max(100_000, 'Pagina non valida.')
      .default(1),
  ),
  pageSize: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .pipe(
        z.union(
          PAGE_SIZES.map((n) => z.literal(n)) as [z.ZodLiteral<25>, z.ZodLiteral<50>, z.ZodLiteral<100>],
          { error: 'Numero di righe per pagina non valido.' },
        ),
      )
      .default(DEFAULT_PAGE_SIZE),
  ),
});

/**
 * `exactTotal=true`: the total counts every matching row, past the cap where a large list's total is
 * otherwise an estimate (`totalApproximate`, shown as "circa N"; decision 033).
 */
export const ExactTotalSchema = z.object({ exactTotal: QueryBooleanSchema });

/** The export format of a list's export endpoint. */
export const ExportFormatSchema = z.object({
  format: z.enum(EXPORT_FORMATS, { error: 'Formato non disponibile: usa csv o xlsx.' }).default('csv'),
});

/** The answer of every list: the page's items, the total matching the filters, and the page asked. */
export function listResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    /** true: `total` is an estimate (a large list; `exactTotal=true` counts it exactly). Absent: exact. */
    totalApproximate: z.boolean().optional(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

export type SortOf<S> = S extends { sort: infer X } ? X : never;
