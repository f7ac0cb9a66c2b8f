import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, createHttpClient } from './http-client.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface Recorded {
  method: string;
  url: string;
  xsrf: string | undefined;
  accept: string | undefined;
}

async function startServer(handler: Handler): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let api: { server: Server; origin: string };
let other: { server: Server; origin: string };
let hits: Recorded[] = [];

function record(req: IncomingMessage) {
  hits.push({
    method: req.method!,
    url: req.url!,
    xsrf: req.headers['x-xsrf-token'] as string | undefined,
    accept: req.headers.accept,
  });
}

beforeAll(async () => {
  api = await startServer((req, res) => {
    record(req);
    const status = Number(new URL(req.url!, 'http://x').searchParams.get('status') ?? 200);
    if (req.url!.startsWith('/slow')) {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"late":true}'), 1500);
      return;
    }
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ statusCode: status, code: 'x', message: `Risposta ${status}` }));
  });
  other = await startServer((req, res) => {
    record(req);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
afterAll(async () => {
  await new Promise((r) => api.server.close(r));
  await new Promise((r) => other.server.close(r));
});
beforeEach(() => {
  hits = [];
});

const client = () => createHttpClient({ baseURL: api.origin, xsrfToken: () => 'token-abc=' });

describe('http client', () => {
  it.each([408, 409, 425, 429, 500, 502, 503, 504])('retries a GET once on %i', async (status) => {
    await expect(client()(`/x?status=${status}`)).rejects.toBeInstanceOf(ApiError);
    expect(hits).toHaveLength(2);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)('never retries a %s', async (method) => {
    await expect(client()('/x?status=503', { method, body: { a: 1 } })).rejects.toMatchObject({
      status: 503,
      message: 'Risposta 503',
    });
    expect(hits).toHaveLength(1);
  });

  it('does not retry a GET on 401 or 404', async () => {
    await expect(client()('/x?status=401')).rejects.toMatchObject({ status: 401 });
    await expect(client()('/x?status=404')).rejects.toMatchObject({ status: 404 });
    expect(hits).toHaveLength(2);
  });

  it('aborts a request that exceeds the timeout with an Italian message', async () => {
    const started = Date.now();
    const slow = createHttpClient({ baseURL: api.origin, timeout: 200 });
    await expect(slow('/slow', { method: 'POST' })).rejects.toMatchObject({
      status: 0,
      message: 'Il server non ha risposto in tempo. Riprova.',
    });
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it('sends the XSRF header and the seed Accept header only to the API origin', async () => {
    await client()('/x');
    await client()(`${other.origin}/y`);
    expect(hits[0]).toMatchObject({ xsrf: 'token-abc=', accept: 'application/json, text/plain, */*' });
    expect(hits[1]!.xsrf).toBeUndefined();
  });
});
