import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { actions, adhesionSignatures, publicDocuments, visitReportPhotos } from '../db/schema/index.ts';

/**
 * Every column that names a stored file (decision 030). A new column that keeps a file key must be
 * added here, or the sweep removes its files once they are older than the grace period.
 */
const KEY_COLUMNS = [
  { table: publicDocuments, column: publicDocuments.fileKey },
  { table: actions, column: actions.evidenceFileKey },
  { table: adhesionSignatures, column: adhesionSignatures.signedFileKey },
  { table: visitReportPhotos, column: visitReportPhotos.fileKey },
] as const;

/** Which of `keys` some row names. */
export async function referenced(db: Db, keys: string[]): Promise<Set<string>> {
  const list = sql.join(
    keys.map((k) => sql`${k}`),
    sql`, `,
  );
  const union = sql.join(
    KEY_COLUMNS.map(
      ({ table, column }) => sql`select ${column} as key from ${table} where ${column} in (${list})`,
    ),
    sql` union `,
  );
  const result = (await db.execute(union)) as unknown as { rows: { key: string }[] };
  return new Set(result.rows.map((r) => r.key));
}
