import type { TestProject } from 'vitest/node';
import { prepareDatabaseSnapshots } from './database-snapshots.ts';

/** Once per Vitest run of the API project: the seeded databases every test app is copied from. */
export default async function setup(project: TestProject) {
  const { snapshots, dispose } = await prepareDatabaseSnapshots(process.env.DATABASE_URL);
  project.provide('databaseSnapshots', snapshots);
  return dispose;
}
