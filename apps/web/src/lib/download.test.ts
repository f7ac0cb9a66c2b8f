import { describe, expect, it } from 'vitest';
import { createCsvRecordCounter, fileNameOf, readDownload, type DownloadProgress } from './download.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('file downloads', () => {
  it('counts CSV records across chunks, not line feeds inside quotes', () => {
    const counter = createCsvRecordCounter();
    counter.push(bytes('\uFEFFCodice;Nome\r\nRM1;"Scuola\r\ndue righe"\r\nRM2;"Il ""Nido"""'));
    expect(counter.records()).toBe(2);
    counter.push(bytes('\r\nRM3;Ultima'));
    expect(counter.records()).toBe(3);
    expect(counter.records(true)).toBe(4);
  });

  it('reads the file name of Content-Disposition, RFC 6266 form first', () => {
    expect(fileNameOf('attachment; filename="istituti-2026-11-22.csv"')).toBe('istituti-2026-11-22.csv');
    expect(fileNameOf('attachment; filename="x.csv"; filename*=UTF-8\'\'plessi%20%C3%A0.xlsx')).toBe(
      'plessi à.xlsx',
    );
    expect(fileNameOf(null)).toBeUndefined();
  });

  it('streams a CSV body and reports rows against X-Total-Count', async () => {
    const chunks = ['\uFEFFCodice;Nome\r\n', 'RM1;Uno\r\nRM2;Due\r\n', 'RM3;Tre\r\n'];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(bytes(c));
        controller.close();
      },
    });
    const response = new Response(body, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="istituti.csv"',
        'x-total-count': '3',
      },
    });
    const seen: DownloadProgress[] = [];
    const result = await readDownload(response, (p) => seen.push(p));
    expect(result).toMatchObject({
      format: 'csv',
      rows: 3,
      totalRows: 3,
      done: true,
      fileName: 'istituti.csv',
    });
    expect(result.bytes).toBe(chunks.reduce((n, c) => n + bytes(c).byteLength, 0));
    // The BOM is kept (Italian Excel needs it): compare bytes, not decoded text.
    expect(new Uint8Array(await result.blob.arrayBuffer())).toEqual(bytes(chunks.join('')));
    expect(seen.at(-1)?.done).toBe(true);
  });

  it('falls back on the list total and a given name when the headers are not readable', async () => {
    const response = new Response(bytes('PK\u0003\u0004binary'), {
      headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    });
    const result = await readDownload(response, () => {}, {
      expectedRows: 12,
      fallbackName: 'istituti-oggi.xlsx',
    });
    expect(result).toMatchObject({
      format: 'xlsx',
      rows: null,
      totalRows: 12,
      fileName: 'istituti-oggi.xlsx',
    });
  });
});
