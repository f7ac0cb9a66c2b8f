import { readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../src/seed/seed.ts';
import { REFRESH_REUSE_GRACE_MS } from '../src/modules/auth/tokens.repository.ts';
import { freshDatabase, HttpClient, startApi, type ApiProcess } from './api-process.ts';

// Two real API processes (node --import tsx src/server.ts) on one fresh PostgreSQL database, started
// at the same moment: what a deployment with several instances behind a load balancer does.

const LOCK_AFTER = 6;
const MESSAGES = 60;
const migrationFiles = readdirSync(fileURLToPath(new URL('../src/db/migrations', import.meta.url))).filter(
  (f) => f.endsWith('.sql'),
);

describe.skipIf(!process.env.DATABASE_URL)('two API instances on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let sql: pg.Client;
  let smtp: SMTPServer;
  const received: string[] = [];
  let a: ApiProcess;
  let b: ApiProcess;

  beforeAll(async () => {
    database = await freshDatabase('portale_instances');
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push(text);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const env = {
      DATABASE_URL: database.url,
      SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
      LOGIN_SLOWDOWN_AFTER: '100',
      LOGIN_LOCK_AFTER: String(LOCK_AFTER),
      LOGIN_IP_MAX_FAILURES: '1000',
    };
    // Both at once: each migrates and seeds under the start-up advisory lock.
    [a, b] = await Promise.all([startApi(env), startApi(env)]);
    console.log(
      `two instances started together: ready after ${Math.round(a.readyMs)} ms and ${Math.round(b.readyMs)} ms`,
    );
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await sql?.end();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    await database?.drop();
  }, 60_000);

  it('ran every migration exactly once, and both serve', async () => {
    const applied = [a, b].map(
      (p) => p.logs().find((l) => typeof l.migrationsApplied === 'number')?.migrationsApplied,
    );
    expect(applied.sort()).toEqual([0, migrationFiles.length]);
    const { rows } = await sql.query<{ n: number; distinct: number }>(
      'select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations',
    );
    expect(rows[0]).toEqual({ n: migrationFiles.length, distinct: migrationFiles.length });
    // The seed ran once too: one row per demo account.
    const users = await sql.query<{ n: number }>(
      "select count(*)::int as n from users where email = 'insegnante@demo.test'",
    );
    expect(users.rows[0]!.n).toBe(1);
    for (const p of [a, b]) expect((await fetch(`${p.url}/api/health/ready`)).status).toBe(200);
    expect(a.output() + b.output()).not.toMatch(/"level":(50|60)/);
  });

  it('logs in on A, refreshes on B, and detects the reuse of a rotated refresh token across A and B', async () => {
    const onA = new HttpClient(a.url);
    expect((await onA.login('insegnante@demo.test', DEMO_PASSWORD)).status).toBe(200);
    const firstRefresh = new Map(onA.jar);
    const onB = new HttpClient(b.url);
    for (const [k, v] of onA.jar) onB.jar.set(k, v);
    const refreshed = await onB.refresh();
    expect(refreshed.status).toBe(200);
    expect((await onB.send('GET', '/api/auth/me')).json.user).toMatchObject({
      email: 'insegnante@demo.test',
    });
    expect(onB.jar.get('auth._refresh_token.local')).not.toBe(firstRefresh.get('auth._refresh_token.local'));

    // Past the grace window for concurrent use, the first refresh token presented again on A is a
    // stolen copy: the whole session is revoked, on both instances.
    await new Promise((resolve) => setTimeout(resolve, REFRESH_REUSE_GRACE_MS + 500));
    const thief = new HttpClient(a.url);
    for (const [k, v] of firstRefresh) thief.jar.set(k, v);
    expect((await thief.refresh()).status).toBe(401);
    expect((await onB.refresh()).status).toBe(401);
    expect((await onB.send('GET', '/api/auth/me')).status).toBe(401);
    const onAgain = new HttpClient(a.url);
    onAgain.token = onB.token;
    expect((await onAgain.send('GET', '/api/auth/me')).status).toBe(401);
  }, 60_000);

  it(`locks an account after ${LOCK_AFTER} failures sent in parallel to A and B, never checking more`, async () => {
    const clients = await Promise.all(
      Array.from({ length: 2 * LOCK_AFTER }, async (_, i) => {
        const c = new HttpClient(i % 2 === 0 ? a.url : b.url);
        await c.send('HEAD', '/sanctum/csrf-cookie');
        return c;
      }),
    );
    const codes = (
      await Promise.all(clients.map((c) => c.login('rilevatore@demo.test', 'Sbagliata.2026')))
    ).map((r) => r.status);
    expect(codes.filter((s) => s === 401)).toHaveLength(LOCK_AFTER);
    expect(codes.filter((s) => s === 429)).toHaveLength(LOCK_AFTER);
    for (const url of [a.url, b.url]) {
      const res = await new HttpClient(url).login('rilevatore@demo.test', DEMO_PASSWORD);
      expect(res.status).toBe(429);
      expect(res.json.message).toMatch(/bloccato/);
    }
    const { rows } = await sql.query<{ failures: number }>(
      "select failures from login_throttles where key = 'account:rilevatore@demo.test'",
    );
    expect(rows[0]!.failures).toBe(LOCK_AFTER);
  }, 60_000);

  it(`delivers ${MESSAGES} outbox messages exactly once with both workers polling`, async () => {
    received.length = 0;
    await sql.query(
      `insert into outbox (channel, recipient, template_key, template_version, subject, text_body, next_attempt_at, created_at)
       select 'email', 'staff@example.test', 'test.instances', 1, 'Messaggio ' || i, 'Corpo ' || i, now(), now()
       from generate_series(1, $1::int) as i`,
      [MESSAGES],
    );
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { rows } = await sql.query<{ n: number }>(
        "select count(*)::int as n from outbox where template_key = 'test.instances' and status = 'sent'",
      );
      if (rows[0]!.n === MESSAGES || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A little longer: a duplicate would arrive now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const subjects = received
      .map((m) => /^Subject: (.+)$/m.exec(m)?.[1]?.trim())
      .filter((s) => s?.startsWith('Messaggio'));
    expect(subjects).toHaveLength(MESSAGES);
    expect(new Set(subjects).size).toBe(MESSAGES);
    const { rows } = await sql.query<{ status: string; attempts: number; n: number }>(
      "select status, attempts, count(*)::int as n from outbox where template_key = 'test.instances' group by status, attempts",
    );
    expect(rows).toEqual([{ status: 'sent', attempts: 0, n: MESSAGES }]);
    // Both workers took part (each claims at most 20 per poll).
    const byInstance = [a, b].map((p) => p.logs().filter((l) => l.msg === 'message delivered').length);
    expect(byInstance[0]! + byInstance[1]!).toBe(MESSAGES);
    expect(Math.min(...byInstance)).toBeGreaterThan(0);
  }, 90_000);
});
