import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ConflictCode, VisitState } from '@portale/shared/field-work';
import type { DbOrTx } from '../../db/transaction.ts';
import { visitReportSubmissions } from '../../db/schema/index.ts';

/** What a submission carries, canonical: the same report sent twice hashes the same (teachers sorted, deduplicated). */
export function payloadHashOf(visitId: number, report: string, teachersMet: readonly number[]): string {
  const canonical = JSON.stringify({
    visitId,
    report,
    teachersMet: [...new Set(teachersMet)].sort((a, b) => a - b),
  });
  return createHash('sha256').update(canonical).digest('hex');
}

export type StoredSubmission = typeof visitReportSubmissions.$inferSelect;

export async function findSubmission(
  db: DbOrTx,
  clientReportId: string,
): Promise<StoredSubmission | undefined> {
  const [row] = await db
    .select()
    .from(visitReportSubmissions)
    .where(eq(visitReportSubmissions.clientReportId, clientReportId));
  return row;
}

export async function insertSubmission(
  db: DbOrTx,
  values: {
    clientReportId: string;
    visitId: number;
    detectorUserId: number;
    payloadHash: string;
    report: string;
    teachersMet: number[];
    outcome: 'accepted' | 'conflict';
    conflictCode: ConflictCode | null;
    importedByUserId: number | null;
    visitState: VisitState;
    status: number;
    body: unknown;
    now: Date;
  },
): Promise<boolean> {
  const { now, ...rest } = values;
  // The same id sent at once for two visits (two locks): the second finds the first's row; `false`, never a 500.
  const rows = await db
    .insert(visitReportSubmissions)
    .values({ ...rest, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: visitReportSubmissions.clientReportId });
  return rows.length === 1;
}
