import { openDatabase } from '../db/client.ts';
import { seed } from './seed.ts';
import { loadEnv } from '../env.ts';

const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR });
await database.migrate();
const result = await database.exclusive(() =>
  seed(database.db, {
    demo: env.seedDemo,
    registry: env.SEED_REGISTRY,
    dataDir: env.DATA_DIR,
    appSecret: env.APP_SECRET,
  }),
);
await database.close();
console.log(`Seed completato (istituti aggiunti: ${result.institutesAdded}).`);
