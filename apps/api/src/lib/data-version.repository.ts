import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/transaction.ts';

/** Rows a topic may gather before they are folded into one. */
const FOLD_AFTER = 64;

/**
 * The version of the data a derived answer is built from (decision 020), as an SQL expression that a
 * query can read in its own snapshot: `sum.last:rows`, the sum of the weights of the topic's rows in
 * `data_changes` (statement triggers add to it in every writing transaction), the latest row id (so
 * that a table emptied by hand can never repeat a version) and the number of rows (for `foldIfLong`).
 * Equal versions mean equal data: the sum only grows, one row per committed writing statement.
 */
export function dataVersionSql(topic: string): SQL {
  return sql`(select coalesce(sum(weight), 0)::text || '.' || coalesce(max(id), 0)::text || ':' || count(*)::text from data_changes where topic = ${topic})`;
}

/** A topic's version (`dataVersionSql`), in one indexed read; folds the topic's rows when they are many. */
export async function dataVersion(db: DbOrTx, topic: string): Promise<string> {
  const [version] = await dataVersions(db, [topic]);
  return version;
}

/** The versions of several topics in one statement (one snapshot), in the order given; folds as `dataVersion`. */
export async function dataVersions<const T extends readonly [string, ...string[]]>(
  db: DbOrTx,
  topics: T,
): Promise<{ [K in keyof T]: string }> {
  const columns = sql.join(
    topics.map((topic, i) => sql`${dataVersionSql(topic)} as ${sql.raw(`v${i}`)}`),
    sql`, `,
  );
  const result = (await db.execute(sql`select ${columns}`)) as unknown as { rows: Record<string, string>[] };
  const versions = topics.map((_, i) => result.rows[0]![`v${i}`]!);
  for (let i = 0; i < topics.length; i++) await foldIfLong(db, topics[i]!, versions[i]!);
  return versions as { [K in keyof T]: string };
}

/** Folds a topic's rows when the version read (`dataVersionSql`) counts more than `FOLD_AFTER`. */
export async function foldIfLong(db: DbOrTx, topic: string, version: string): Promise<void> {
  if (Number(version.slice(version.lastIndexOf(':') + 1)) > FOLD_AFTER) await foldDataChanges(db, topic);
}

/**
 * Folds a topic's rows into one of the same total weight, in one statement: the sum is unchanged for
 * every reader (the version changes once, by its latest id). Rows of transactions still open are not
 * in this snapshot and stay.
 */
export async function foldDataChanges(db: DbOrTx, topic: string): Promise<void> {
  await db.execute(sql`
    with gone as (delete from data_changes where topic = ${topic} returning weight)
    insert into data_changes (topic, weight) select ${topic}, sum(weight) from gone having count(*) > 0`);
}
