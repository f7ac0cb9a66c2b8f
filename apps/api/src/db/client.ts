import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type QueryListener = (query: string, params: unknown[]) => void;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Applies the pending migrations; returns how many this call applied. On PostgreSQL it holds the
   * start-up advisory lock, so two instances starting at once never run a migration twice.
   */
  migrate(): Promise<{ applied: number }>;
  /**
   * Runs `task` while no other API instance runs one (the start-up advisory lock on PostgreSQL; the
   * embedded database belongs to one process). `task` uses `db` as usual.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Calls `listener` with every SQL statement sent through `db` until the returned function is called. */
  observeQueries(listener: QueryListener): () => void;
  /** The embedded database's whole data directory as an uncompressed tar (see `pgliteSnapshot`); PGlite only. */
  snapshot?(): Promise<Blob>;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  pgliteDir: string;
  /**
   * Starts the embedded database from a snapshot (`Database.snapshot()`) instead of an empty cluster:
   * a migrated and seeded test database is restored in about a quarter of the time `initdb` and the
   * migrations take (apps/api/test/database-snapshots.ts).
   */
  pgliteSnapshot?: Blob;
  /**
   * A PostgreSQL connection of the pool failed outside a query (the server restarted, a failover,
   * `pg_terminate_backend`). The pool has already dropped that connection and opens a new one on
   * the next checkout; this only reports it. Default: one line on stderr.
   */
  onConnectionError?: (error: Error) => void;
}

/** Statement observers (tests count the queries of a request); a no-op loop when there are none. */
function queryObservers(): { logger: Logger; observe(listener: QueryListener): () => void } {
  const listeners = new Set<QueryListener>();
  return {
    logger: {
      logQuery(query, params) {
        for (const listener of listeners) listener(query, params);
      },
    },
    observe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The default report of a dropped connection: one line on stderr. */
export const reportConnectionLost = (error: Error) =>
  console.error(
    `database connection lost (${(error as { code?: string }).code ?? error.message}); a new one is opened on the next query`,
  );

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** The session advisory lock held while an instance migrates or seeds (an arbitrary constant). */
export const STARTUP_LOCK_KEY = 4_812_604_337;

/**
 * Holds the start-up advisory lock on a connection of its own while `task` runs: another instance
 * waits in `pg_advisory_lock` until this one is done, then finds the work done. The lock goes with
 * the connection, so an instance killed mid-way never leaves it held.
 */
async function withStartupLock<T>(pool: pg.Pool, task: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    try {
      return await task();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => (broken = true));
    }
  } finally {
    // A connection whose unlock failed is closed rather than reused (closing it releases the lock).
    client.release(broken);
  }
}

/** Rows of drizzle's migration journal (0 before the first migration). */
async function appliedMigrations(db: Db): Promise<number> {
  type Rows = { rows: { n: number | null }[] };
  const table = (await db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations')::text as n`,
  )) as unknown as Rows;
  if (table.rows[0]?.n == null) return 0;
  const result = (await db.execute(
    sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
  )) as unknown as Rows;
  return Number(result.rows[0]!.n);
}

async function countingMigrations(db: Db, run: () => Promise<void>): Promise<{ applied: number }> {
  const before = await appliedMigrations(db);
  await run();
  return { applied: (await appliedMigrations(db)) - before };
}

const embedded = new WeakSet<object>();

/**
 * True for the embedded database: one process, one connection, queries run one at a time. Locks
 * that must hold across API instances are then in-process (see the login throttle).
 */
export const isEmbedded = (db: Db): boolean => embedded.has(db);

/** DATABASE_URL → PostgreSQL through a pool; otherwise embedded PGlite (a directory or `memory://`). */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const observers = queryObservers();
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const report = options.onConnectionError ?? reportConnectionLost;
    // An idle connection's error reaches both listeners below: report it once.
    const reported = new WeakSet<Error>();
    const onConnectionError = (error: Error) => {
      if (reported.has(error)) return;
      reported.add(error);
      report(error);
    };
    // Without these listeners a connection dropped by the server (restart, failover,
    // pg_terminate_backend) is an unhandled 'error' event that ends the process. An idle connection
    // reports through the pool, which has already removed it; a checked-out one (inside a
    // transaction, between statements) reports on the client, whose next statement then fails and
    // which the pool discards on release.
    pool.on('error', onConnectionError);
    pool.on('connect', (client) => client.on('error', onConnectionError));
    const db = drizzlePg(pool, { schema, logger: observers.logger });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      migrate: () =>
        withStartupLock(pool, () =>
          countingMigrations(db as unknown as Db, () => migratePg(db, { migrationsFolder })),
        ),
      exclusive: (task) => withStartupLock(pool, task),
      close: () => pool.end(),
      observeQueries: observers.observe,
    };
  }
  if (!options.pgliteDir.startsWith('memory://')) mkdirSync(options.pgliteDir, { recursive: true });
  const client = await PGlite.create(options.pgliteDir, {
    extensions: { pg_trgm },
    ...(options.pgliteSnapshot ? { loadDataDir: options.pgliteSnapshot } : {}),
  });
  const db = drizzlePglite(client, { schema, logger: observers.logger });
  embedded.add(db);
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => countingMigrations(db as unknown as Db, () => migratePglite(db, { migrationsFolder })),
    exclusive: (task) => task(),
    close: () => client.close(),
    observeQueries: observers.observe,
    snapshot: () => client.dumpDataDir('none'),
  };
}

const CONNECTION_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connessione rifiutata: il server non è avviato o la porta è sbagliata',
  ENOTFOUND: 'host sconosciuto',
  EAI_AGAIN: 'host sconosciuto (DNS non raggiungibile)',
  ETIMEDOUT: 'nessuna risposta entro il tempo limite',
  EHOSTUNREACH: 'host non raggiungibile',
  ENETUNREACH: 'rete non raggiungibile',
  ECONNRESET: 'connessione chiusa dal server',
  '28P01': 'utente o password non accettati',
  '28000': 'accesso non autorizzato per questo utente',
  '3D000': 'il database non esiste',
  '57P03': 'il server si sta ancora avviando',
};

/** The driver's own error: drizzle wraps it ("Failed query: …") and Node reports an AggregateError
 * when it has tried every address of a host name. */
function rootError(error: unknown): { code?: string; message: string } {
  const e = error as { code?: unknown; errors?: unknown[]; cause?: unknown; message?: unknown } | undefined;
  if (e && typeof e.code === 'string') return { code: e.code, message: String(e.message ?? e.code) };
  if (e?.cause) return rootError(e.cause);
  if (Array.isArray(e?.errors) && e.errors.length > 0) return rootError(e.errors[0]);
  return { message: error instanceof Error ? error.message : String(error) };
}

/**
 * One line, in plain words, for a database that cannot be opened at start: which variable, which
 * host and what went wrong (the password of the URL is never printed).
 */
export function describeDatabaseError(
  error: unknown,
  options: { databaseUrl?: string; pgliteDir: string },
): string {
  const root = rootError(error);
  const code = root.code;
  const detail = root.message.split('\n')[0]!.trim();
  if (!options.databaseUrl) {
    return `PGLITE_DIR: impossibile aprire il database incorporato in ${options.pgliteDir} (${detail}).`;
  }
  let where = 'il server indicato';
  let user = '';
  let name = '';
  try {
    const url = new URL(options.databaseUrl);
    where = `${url.hostname || 'localhost'}:${url.port || '5432'}`;
    user = decodeURIComponent(url.username);
    name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  } catch {
    // an unparsable URL is already refused by the environment check
  }
  const known = code ? CONNECTION_FAILURES[code] : undefined;
  if (code === '3D000')
    return `DATABASE_URL: il database "${name}" non esiste su ${where}: crealo (createdb ${name}) o correggi l'URL.`;
  if (code === '28P01' || code === '28000')
    return `DATABASE_URL: PostgreSQL su ${where} non accetta l'accesso dell'utente "${user}" (${known}).`;
  if (known) return `DATABASE_URL: impossibile connettersi a PostgreSQL su ${where} (${known}).`;
  return `DATABASE_URL: il database su ${where} non è utilizzabile: ${detail}${code ? ` (${code})` : ''}.`;
}
