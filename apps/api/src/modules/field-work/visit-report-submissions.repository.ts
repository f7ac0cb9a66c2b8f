import { createHash } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { VisitReportConflict, VisitState } from '@portale/shared/field-work';
import type { DbOrTx } from '../../db/transaction.ts';
import { users, visitReportSubmissions } from '../../db/schema/index.ts';
import { countAll, paginate, type Page } from '../../lib/list.ts';

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

/** The reports kept as conflicts, newest first (capped: a staff page with paging may come later). */
/** The kept conflicts, newest first, one page (`paginate`: the page and the count of the same filter). */
export function listConflicts(
  db: DbOrTx,
  page: number,
  pageSize: number,
): Promise<Page<VisitReportConflict>> {
  const isConflict = eq(visitReportSubmissions.outcome, 'conflict');
  return paginate(
    (limit, offset) => conflictRows(db, limit, offset),
    async () => (await db.select({ n: countAll }).from(visitReportSubmissions).where(isConflict))[0]!.n,
    page,
    pageSize,
  );
}

async function conflictRows(db: DbOrTx, limit: number, offset: number): Promise<VisitReportConflict[]> {
  const rows = await db
    .select({
      clientReportId: visitReportSubmissions.clientReportId,
      visitId: visitReportSubmissions.visitId,
      detectorId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      report: visitReportSubmissions.report,
      teachersMet: visitReportSubmissions.teachersMet,
      visitState: visitReportSubmissions.visitState,
      createdAt: visitReportSubmissions.createdAt,
    })
    .from(visitReportSubmissions)
    .innerJoin(users, eq(users.id, visitReportSubmissions.detectorUserId))
    .where(eq(visitReportSubmissions.outcome, 'conflict'))
    .orderBy(desc(visitReportSubmissions.createdAt), desc(visitReportSubmissions.clientReportId))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({
    clientReportId: r.clientReportId,
    visitId: r.visitId,
    detector: { id: r.detectorId, firstName: r.firstName, lastName: r.lastName },
    report: r.report,
    teachersMet: r.teachersMet,
    visitState: r.visitState,
    submittedAt: r.createdAt.toISOString(),
  }));
}
