import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '@portale/shared/http';

// api-client reads the API origin from the page and the XSRF cookie from document.cookie: a minimal
// document stands in for the browser, set before the module is loaded.
let server: Server;
let origin = '';
const seen: string[] = [];
const saved: { name: string; href: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url!);
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/api/things/1')
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1,"name":"Uno"}');
    if (url.pathname === '/api/things/2')
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"due"}');
    if (url.pathname === '/api/things/3') {
      return res.writeHead(422, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          statusCode: 422,
          code: 'validation',
          message: 'Dati non validi.',
          errors: { region: ['Valore non valido per «Regione».'] },
        }),
      );
    }
    // Issue 32: a refresh elsewhere ended the access token «vecchio»; the refresh cookie gives «nuovo».
    if (url.pathname === '/api/things/9') {
      if (req.headers.authorization === 'Bearer nuovo')
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":9,"name":"Nove"}');
      return res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"statusCode":401,"code":"unauthenticated","message":"Sessione scaduta."}');
    }
    if (url.pathname === '/api/auth/refresh' && req.method === 'POST') {
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"token":"nuovo","token_type":"Bearer","expires_in":3600}');
    }
    if (url.pathname === '/api/things/export') {
      res.writeHead(200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="cose.csv"',
        'x-total-count': '2',
      });
      res.write('\uFEFFCodice;Nome\r\n');
      return res.end('A;Uno\r\nB;Due\r\n');
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const link = {
    href: '',
    download: '',
    style: {},
    click: () => saved.push({ name: link.download, href: link.href }),
    remove: () => {},
  };
  Object.assign(globalThis, {
    document: {
      cookie: '',
      querySelector: (selector: string) =>
        selector.includes('portale-api-origin') ? { content: origin } : null,
      createElement: () => link,
      body: { append: () => {} },
    },
  });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  delete (globalThis as { document?: unknown }).document;
  delete (globalThis as { location?: unknown }).location;
});

const getThing = defineEndpoint({
  method: 'GET',
  path: '/api/things/:thingId',
  permission: 'public',
  tag: 'test',
  summary: 'Una cosa',
  params: z.object({ thingId: z.coerce.number() }),
  query: z.object({ q: z.string().optional(), region: z.string().optional() }),
  response: z.object({ id: z.number(), name: z.string() }),
});
const exportThings = defineEndpoint({
  method: 'GET',
  path: '/api/things/export',
  permission: 'public',
  tag: 'test',
  summary: 'Esporta',
  query: z.object({ format: z.string() }),
  response: z.string(),
  download: true,
});

describe('api client', () => {
  it('builds the URL from the contract and leaves empty query values out', async () => {
    const { callApi } = await import('./api-client.ts');
    await expect(
      callApi(getThing, { params: { thingId: 1 }, query: { q: 'roma', region: '' } }),
    ).resolves.toEqual({ id: 1, name: 'Uno' });
    expect(seen.at(-1)).toBe('/api/things/1?q=roma');
  });

  it('refuses a 2xx answer that does not match the contract', async () => {
    const { ApiError, callApi, INVALID_RESPONSE_MESSAGE } = await import('./api-client.ts');
    const failure = callApi(getThing, { params: { thingId: 2 } });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 502, message: INVALID_RESPONSE_MESSAGE });
  });

  it('keeps the Italian message and the per-field errors of a 422', async () => {
    const { callApi } = await import('./api-client.ts');
    await expect(callApi(getThing, { params: { thingId: 3 } })).rejects.toMatchObject({
      status: 422,
      message: 'Dati non validi.',
      body: { errors: { region: ['Valore non valido per «Regione».'] } },
    });
  });

  it('renews a replaced access token once and sends the request again (issue 32)', async () => {
    const { callApi, storeAccessToken } = await import('./api-client.ts');
    Object.assign(globalThis, { location: { protocol: 'http:', hostname: '127.0.0.1' } });
    storeAccessToken('vecchio', 3600);
    // The stand-in document keeps one cookie string: the XSRF cookie the refresh sends back.
    (globalThis as unknown as { document: { cookie: string } }).document.cookie = 'XSRF-TOKEN=x';
    const before = seen.length;
    await expect(callApi(getThing, { params: { thingId: 9 } })).resolves.toEqual({ id: 9, name: 'Nove' });
    expect(seen.slice(before)).toEqual(['/api/things/9', '/api/auth/refresh', '/api/things/9']);
  });

  it('downloads a file with its name, its rows and the server total, and saves it', async () => {
    const { downloadFile } = await import('./api-client.ts');
    const result = await downloadFile(exportThings, { query: { format: 'csv' } });
    expect(result).toMatchObject({ fileName: 'cose.csv', rows: 2, totalRows: 2, done: true });
    expect(seen.at(-1)).toBe('/api/things/export?format=csv');
    expect(saved.at(-1)?.name).toBe('cose.csv');
  });
});
