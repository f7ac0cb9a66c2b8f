import type { Db } from './client.ts';

/** A transaction handle: the same query API as `Db`, committed or rolled back as one. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or an open transaction: repositories accept both. */
export type DbOrTx = Db | Tx;

/** Runs `work` in one transaction: every write commits together or none does. */
export function withTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(work);
}
