import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { AUTH_PATHS } from '@portale/shared/http';
import { buildApp } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { users } from '../src/db/schema/index.ts';
import { SessionCache } from '../src/plugins/session/session-cache.ts';
import {
  decodeScope,
  encodeScope,
  PostgresInvalidations,
  SESSION_CHANNEL,
} from '../src/plugins/session/session-invalidations.ts';
import { buildTestApp, queriesOf, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

describe('the session cache', () => {
  const user = (id: number) => ({ id }) as never;
  it('drops a user’s or a session’s entries, or all of them; a hit needs the same secret hash', () => {
    const cache = new SessionCache({ ttlMs: 10_000, maxEntries: 10 });
    const until = new Date(100_000);
    cache.store(cache.mark(), 'h1', { user: user(1), sessionId: 10, tokenId: 100 }, until, 0);
    cache.store(cache.mark(), 'h2', { user: user(1), sessionId: 11, tokenId: 101 }, until, 0);
    cache.store(cache.mark(), 'h3', { user: user(2), sessionId: 12, tokenId: 102 }, until, 0);
    expect(cache.lookup(100, 'h1', 1)?.sessionId).toBe(10);
    expect(cache.lookup(100, 'h2', 1)).toBeUndefined();
    cache.invalidate({ kind: 'session', sessionId: 11 });
    expect(cache.lookup(101, 'h2', 1)).toBeUndefined();
    expect(cache.lookup(100, 'h1', 1)).toBeDefined();
    cache.invalidate({ kind: 'user', userId: 1 });
    expect(cache.lookup(100, 'h1', 1)).toBeUndefined();
    expect(cache.lookup(102, 'h3', 1)).toBeDefined();
    cache.invalidate({ kind: 'all' });
    expect(cache.size).toBe(0);
  });

  it('ends an entry at its time to live, at the token’s end, and keeps at most maxEntries', () => {
    const cache = new SessionCache({ ttlMs: 10_000, maxEntries: 2 });
    cache.store(cache.mark(), 'h', { user: user(1), sessionId: 1, tokenId: 1 }, new Date(5_000), 0);
    expect(cache.lookup(1, 'h', 4_999)).toBeDefined();
    expect(cache.lookup(1, 'h', 5_000)).toBeUndefined();
    cache.store(cache.mark(), 'h', { user: user(1), sessionId: 1, tokenId: 2 }, new Date(60_000), 0);
    expect(cache.lookup(2, 'h', 9_999)).toBeDefined();
    expect(cache.lookup(2, 'h', 10_000)).toBeUndefined();
    for (const tokenId of [3, 4, 5])
      cache.store(cache.mark(), 'h', { user: user(1), sessionId: 1, tokenId }, new Date(60_000), 0);
    expect(cache.size).toBe(2);
    expect(cache.lookup(3, 'h', 1)).toBeUndefined();
    expect(cache.lookup(5, 'h', 1)).toBeDefined();
  });

  it('stores nothing while it is off, and starts empty when it is turned on again', () => {
    const cache = new SessionCache({ ttlMs: 10_000, maxEntries: 10 });
    cache.store(cache.mark(), 'h', { user: user(1), sessionId: 1, tokenId: 1 }, new Date(60_000), 0);
    const mark = cache.mark();
    cache.setEnabled(false);
    expect(cache.lookup(1, 'h', 1)).toBeUndefined();
    cache.store(cache.mark(), 'h', { user: user(1), sessionId: 1, tokenId: 1 }, new Date(60_000), 0);
    cache.setEnabled(true);
    expect(cache.size).toBe(0);
    // A lookup that began before the cache came back is not kept either.
    cache.store(mark, 'h', { user: user(1), sessionId: 1, tokenId: 1 }, new Date(60_000), 0);
    expect(cache.size).toBe(0);
  });

  it('notification payloads: a scope each; anything else is every session', () => {
    for (const scope of [
      { kind: 'all' },
      { kind: 'user', userId: 42 },
      { kind: 'session', sessionId: 7 },
    ] as const) {
      expect(decodeScope(encodeScope(scope))).toEqual(scope);
    }
    expect(decodeScope('')).toEqual({ kind: 'all' });
    expect(decodeScope('u:abc')).toEqual({ kind: 'all' });
  });
});

/** Until `check` holds (at most `ms`), polling; returns how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now() - started;
}

// Two API instances (two apps, two pools, two listeners) on one PostgreSQL database: a change made
// on A must reach B's cache by notification. The test clock does not move, so B's entries would
// otherwise live for ever: every assertion below fails without the cross-instance invalidation.
describe.skipIf(!process.env.DATABASE_URL)('two API instances on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  let databaseB: Database;
  const admin = () => (a.database.db as unknown as { $client: pg.Pool }).$client;

  beforeAll(async () => {
    a = await buildTestApp();
    const url = (a.database.db as unknown as { $client: pg.Pool }).$client.options.connectionString!;
    databaseB = await openDatabase({ databaseUrl: url, pgliteDir: '' });
    const appB = await buildApp({ env: a.env, database: databaseB, clock: a.clock, logger: false });
    await appB.ready();
    b = { ...a, app: appB, database: databaseB, close: async () => {} };
    // Each instance caches once its first probe has come back through its listener.
    await within(5000, async () => a.app.sessions.cache.enabled && b.app.sessions.cache.enabled);
  }, 60_000);

  afterAll(async () => {
    await b?.app.close();
    await databaseB?.close();
    await a?.close();
  });

  /**
   * The same token used on B; waits until B answers it from its cache (no statement). A login on A
   * tells every instance to forget that user's sessions, and on a busy machine the notification may
   * reach B after B's first answer: B then forgets it (or does not keep it) and reads it again.
   */
  async function cachedOnB(onA: ApiClient): Promise<ApiClient> {
    const onB = new ApiClient(b, onA.remoteAddress);
    onB.token = onA.token;
    await within(2000, async () => {
      expect((await onB.get(AUTH_PATHS.me)).statusCode).toBe(200);
      const queries = await queriesOf(databaseB, async () =>
        expect((await onB.get(AUTH_PATHS.me)).statusCode).toBe(200),
      );
      return queries.length === 0;
    });
    return onB;
  }

  it('a logout on A is refused on B within the notification delay', async () => {
    const onA = new ApiClient(a, nextIp());
    expect((await onA.login('insegnante@demo.test')).statusCode).toBe(200);
    const onB = await cachedOnB(onA);
    expect((await onA.post(AUTH_PATHS.logout)).statusCode).toBe(200);
    const ms = await within(2000, async () => (await onB.get(AUTH_PATHS.me)).statusCode === 401);
    console.log(`logout on A refused on B after ${ms.toFixed(1)} ms`);
  });

  it('a suspension and a role change made on A apply on B within the notification delay', async () => {
    const staff = new ApiClient(a, nextIp());
    expect((await staff.login('superadmin@demo.test')).statusCode).toBe(200);
    const onA = new ApiClient(a, nextIp());
    expect((await onA.login('referente@demo.test')).statusCode).toBe(200);
    const [row] = await a.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'referente@demo.test'));
    let onB = await cachedOnB(onA);
    const roles = (await onB.get(AUTH_PATHS.me)).json<{ user: { roles: string[] } }>().user.roles;
    expect(
      (await staff.send('PATCH', `/api/users/${row!.id}`, { payload: { roles: [...roles, 'educator'] } }))
        .statusCode,
    ).toBe(200);
    await within(2000, async () =>
      (await onB.get(AUTH_PATHS.me)).json<{ user: { roles: string[] } }>().user.roles.includes('educator'),
    );
    onB = await cachedOnB(onA);
    expect((await staff.post(`/api/users/${row!.id}/suspend`)).statusCode).toBe(200);
    await within(2000, async () => (await onB.get(AUTH_PATHS.me)).statusCode === 401);
    expect((await staff.post(`/api/users/${row!.id}/reactivate`)).statusCode).toBe(200);
  });

  it('an operator’s NOTIFY empties every instance’s cache', async () => {
    const onA = new ApiClient(a, nextIp());
    expect((await onA.login('dirigente@demo.test')).statusCode).toBe(200);
    await cachedOnB(onA);
    await onA.get(AUTH_PATHS.me);
    expect(a.app.sessions.cache.size).toBeGreaterThan(0);
    await admin().query(`NOTIFY ${SESSION_CHANNEL}`);
    await within(2000, async () => a.app.sessions.cache.size === 0 && b.app.sessions.cache.size === 0);
  });

  it('while its listener is disconnected an instance reads every session from the database, and caches again once it listens', async () => {
    const onA = new ApiClient(a, nextIp());
    expect((await onA.login('rilevatore@demo.test')).statusCode).toBe(200);
    await cachedOnB(onA);
    const { rows } = await admin().query<{ n: number }>(
      `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%' and pid <> pg_backend_pid()`,
    );
    expect(rows[0]!.n).toBe(2);
    await within(2000, async () => !b.app.sessions.cache.enabled);
    expect(b.app.sessions.cache.size).toBe(0);
    // Off: nothing is kept, every request reads the database.
    const onB = new ApiClient(b, onA.remoteAddress);
    onB.token = onA.token;
    expect((await onB.get(AUTH_PATHS.me)).statusCode).toBe(200);
    expect(b.app.sessions.cache.size).toBe(0);
    // It reconnects by itself, and caches again.
    await within(5000, async () => a.app.sessions.cache.enabled && b.app.sessions.cache.enabled);
    await cachedOnB(onA);
  });

  it('a listener that silently receives nothing (a half-open connection, a transaction-pooling proxy) turns the cache off within two heartbeats', async () => {
    const cache = new SessionCache({ ttlMs: 10_000, maxEntries: 10 });
    const warnings: string[] = [];
    const log = { info() {}, error() {}, warn: (_: object, message: string) => void warnings.push(message) };
    const listener = new PostgresInvalidations(cache, admin(), log, 100);
    try {
      await listener.start();
      await within(2000, async () => cache.enabled);
      // The connection stays up but hears nothing more.
      await (listener as unknown as { client: pg.Client }).client.query(`UNLISTEN ${SESSION_CHANNEL}`);
      await within(1000, async () => !cache.enabled);
      expect(warnings).toHaveLength(1);
      // It listens again by itself.
      await within(5000, async () => cache.enabled);
    } finally {
      await listener.close();
    }
  });
});
