import { randomBytes } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import { buildApp } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { institutes } from '../src/db/schema/index.ts';
import { seedRegistry } from '../src/db/registry.ts';
import { seedDemoAccounts, seedRolesAndPermissions } from '../src/db/seed.ts';
import { loadEnv, type Env } from '../src/env.ts';
import { seedMessageTemplates } from '../src/modules/messages/outbox.repository.ts';
import type { Clock } from '../src/lib/clock.ts';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  constructor(private current = new Date('2026-11-21T09:00:00Z')) {}
  now() {
    return new Date(this.current);
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/**
 * On DATABASE_URL, a fresh database of its own on that server (created and dropped here);
 * otherwise PGlite in memory. Migrations are applied either way.
 */
async function openTestDatabase(): Promise<{ database: Database; dispose(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    await database.migrate();
    return { database, dispose: () => database.close() };
  }
  const name = `portale_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: target.toString(), pgliteDir: '' });
  await database.migrate();
  return {
    database,
    async dispose() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      // pg's Pool.end() resolves once each client is told to end, not once its backend has gone;
      // dropping "with (force)" at that moment kills a backend mid-goodbye and the client reports an
      // unhandled FATAL 57P01. Wait for the backends to leave first; force only as a last resort.
      for (let waited = 0; waited < 5000; waited += 50) {
        const { rows } = await cleanup.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0]!.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** The SQL statements that `send` makes `database` run (every statement, in order). */
export async function queriesOf(database: Database, send: () => Promise<unknown>): Promise<string[]> {
  const queries: string[] = [];
  const stop = database.observeQueries((query) => queries.push(query));
  try {
    await send();
  } finally {
    stop();
  }
  return queries;
}

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  database: Database;
  clock: TestClock;
  env: Env;
  close(): Promise<void>;
}

/** The whole API on a fresh database with roles and the demo accounts (registry rows only when asked). */
export async function buildTestApp(
  overrides: Record<string, string> = {},
  options: { registry?: 'sample'; /** The API's own logger writes here (at LOG_LEVEL); else no logger. */ logStream?: DestinationStream } = {},
): Promise<TestApp> {
  // Each test app has a file store of its own, removed with it.
  const fileStoreDir = mkdtempSync(join(tmpdir(), 'portale-files-'));
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_ORIGIN: 'http://127.0.0.1:3000', FILE_STORE_DIR: fileStoreDir, ...overrides });
  const { database, dispose } = await openTestDatabase();
  await seedRolesAndPermissions(database.db);
  // Every message and document is rendered from a stored template (product §3), as on a real start.
  await seedMessageTemplates(database.db);
  // The real registry of two provinces (RM, PV), for tests of lists, filters and exports.
  if (options.registry) await seedRegistry(database.db, env.DATA_DIR, options.registry);
  await database.db.insert(institutes).values(
    ['RMIC8AB00X', 'RMIC8AC00Y'].map((ministryCode, i) => ({
      ministryCode,
      name: `Istituto comprensivo di prova ${i + 1}`,
      type: 'Istituto Comprensivo',
      isStateSchool: true,
      region: 'Lazio',
      province: 'RM',
      municipalityCode: 'H501',
      municipalityName: 'Roma',
    })),
  );
  const clock = new TestClock();
  await seedDemoAccounts(database.db, { now: clock.now() });
  const app = await buildApp({ env, database, clock, ...(options.logStream ? { logStream: options.logStream } : { logger: false }) });
  await app.ready();
  return {
    app,
    database,
    clock,
    env,
    async close() {
      await app.close();
      await dispose();
      rmSync(fileStoreDir, { recursive: true, force: true });
    },
  };
}

/** The rows of a raw SQL query on the test database. */
export async function sqlRows<T>(t: TestApp, query: SQL): Promise<T[]> {
  return ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}
