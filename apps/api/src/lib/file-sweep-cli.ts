import { openDatabase } from '../db/client.ts';
import { loadEnv } from '../env.ts';
import { createFileStore } from './file-store.ts';
import { sweepOrphanFiles } from './file-sweep.ts';

/**
 * `npm run files:sweep -w apps/api`: removes the stored files that no row names, older than
 * FILE_SWEEP_GRACE_MINUTES (the API also does it every FILE_SWEEP_INTERVAL_MINUTES). On PostgreSQL it
 * may run beside the API; the embedded database belongs to one process, so stop the API first.
 */
const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR });
const files = await createFileStore(env);
try {
  const result = await sweepOrphanFiles(database.db, files, {
    graceMs: env.FILE_SWEEP_GRACE_MINUTES * 60_000,
  });
  console.log(
    `File esaminati: ${result.scanned}; rimossi perché nessun dato li usa più: ${result.removed}; troppo recenti per essere toccati: ${result.recent}.`,
  );
} finally {
  files.close?.();
  await database.close();
}
