import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/transaction.ts';

/** Rows a topic may gather before they are folded into one. */
const FOLD_AFTER = 64;

/**
 * The version of the data a derived answer is built from (decision 020): the sum of the weights of
 * the topic's rows in `data_changes`, which statement triggers add to in every writing transaction,
 * with the latest row id (so that a table emptied by hand can never repeat a version). Equal versions
 * mean equal data: the sum only grows, one row per committed writing statement. One indexed read.
 */
export async function dataVersion(db: DbOrTx, topic: string): Promise<string> {
  const result = (await db.execute(
    sql`select coalesce(sum(weight), 0)::text as total, coalesce(max(id), 0)::text as last, count(*)::int as rows from data_changes where topic = ${topic}`,
  )) as unknown as { rows: { total: string; last: string; rows: number }[] };
  const row = result.rows[0]!;
  if (row.rows > FOLD_AFTER) await foldDataChanges(db, topic);
  return `${row.total}.${row.last}`;
}

/**
 * Folds a topic's rows into one of the same total weight, in one statement: the sum (the version)
 * is unchanged for every reader. Rows of transactions still open are not in this snapshot and stay.
 */
export async function foldDataChanges(db: DbOrTx, topic: string): Promise<void> {
  await db.execute(sql`
    with gone as (delete from data_changes where topic = ${topic} returning weight)
    insert into data_changes (topic, weight) select ${topic}, sum(weight) from gone having count(*) > 0`);
}
