import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client.ts';
import { seedRegistry } from '../src/seed/registry.ts';
import { institutes } from '../src/db/schema/index.ts';
import { seedDemoAccounts, seedRolesAndPermissions } from '../src/seed/seed.ts';
import { loadEnv } from '../src/env.ts';
import { seedMessageTemplates } from '../src/seed/message-templates.ts';

/** The time every test app starts at (TestClock's default): the demo accounts are created then. */
export const TEST_START = new Date('2026-11-21T09:00:00Z');

export type TestRegistry = 'none' | 'sample';
export const TEST_REGISTRIES: readonly TestRegistry[] = ['none', 'sample'];

/**
 * Where the prepared test databases are: PGlite data-directory dumps (files) or PostgreSQL template
 * databases (names on the DATABASE_URL server), one per registry option.
 */
export interface DatabaseSnapshots {
  kind: 'pglite' | 'postgres';
  sources: Record<TestRegistry, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseSnapshots: DatabaseSnapshots;
  }
}

/**
 * What every test app's database holds before the app starts: roles, every message template (rendered
 * from storage, as on a real start), the two-province registry when asked, two test institutes and
 * the demo accounts.
 */
export async function seedTestDatabase(database: Database, registry: TestRegistry): Promise<void> {
  await database.migrate();
  await seedRolesAndPermissions(database.db);
  await seedMessageTemplates(database.db);
  // The real registry of two provinces (RM, PV), for tests of lists, filters and exports.
  if (registry === 'sample')
    await seedRegistry(database.db, loadEnv({ NODE_ENV: 'test' }).DATA_DIR, 'sample');
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
  await seedDemoAccounts(database.db, { now: TEST_START });
}

/** Waits until no backend is connected to `name` (pg's Pool.end() resolves before its backends leave). */
export async function waitForNoConnections(admin: pg.Client, name: string): Promise<void> {
  for (let waited = 0; waited < 5000; waited += 50) {
    const { rows } = await admin.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = $1',
      [name],
    );
    if (rows[0]!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function databaseUrlFor(serverUrl: string, name: string): string {
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  return target.toString();
}

/**
 * Prepares one seeded database per registry option, once per Vitest run (global setup): test apps
 * then start from a copy in a fraction of the time initdb, 22 migrations and the seeds take each.
 * Returns the snapshots and a function that removes them.
 */
export async function prepareDatabaseSnapshots(
  serverUrl: string | undefined,
): Promise<{ snapshots: DatabaseSnapshots; dispose(): Promise<void> }> {
  if (!serverUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'portale-test-db-'));
    const sources = {} as Record<TestRegistry, string>;
    for (const registry of TEST_REGISTRIES) {
      const database = await openDatabase({ pgliteDir: 'memory://' });
      await seedTestDatabase(database, registry);
      sources[registry] = join(dir, `${registry}.tar`);
      writeFileSync(sources[registry], Buffer.from(await (await database.snapshot!()).arrayBuffer()));
      await database.close();
    }
    return {
      snapshots: { kind: 'pglite', sources },
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const prefix = `portale_template_${randomBytes(4).toString('hex')}`;
  const sources = {} as Record<TestRegistry, string>;
  try {
    for (const registry of TEST_REGISTRIES) {
      const name = `${prefix}_${registry}`;
      await admin.query(`create database ${name}`);
      sources[registry] = name;
      const database = await openDatabase({ databaseUrl: databaseUrlFor(serverUrl, name), pgliteDir: '' });
      await seedTestDatabase(database, registry);
      await database.close();
      // CREATE DATABASE … TEMPLATE refuses a template with connected sessions.
      await waitForNoConnections(admin, name);
    }
  } finally {
    await admin.end();
  }
  return {
    snapshots: { kind: 'postgres', sources },
    async dispose() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      for (const name of Object.values(sources))
        await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
