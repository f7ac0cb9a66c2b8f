import { randomBytes } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import { buildApp } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { loadEnv, type Env } from '../src/env.ts';
import type { Clock } from '../src/lib/clock.ts';
import { inject } from 'vitest';
import {
  databaseUrlFor,
  seedTestDatabase,
  TEST_START,
  waitForNoConnections,
  type DatabaseSnapshots,
  type TestRegistry,
} from './database-snapshots.ts';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  constructor(private current = new Date(TEST_START)) {}
  now() {
    return new Date(this.current);
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/**
 * A fresh database with the seeds of `seedTestDatabase`: on DATABASE_URL, a database of its own on that
 * server (copied from the run's template, then dropped); otherwise PGlite in memory restored from the
 * run's snapshot. Without the global setup (a file run on its own config) it is built from scratch.
 */
async function openTestDatabase(
  registry: TestRegistry,
): Promise<{ database: Database; dispose(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  const snapshots = inject('databaseSnapshots') as DatabaseSnapshots | undefined;
  if (!url) {
    const snapshot =
      snapshots?.kind === 'pglite' ? new Blob([readFileSync(snapshots.sources[registry])]) : undefined;
    const database = await openDatabase({
      pgliteDir: 'memory://',
      ...(snapshot ? { pgliteSnapshot: snapshot } : {}),
    });
    if (!snapshot) await seedTestDatabase(database, registry);
    return { database, dispose: () => database.close() };
  }
  const name = `portale_test_${randomBytes(6).toString('hex')}`;
  const template = snapshots?.kind === 'postgres' ? snapshots.sources[registry] : undefined;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const database = await openDatabase({ databaseUrl: databaseUrlFor(url, name), pgliteDir: '' });
  if (!template) await seedTestDatabase(database, registry);
  return {
    database,
    async dispose() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      // pg's Pool.end() resolves once each client is told to end, not once its backend has gone;
      // dropping "with (force)" at that moment kills a backend mid-goodbye and the client reports an
      // unhandled FATAL 57P01. Wait for the backends to leave first; force only as a last resort.
      await waitForNoConnections(cleanup, name);
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
  options: {
    registry?: 'sample';
    /** The API's own logger writes here (at LOG_LEVEL); else no logger. */ logStream?: DestinationStream;
  } = {},
): Promise<TestApp> {
  // Each test app has a file store of its own, removed with it.
  const fileStoreDir = mkdtempSync(join(tmpdir(), 'portale-files-'));
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_ORIGIN: 'http://127.0.0.1:3000',
    FILE_STORE_DIR: fileStoreDir,
    ...overrides,
  });
  const { database, dispose } = await openTestDatabase(options.registry ?? 'none');
  const clock = new TestClock();
  const app = await buildApp({
    env,
    database,
    clock,
    ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
  });
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
