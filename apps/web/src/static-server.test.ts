import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// server/serve.mjs serves ../dist next to itself: a copy with a minimal dist/, under node_modules so
// that it resolves fastify and its plugins like the real one (and git never sees it).
const webRoot = fileURLToPath(new URL('..', import.meta.url));
const dir = `${webRoot}node_modules/.cache/static-server-test-${process.pid}`;
let server: ChildProcess | undefined;
let port = 0;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
}

/** A raw request (fetch refuses TRACE), answering the status and the headers. */
function send(
  method: string,
  path: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(`${dir}/dist/assets`, { recursive: true });
  cpSync(`${webRoot}server/serve.mjs`, `${dir}/server/serve.mjs`);
  writeFileSync(
    `${dir}/dist/index.html`,
    '<!doctype html><html lang="it"><head><meta name="portale-api" content="%PORTALE_API_ORIGIN%"></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(`${dir}/dist/build.json`, '{"version":"test"}');
  port = await freePort();
  server = spawn(process.execPath, [`${dir}/server/serve.mjs`], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      API_ORIGIN: 'http://127.0.0.1:1',
      GA_MEASUREMENT_ID: '',
    },
    stdio: 'ignore',
  });
  for (let waited = 0; ; waited += 100) {
    const res = await send('GET', '/build.json').catch(() => undefined);
    if (res?.status === 200) break;
    if (waited > 15_000) throw new Error('the static server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(() => {
  server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('static web server (server/serve.mjs)', () => {
  it('sends HSTS on every answer, the app as well as the files', async () => {
    for (const path of ['/', '/auth/login', '/build.json', '/assets/missing.js']) {
      const res = await send('GET', path);
      expect(res.headers['strict-transport-security'], path).toBe('max-age=31536000; includeSubDomains');
    }
  });

  it('serves the reset-password page with Referrer-Policy: no-referrer, other pages keep strict-origin', async () => {
    for (const path of ['/auth/reset-password?token=abcdef', '/auth/reset-password']) {
      const res = await send('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers['referrer-policy'], path).toBe('no-referrer');
    }
    for (const path of ['/', '/auth/login', '/auth/forgot-password']) {
      expect((await send('GET', path)).headers['referrer-policy'], path).toBe(
        'strict-origin-when-cross-origin',
      );
    }
  });

  it('answers TRACE and every method other than GET and HEAD with 405 and Allow', async () => {
    for (const method of ['TRACE', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const res = await send(method, '/');
      expect(res.status, method).toBe(405);
      expect(res.headers.allow, method).toBe('GET, HEAD');
      expect(res.headers['content-security-policy'], method).toBeDefined();
    }
    expect((await send('TRACE', '/auth/login')).status).toBe(405);
    expect((await send('HEAD', '/')).status).toBe(200);
    expect((await send('GET', '/auth/login')).status).toBe(200);
  });
});
