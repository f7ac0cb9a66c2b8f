import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { loadEnv } from '../src/env.ts';
import { originCheck } from '../src/plugins/origin-check.ts';

const WEB = 'http://localhost:3000';

/** A pino destination that keeps every log line as an object. */
function captureLogs() {
  const lines: { level: number; msg: string; origin?: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream, warnings: () => lines.filter((l) => l.level === 40) };
}

async function bareApp(nodeEnv: 'development' | 'production') {
  const logs = captureLogs();
  const app = Fastify({ logger: { level: 'warn', stream: logs.stream } });
  app.decorate(
    'env',
    loadEnv({
      NODE_ENV: nodeEnv,
      WEB_ORIGIN: WEB,
      APP_SECRET: 'x'.repeat(40),
      MAIL_FROM: 'no-reply@scuole.example.it',
      CONTACT_STAFF_EMAIL: 'staff@scuole.example.it',
    }),
  );
  await app.register(originCheck);
  app.get('/api/ping', async () => ({ ok: true }));
  await app.ready();
  return { app, logs };
}

describe('origin check (development)', () => {
  it('warns once per origin that WEB_ORIGIN does not allow, in plain words', async () => {
    const { app, logs } = await bareApp('development');
    const other = 'http://localhost:3100';
    for (let i = 0; i < 3; i++) await app.inject({ url: '/api/ping', headers: { origin: other } });
    await app.inject({ url: '/api/ping', headers: { origin: 'http://localhost:4000' } });
    expect(logs.warnings().map((l) => l.origin)).toEqual([other, 'http://localhost:4000']);
    expect(logs.warnings()[0]!.msg).toContain(
      `Richiesta da un'origine non consentita (${other}): aggiungila a WEB_ORIGIN`,
    );
    await app.close();
  });

  it('stays silent for allowed origins, same-origin pages and requests without an origin', async () => {
    const { app, logs } = await bareApp('development');
    await app.inject({ url: '/api/ping', headers: { origin: WEB } });
    await app.inject({
      url: '/api/ping',
      headers: { origin: 'http://api.localhost:8000', host: 'api.localhost:8000' },
    });
    await app.inject({ url: '/api/ping', headers: { origin: 'null' } });
    await app.inject({ url: '/api/ping' });
    expect(logs.warnings()).toEqual([]);
    await app.close();
  });

  it('is off in production', async () => {
    const { app, logs } = await bareApp('production');
    await app.inject({ url: '/api/ping', headers: { origin: 'http://localhost:3100' } });
    expect(logs.warnings()).toEqual([]);
    await app.close();
  });
});

describe('origin check in the whole API', () => {
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const logs = captureLogs();
  beforeAll(async () => {
    database = await openDatabase({ pgliteDir: 'memory://' });
    await database.migrate();
    const env = loadEnv({ NODE_ENV: 'development', WEB_ORIGIN: WEB });
    app = await buildApp({ env, database, logger: { level: 'warn', stream: logs.stream } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('reports the CORS preflight of a login from a web origin the API does not allow', async () => {
    const origin = 'http://localhost:3100';
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/api/auth/login',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-xsrf-token',
      },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(logs.warnings().map((l) => l.msg)).toEqual([
      expect.stringContaining(`(${origin}): aggiungila a WEB_ORIGIN`),
    ]);
  });
});
