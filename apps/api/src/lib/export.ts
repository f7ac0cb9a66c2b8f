import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { romeDateStamp, romeParts } from '@portale/shared/bookings';
import type { ExportFormat } from '@portale/shared/lists';
import { exportBusy } from './gates.ts';

type ExportValue = string | number | boolean | Date | null | undefined;

/**
 * One column of an export: its Italian header, how a row gives its cell, and what the cell is when
 * the value alone does not say (docs/decisions/034):
 * - a `Date` is an instant, shown as its date and time in Europe/Rome;
 * - `type: 'date'` is a calendar day: a `YYYY-MM-DD` string, or an instant taken as its day in Rome;
 * - `type: 'percent'` is a number of percentage points (60 = 60 %);
 * - other numbers are numbers, booleans "Sì"/"No", strings text.
 */
export interface ExportColumn<T> {
  header: string;
  value(row: T): ExportValue;
  type?: 'date' | 'percent';
}

/** A calendar day (`YYYY-MM-DD`, or an instant's day in Rome) as year, month, day; null when it is neither. */
function calendarDay(value: ExportValue): { year: number; month: number; day: number } | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : romeParts(value);
  const m = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  return m ? { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) } : null;
}

const two = (n: number) => String(n).padStart(2, '0');

/** Numbers in CSV as Italian spreadsheets read them: a decimal comma, no grouping. */
const csvNumber = (n: number, digits?: number) =>
  n.toLocaleString('it-IT', {
    useGrouping: false,
    minimumFractionDigits: digits ?? 0,
    maximumFractionDigits: digits ?? 2,
  });

/** A cell's text in CSV: `27/11/2026 14:13` (Rome) for instants, `27/11/2026` for days, `60,0` for percentages. */
function cellText(value: ExportValue, type?: ExportColumn<unknown>['type']): string {
  if (value === null || value === undefined || value === '') return '';
  if (type === 'date') {
    const d = calendarDay(value);
    return d ? `${two(d.day)}/${two(d.month)}/${d.year}` : String(value);
  }
  if (value instanceof Date) {
    const c = romeParts(value);
    return `${two(c.day)}/${two(c.month)}/${c.year} ${two(c.hour)}:${two(c.minute)}`;
  }
  if (typeof value === 'boolean') return value ? 'Sì' : 'No';
  if (typeof value === 'number') return type === 'percent' ? csvNumber(value, 1) : csvNumber(value);
  return String(value);
}

/**
 * Whether a text would run as a formula with effects when a spreadsheet opens the CSV (OWASP CSV
 * injection): anything starting with `=` or `@` (or a tab or CR), and a leading `+` or `-` followed by a
 * function call, a DDE link or a sheet reference (`(`, `|`, `!`). Phone numbers (`+39 …`) and names
 * such as `- SEZ. ASSOCIATA` are data and stay as they are.
 */
export function isFormulaLike(text: string): boolean {
  return /^[=@\t\r]/.test(text) || (/^[+-]/.test(text) && /[(|!]/.test(text));
}

/**
 * One CSV field: `;`-separated as Italian Excel expects, quoted when needed; a formula-like text gets a
 * leading `'` so that it is shown, never run.
 */
export function csvField(value: ExportValue, type?: ExportColumn<unknown>['type']): string {
  let text = cellText(value, type);
  if (typeof value === 'string' && isFormulaLike(text)) text = `'${text}`;
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const XLSX_FORMATS = { datetime: 'dd/mm/yyyy hh:mm', date: 'dd/mm/yyyy', percent: '0.0%' } as const;

/**
 * A cell of the XLSX sheet: instants and days as real dates (Rome's wall clock: a spreadsheet has no
 * time zones), percentages as fractions shown with `%`, numbers as numbers, strings as text cells
 * (which a spreadsheet never runs, so they need no prefix).
 */
function xlsxCell(value: ExportValue, type?: ExportColumn<unknown>['type']): string | number | Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (type === 'date') {
    const d = calendarDay(value);
    return d ? new Date(Date.UTC(d.year, d.month - 1, d.day)) : String(value);
  }
  if (value instanceof Date) {
    const c = romeParts(value);
    return new Date(Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second));
  }
  if (typeof value === 'boolean') return value ? 'Sì' : 'No';
  if (typeof value === 'number' && type === 'percent') return value / 100;
  return value;
}

/** Today's date in Rome (`2026-11-27`), for file names (shared with the web app's downloads). */
export { romeDateStamp };

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export interface ExportOptions<T> {
  format: ExportFormat;
  /** File name without extension, e.g. `istituti`. */
  name: string;
  sheetName: string;
  columns: ExportColumn<T>[];
  /** Rows matching the filters (sent as `X-Total-Count`: the client shows progress against it). */
  total: number;
  /** Produces the rows batch by batch; awaits `write` (back-pressure); `write` answers false once the download is gone (stop). */
  produce(write: (rows: T[]) => Promise<boolean | void>): Promise<void>;
  today: Date;
  /** XLSX only: a second sheet of notes, one line a row (e.g. what a flag means; decision 035). */
  notes?: { sheetName: string; lines: string[] };
  /** A page that describes the data: sent as `Link: <url>; rel="describedby"` (CSV and XLSX). */
  describedBy?: string;
}

/** Waits for the client to take the bytes written so far; also ends when the download is gone (closed early). */
function drain(stream: PassThrough): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
}

const EXPORT_PLACE = Symbol('exportPlace');
type WithPlace = FastifyRequest & { [EXPORT_PLACE]?: () => void };

/**
 * The export route's place in the export gate (a preHandler that every export route gets from
 * `registerEndpoint`, after its session and permission checks): taken before the handler counts or
 * reads any row, so that a refused export (Italian 429, Retry-After) costs no database work. The
 * place is freed when the export's stream closes, or when the answer ends without one (an error).
 */
export async function reserveExportPlace(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const release = request.server.gates.exports.tryEnter();
  if (!release) throw exportBusy();
  (request as WithPlace)[EXPORT_PLACE] = release;
  reply.raw.once('finish', release);
  reply.raw.once('close', release);
}

/**
 * Streams an export to the client: CSV (UTF-8 with BOM, `;`) or XLSX (exceljs streaming writer),
 * in constant memory. An error after the headers are sent ends the download early (and is logged).
 * Refused with an Italian 429 (Retry-After) while EXPORT_CONCURRENCY exports are running; a download
 * closed early stops reading rows.
 */
export function sendExport<T>(reply: FastifyReply, options: ExportOptions<T>): FastifyReply {
  // At most EXPORT_CONCURRENCY exports at once in this instance (issue 32): one more is a 429, not a wait.
  // Taken already by the route's preHandler (reserveExportPlace); taken here for a caller without one.
  const release = (reply.request as WithPlace)[EXPORT_PLACE] ?? reply.server.gates.exports.tryEnter();
  if (!release) throw exportBusy();
  const stream = new PassThrough();
  stream.once('close', release);
  // A client gone before the end: stop producing (frees the place, the cursor and its connection).
  reply.raw.once('close', () => {
    if (!stream.writableFinished) stream.destroy();
  });
  const date = romeDateStamp(options.today);
  reply
    .header('content-type', CONTENT_TYPES[options.format])
    .header('content-disposition', `attachment; filename="${options.name}-${date}.${options.format}"`)
    .header('x-total-count', String(options.total))
    .header('cache-control', 'no-store');
  if (options.describedBy) reply.header('link', `<${options.describedBy}>; rel="describedby"`);

  const run = async () => {
    if (options.format === 'csv') {
      stream.write(`\uFEFF${options.columns.map((c) => csvField(c.header)).join(';')}\r\n`);
      await options.produce(async (rows) => {
        if (stream.destroyed) return false;
        let chunk = '';
        for (const row of rows)
          chunk += `${options.columns.map((c) => csvField(c.value(row), c.type)).join(';')}\r\n`;
        stream.write(chunk);
        await drain(stream);
      });
      stream.end();
      return;
    }
    // Loaded on the first XLSX export, not at start (it is the API's heaviest module: a faster restart).
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet(options.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = options.columns.map((c) => ({
      header: c.header,
      width: Math.min(Math.max(c.header.length + 4, 14), 60),
    }));
    // Each date, day or percentage cell gets its Italian number format.
    const numFmt = (c: ExportColumn<T>, value: ExportValue) =>
      c.type === 'date'
        ? XLSX_FORMATS.date
        : c.type === 'percent'
          ? XLSX_FORMATS.percent
          : value instanceof Date
            ? XLSX_FORMATS.datetime
            : undefined;
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    await options.produce(async (rows) => {
      if (stream.destroyed) return false;
      for (const row of rows) {
        const values = options.columns.map((c) => c.value(row));
        const added = sheet.addRow(values.map((v, i) => xlsxCell(v, options.columns[i]!.type)));
        values.forEach((v, i) => {
          const format = numFmt(options.columns[i]!, v);
          if (format) added.getCell(i + 1).numFmt = format;
        });
        added.commit();
      }
      await drain(stream);
    });
    sheet.commit();
    if (options.notes) {
      const notes = workbook.addWorksheet(options.notes.sheetName);
      notes.columns = [{ header: options.notes.sheetName, width: 100 }];
      notes.getRow(1).font = { bold: true };
      notes.getRow(1).commit();
      for (const line of options.notes.lines) notes.addRow([xlsxCell(line, undefined)]).commit();
      notes.commit();
    }
    await workbook.commit();
  };
  run().catch((error: unknown) => {
    reply.log.error({ err: error }, 'export failed');
    stream.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return reply.send(stream);
}
