import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_COOKIES, AUTH_PATHS, HTTP_DEFAULTS } from '@portale/shared/http';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

/** Every line the API's own logger wrote, parsed. */
const lines: Record<string, unknown>[] = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    for (const line of chunk.toString('utf8').split('\n'))
      if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
    callback();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ LOG_LEVEL: 'info' }, { logStream: stream });
});
afterAll(() => t.close());

/** The lines written for the requests `send` makes (the logger writes synchronously to this stream). */
async function linesOf(send: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const from = lines.length;
  await send();
  return lines.slice(from);
}

describe('request logs', () => {
  it('write one line per request, when the answer has gone, with what was asked and answered', async () => {
    const c = new ApiClient(t, nextIp());
    await c.login('sylla@demo.test');
    const logged = await linesOf(() => c.get(AUTH_PATHS.me));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: AUTH_PATHS.me, remoteAddress: c.remoteAddress },
      res: { statusCode: 200 },
    });
    expect(logged[0]!.responseTime).toEqual(expect.any(Number));
    expect(logged[0]!.reqId).toEqual(expect.any(String));
  });

  it('never contain a header: bearer token, cookies, XSRF token, Set-Cookie', async () => {
    const c = new ApiClient(t, nextIp());
    const logged = await linesOf(async () => {
      await c.login('sylla@demo.test');
      await c.get(AUTH_PATHS.me);
      // A refused write (no XSRF header) and an unknown route log their refusal too.
      await c.send('POST', AUTH_PATHS.logout, { xsrf: false });
      await c.get('/api/nope');
      await c.send('POST', AUTH_PATHS.refresh);
    });
    const secrets = [c.token, c.cookie(AUTH_COOKIES.refreshToken), c.cookie(HTTP_DEFAULTS.xsrfCookie)].filter(
      (value): value is string => typeof value === 'string' && value.length > 0,
    );
    expect(secrets.length).toBeGreaterThanOrEqual(2);
    expect(logged.length).toBeGreaterThanOrEqual(6);
    const text = JSON.stringify(logged);
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      // The secret part of a bearer token alone (`id|secret`) is not logged either.
      expect(text).not.toContain(secret.split('|').at(-1));
    }
    expect(text).not.toMatch(/authorization|set-cookie|x-xsrf-token|"cookie"/i);
  });
});
