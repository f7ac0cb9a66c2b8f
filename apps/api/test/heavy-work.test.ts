import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_BUSY_MESSAGE, Gate, LIST_TIMEOUT_MESSAGE, LISTS_BUSY_MESSAGE } from '../src/lib/gates.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

/** Everything a streamed answer still has to give. */
async function textOf(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe('Gate', () => {
  it('lets `size` in, queues up to `queue` for at most `maxWaitMs`, and hands a released place to the next', async () => {
    const gate = new Gate(1, 1, 50);
    const first = gate.tryEnter()!;
    expect(gate.tryEnter()).toBeUndefined();
    const queued = gate.enter();
    expect(await gate.enter()).toBeUndefined(); // the queue is full
    first();
    first(); // releasing twice frees one place only
    const second = (await queued)!;
    expect(gate.active).toBe(1);
    expect(await gate.enter()).toBeUndefined(); // waited 50 ms, still full
    second();
    expect(gate.active).toBe(0);
  });
});

describe('heavy work is bounded (issue 32, defect 6)', () => {
  let t: TestApp;
  let staff: ApiClient;
  const scalar = async (query: ReturnType<typeof sql>) =>
    Number(((await t.database.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n);

  /** An export whose answer is not read yet: it holds its place until read to the end. */
  const openExport = (url: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${staff.token}` },
      remoteAddress: staff.remoteAddress,
      payloadAsStream: true,
    });

  beforeAll(async () => {
    t = await buildTestApp({ EXPORT_CONCURRENCY: '2', HEAVY_LIST_CONCURRENCY: '1' }, { registry: 'sample' });
    staff = new ApiClient(t, nextIp());
    expect((await staff.login('cromos@demo.test')).statusCode).toBe(200);
  }, 180_000);
  afterAll(() => t.close());

  it('runs at most EXPORT_CONCURRENCY exports at once: one more gets the Italian 429 with Retry-After; the running ones stay correct', async () => {
    const first = await openExport('/api/school-sites/export?format=csv');
    const second = await openExport('/api/institutes/export?format=csv&province=PV');
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);

    // Refused before the handler runs: no count and no read of the rows (issue 32, bench/abuse.mjs).
    const statements: string[] = [];
    const stop = t.database.observeQueries((query) => void statements.push(query));
    const third = await staff.get('/api/institutes/export?format=xlsx');
    stop();
    expect(statements.filter((query) => /\binstitutes\b/i.test(query) || /count\(/i.test(query))).toEqual([]);
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe('10');
    expect(third.json()).toMatchObject({
      statusCode: 429,
      code: 'export_busy',
      message: EXPORT_BUSY_MESSAGE,
    });

    // Health and login are served while both exports are open.
    expect((await new ApiClient(t, nextIp()).get('/api/health')).statusCode).toBe(200);
    expect((await new ApiClient(t, nextIp()).login('sylla@demo.test')).statusCode).toBe(200);

    const sites = (await textOf(first.stream())).trim().split('\r\n');
    expect(sites.length - 1).toBe(await scalar(sql`select count(*)::int as n from school_sites`));
    expect(sites.length - 1).toBe(Number(first.headers['x-total-count']));
    const institutes = (await textOf(second.stream())).trim().split('\r\n');
    expect(institutes.length - 1).toBe(
      await scalar(sql`select count(*)::int as n from institutes where province = 'PV'`),
    );

    // Once read, their places are free again.
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.app.gates.exports.active).toBe(0);
    expect((await staff.get('/api/institutes/export?format=csv&province=PV')).statusCode).toBe(200);
  }, 60_000);

  it('an export refused by its handler (an unknown survey) frees the place it took', async () => {
    const res = await staff.get('/api/results/export?format=csv&survey=987654');
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.app.gates.exports.active).toBe(0);
  });

  it('a download closed early frees its place and stops reading rows', async () => {
    // Over a real socket: the client reads the headers, then hangs up.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const request = http.get({
      host: '127.0.0.1',
      port,
      path: '/api/school-sites/export?format=xlsx',
      headers: { authorization: `Bearer ${staff.token}` },
    });
    const response = await new Promise<http.IncomingMessage>((resolve) => request.once('response', resolve));
    expect(response.statusCode).toBe(200);
    expect(t.app.gates.exports.active).toBe(1);
    request.destroy();
    for (let i = 0; i < 100 && t.app.gates.exports.active > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(t.app.gates.exports.active).toBe(0);
    // The database is free for everyone (no cursor or transaction left behind).
    expect((await staff.get('/api/institutes?q=liceo')).statusCode).toBe(200);
  });

  it('searches of the registry pass through the list gate: when it is full they get an Italian 503, while health and login are served', async () => {
    const gate = t.app.gates.lists;
    const held = [gate.tryEnter()!];
    const queued = Array.from({ length: gate.queue }, () => gate.enter());
    try {
      for (const url of ['/api/institutes?q=aa', '/api/school-sites?q=aa']) {
        const res = await staff.get(url);
        expect(res.statusCode, url).toBe(503);
        expect(res.headers['retry-after']).toBe('2');
        expect(res.json()).toMatchObject({
          statusCode: 503,
          code: 'lists_busy',
          message: LISTS_BUSY_MESSAGE,
        });
      }
      const search = await new ApiClient(t, nextIp()).get('/api/school-sites/search?q=aa');
      expect(search.statusCode).toBe(503);
      expect((await new ApiClient(t, nextIp()).get('/api/health')).statusCode).toBe(200);
      expect((await new ApiClient(t, nextIp()).login('superadmin@demo.test')).statusCode).toBe(200);
    } finally {
      held.forEach((release) => release());
      for (const release of await Promise.all(queued)) release?.();
    }
    // Free again: the same two-letter search is answered as before.
    const res = await staff.get('/api/school-sites?q=aa');
    expect(res.statusCode).toBe(200);
    expect(gate.active).toBe(0);
  });

  it.runIf(process.env.DATABASE_URL)(
    'on PostgreSQL a search that runs past LIST_STATEMENT_TIMEOUT_MS is cancelled with an Italian 503',
    async () => {
      const short = await buildTestApp({ LIST_STATEMENT_TIMEOUT_MS: '1' }, { registry: 'sample' });
      try {
        const client = new ApiClient(short, nextIp());
        expect((await client.login('cromos@demo.test')).statusCode).toBe(200);
        // pg_sleep in the search is not possible from outside: a 1 ms limit cancels any real search.
        const res = await client.get('/api/school-sites?q=aa&pageSize=100');
        expect(res.statusCode).toBe(503);
        expect(res.json()).toMatchObject({
          statusCode: 503,
          code: 'list_timeout',
          message: LIST_TIMEOUT_MESSAGE,
        });
        expect((await client.get('/api/school-sites')).statusCode).toBe(200);
      } finally {
        await short.close();
      }
    },
    180_000,
  );
});
