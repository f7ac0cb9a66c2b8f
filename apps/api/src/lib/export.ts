import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExportFormat } from '@portale/shared/lists';
import { exportBusy } from './gates.ts';

/** One column of an export: its Italian header and how a row gives its cell. */
export interface ExportColumn<T> {
  header: string;
  value(row: T): string | number | boolean | Date | null | undefined;
}

const romeDateTime = new Intl.DateTimeFormat('it-IT', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Rome' });

function cellText(value: string | number | boolean | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return romeDateTime.format(value);
  if (typeof value === 'boolean') return value ? 'Sì' : 'No';
  return String(value);
}

/**
 * One CSV field: `;`-separated as Italian Excel expects, quoted when needed, and neutralised when it
 * starts like a formula (OWASP CSV injection): a leading `=`, `+`, `-`, `@`, tab or CR gets a `'`.
 */
export function csvField(value: string | number | boolean | Date | null | undefined): string {
  let text = cellText(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

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
  const date = options.today.toISOString().slice(0, 10);
  reply
    .header('content-type', CONTENT_TYPES[options.format])
    .header('content-disposition', `attachment; filename="${options.name}-${date}.${options.format}"`)
    .header('x-total-count', String(options.total))
    .header('cache-control', 'no-store');

  const run = async () => {
    if (options.format === 'csv') {
      stream.write(`\uFEFF${options.columns.map((c) => csvField(c.header)).join(';')}\r\n`);
      await options.produce(async (rows) => {
        if (stream.destroyed) return false;
        let chunk = '';
        for (const row of rows) chunk += `${options.columns.map((c) => csvField(c.value(row))).join(';')}\r\n`;
        stream.write(chunk);
        await drain(stream);
      });
      stream.end();
      return;
    }
    // Loaded on the first XLSX export, not at start (it is the API's heaviest module: a faster restart).
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet(options.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = options.columns.map((c) => ({ header: c.header, width: Math.min(Math.max(c.header.length + 4, 14), 60) }));
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    await options.produce(async (rows) => {
      if (stream.destroyed) return false;
      for (const row of rows) sheet.addRow(options.columns.map((c) => {
        const v = c.value(row);
        return v instanceof Date || typeof v === 'boolean' ? cellText(v) : (v ?? null);
      })).commit();
      await drain(stream);
    });
    sheet.commit();
    await workbook.commit();
  };
  run().catch((error: unknown) => {
    reply.log.error({ err: error }, 'export failed');
    stream.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return reply.send(stream);
}
