/** What a file download has received so far. */
export interface DownloadProgress {
  format: 'csv' | 'xlsx' | 'other';
  bytes: number;
  /** Size announced by the server (Content-Length), when known. */
  totalBytes: number | null;
  /** CSV only: data rows fully received (header excluded). */
  rows: number | null;
  /** Rows the server announced (X-Total-Count), or the list's total. */
  totalRows: number | null;
  done: boolean;
}

export interface DownloadResult extends DownloadProgress {
  blob: Blob;
  fileName: string;
}

export const DOWNLOAD_ACCEPT =
  'text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/json';

const QUOTE = 0x22;
const LF = 0x0a;

/**
 * Counts CSV records across chunks: a line feed ends a record only outside quotes (a quoted field
 * may hold line breaks); a doubled quote toggles twice, so it needs no special case.
 */
export function createCsvRecordCounter() {
  let inQuotes = false;
  let records = 0;
  let pending = false;
  return {
    push(chunk: Uint8Array) {
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (byte === QUOTE) inQuotes = !inQuotes;
        else if (byte === LF && !inQuotes) {
          records++;
          pending = false;
          continue;
        }
        pending = true;
      }
    },
    /** Complete records so far, plus a last one without a final line feed when `final`. */
    records(final = false) {
      return records + (final && pending ? 1 : 0);
    },
  };
}

/** The file name of a Content-Disposition header (RFC 6266 `filename*` first), if any. */
export function fileNameOf(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim() || undefined;
}

function formatOf(contentType: string | null, fileName: string | undefined): DownloadProgress['format'] {
  const type = contentType ?? '';
  if (type.includes('text/csv') || fileName?.endsWith('.csv')) return 'csv';
  if (type.includes('spreadsheetml') || fileName?.endsWith('.xlsx')) return 'xlsx';
  return 'other';
}

function numberHeader(response: Response, name: string): number | null {
  const value = response.headers.get(name);
  const n = value === null ? NaN : Number(value);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** Reads a download's body chunk by chunk, reporting progress after each chunk (a few per second at most). */
export async function readDownload(
  response: Response,
  onProgress: (progress: DownloadProgress) => void,
  options: { expectedRows?: number; fallbackName?: string } = {},
): Promise<DownloadResult> {
  const fileName =
    fileNameOf(response.headers.get('content-disposition')) ?? options.fallbackName ?? 'esportazione';
  const contentType = response.headers.get('content-type');
  const format = formatOf(contentType, fileName);
  const counter = format === 'csv' ? createCsvRecordCounter() : null;
  const progress: DownloadProgress = {
    format,
    bytes: 0,
    totalBytes: numberHeader(response, 'content-length'),
    rows: counter ? 0 : null,
    totalRows: numberHeader(response, 'x-total-count') ?? options.expectedRows ?? null,
    done: false,
  };
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const reader = response.body!.getReader();
  let lastReport = 0;
  onProgress({ ...progress });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as Uint8Array<ArrayBuffer>);
    progress.bytes += value.byteLength;
    counter?.push(value);
    if (counter) progress.rows = Math.max(0, counter.records() - 1);
    const now = Date.now();
    if (now - lastReport > 200) {
      lastReport = now;
      onProgress({ ...progress });
    }
  }
  if (counter) progress.rows = Math.max(0, counter.records(true) - 1);
  progress.done = true;
  onProgress({ ...progress });
  const blob = new Blob(chunks, { type: contentType ?? 'application/octet-stream' });
  return { ...progress, blob, fileName };
}

/** Saves a Blob as a file through a temporary object URL. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the save in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
