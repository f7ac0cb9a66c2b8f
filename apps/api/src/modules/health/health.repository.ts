import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/transaction.ts';

/** One round trip to the database (`select 1`); rejects when it does not answer. */
export async function pingDatabase(db: DbOrTx): Promise<void> {
  await db.execute(sql`select 1`);
}
