import { and, asc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { VISIT_DURATION_MINUTES, type Visit, type VisitState } from '@portale/shared/field-work';
import type { ReviewContent, ReviewField, ReviewState } from '@portale/shared/reviews';
import { institutes, schoolSites, users, visitReportSubmissions, visits } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { countAll, rowValue } from '../../lib/list.ts';

// Visits: planned by staff for a plesso's detector, reported by the detector, reviewed by staff.

const visitDetector = alias(users, 'visit_detector');

const visitFields = {
  id: visits.id,
  schoolSiteId: visits.schoolSiteId,
  siteName: schoolSites.name,
  siteCode: schoolSites.ministryCode,
  detectorId: visitDetector.id,
  detectorFirstName: visitDetector.firstName,
  detectorLastName: visitDetector.lastName,
  scheduledAt: visits.scheduledAt,
  state: visits.state,
  report: visits.report,
  teachersMet: visits.teachersMet,
  outcomeNote: visits.outcomeNote,
  reviewState: visits.reviewState,
  reviewNote: visits.reviewNote,
  reviewFields: visits.reviewFields,
  reportedAt: visits.reportedAt,
  createdAt: visits.createdAt,
};

type VisitRow = {
  [K in keyof typeof visitFields]:
    | (typeof visitFields)[K]['_']['data']
    | ((typeof visitFields)[K]['_']['notNull'] extends true ? never : null);
};

/** The names of the teachers met in some reports, by user id (one query for all the rows). */
export async function teachersMetOf(
  db: DbOrTx,
  rows: readonly { teachersMet: number[] }[],
): Promise<Map<number, { id: number; firstName: string; lastName: string }>> {
  const ids = [...new Set(rows.flatMap((r) => r.teachersMet))];
  const people =
    ids.length === 0
      ? []
      : await db
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(inArray(users.id, ids));
  return new Map(people.map((p) => [p.id, p]));
}

async function toVisits(db: DbOrTx, rows: VisitRow[]): Promise<Visit[]> {
  const byId = await teachersMetOf(db, rows);
  return rows.map((r) => ({
    id: r.id,
    schoolSiteId: r.schoolSiteId,
    siteName: r.siteName,
    siteCode: r.siteCode,
    detector: { id: r.detectorId, firstName: r.detectorFirstName, lastName: r.detectorLastName },
    scheduledAt: r.scheduledAt.toISOString(),
    endsAt: new Date(r.scheduledAt.getTime() + VISIT_DURATION_MINUTES * 60_000).toISOString(),
    state: r.state,
    report: r.report,
    teachersMet: r.teachersMet.map((id) => byId.get(id)).filter((p) => p !== undefined),
    outcomeNote: r.outcomeNote,
    reviewState: r.reviewState,
    reviewNote: r.reviewNote,
    reviewFields: r.reviewFields,
    reportedAt: r.reportedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  }));
}

function fromVisits(db: DbOrTx) {
  return db
    .select(visitFields)
    .from(visits)
    .innerJoin(schoolSites, eq(schoolSites.id, visits.schoolSiteId))
    .innerJoin(visitDetector, eq(visitDetector.id, visits.detectorUserId));
}

export async function listVisitsOfSite(db: DbOrTx, siteId: number): Promise<Visit[]> {
  return toVisits(
    db,
    (await fromVisits(db)
      .where(eq(visits.schoolSiteId, siteId))
      .orderBy(sql`${visits.scheduledAt} desc`, sql`${visits.id} desc`)) as VisitRow[],
  );
}

/** A detector's latest visits (their page for staff, issue 39): the latest scheduled first. */
export async function latestVisitsOfDetector(db: DbOrTx, userId: number, limit: number): Promise<Visit[]> {
  return toVisits(
    db,
    (await fromVisits(db)
      .where(eq(visits.detectorUserId, userId))
      .orderBy(sql`${visits.scheduledAt} desc`, sql`${visits.id} desc`)
      .limit(limit)) as VisitRow[],
  );
}

export async function findVisit(db: DbOrTx, visitId: number): Promise<Visit | undefined> {
  const rows = (await fromVisits(db).where(eq(visits.id, visitId))) as VisitRow[];
  return (await toVisits(db, rows))[0];
}

/** The detector's next planned visits, the past ones still without a report, and the reports sent back to them. */
export async function myVisits(db: DbOrTx, userId: number, now: Date) {
  const ended = new Date(now.getTime() - VISIT_DURATION_MINUTES * 60_000);
  const [upcoming, toReport, toFix, [count]] = await Promise.all([
    fromVisits(db)
      .where(
        and(
          eq(visits.detectorUserId, userId),
          eq(visits.state, 'pianificata'),
          gt(visits.scheduledAt, ended),
        ),
      )
      .orderBy(asc(visits.scheduledAt), asc(visits.id))
      .limit(10),
    fromVisits(db)
      .where(
        and(
          eq(visits.detectorUserId, userId),
          eq(visits.state, 'pianificata'),
          lte(visits.scheduledAt, ended),
        ),
      )
      .orderBy(asc(visits.scheduledAt), asc(visits.id))
      .limit(20),
    fromVisits(db)
      .where(and(eq(visits.detectorUserId, userId), eq(visits.reviewState, 'da_correggere')))
      .orderBy(asc(visits.scheduledAt))
      .limit(20),
    db.select({ n: countAll }).from(schoolSites).where(eq(schoolSites.detectorUserId, userId)),
  ]);
  return {
    upcoming: await toVisits(db, upcoming as VisitRow[]),
    toReport: await toVisits(db, toReport as VisitRow[]),
    toFix: await toVisits(db, toFix as VisitRow[]),
    siteCount: rowValue.int(count?.n ?? 0),
  };
}

/** Owners of a visit: the detector who holds it. */
export async function visitOwners(db: DbOrTx, visitId: number) {
  const [row] = await db
    .select({ detector: visits.detectorUserId })
    .from(visits)
    .where(eq(visits.id, visitId));
  return row && { ownerUserIds: [row.detector] };
}

/** The visit's state, locked for a change. */
export async function lockVisit(db: DbOrTx, visitId: number) {
  const [row] = await db
    .select({
      state: visits.state,
      detectorUserId: visits.detectorUserId,
      outcomeNote: visits.outcomeNote,
      reviewState: visits.reviewState,
      schoolSiteId: visits.schoolSiteId,
      scheduledAt: visits.scheduledAt,
      report: visits.report,
      teachersMet: visits.teachersMet,
    })
    .from(visits)
    .where(eq(visits.id, visitId))
    .for('update');
  return row;
}

export async function insertVisit(
  db: DbOrTx,
  values: { schoolSiteId: number; detectorUserId: number; scheduledAt: Date; now: Date },
): Promise<number> {
  const [row] = await db
    .insert(visits)
    .values({
      schoolSiteId: values.schoolSiteId,
      detectorUserId: values.detectorUserId,
      scheduledAt: values.scheduledAt,
      state: 'pianificata',
      createdAt: values.now,
      updatedAt: values.now,
    })
    .returning({ id: visits.id });
  return row!.id;
}

export async function setVisitReport(
  db: DbOrTx,
  visitId: number,
  report: { report: string; teachersMet: number[] },
  now: Date,
): Promise<void> {
  await db
    .update(visits)
    .set({
      state: 'svolta',
      report: report.report,
      teachersMet: report.teachersMet,
      reviewState: 'in_attesa',
      reviewNote: null,
      reviewFields: [],
      reportedAt: now,
      updatedAt: now,
    })
    .where(eq(visits.id, visitId));
}

export async function setVisitOutcome(
  db: DbOrTx,
  visitId: number,
  state: Extract<VisitState, 'annullata' | 'mancata'>,
  note: string | null,
  now: Date,
): Promise<void> {
  await db.update(visits).set({ state, outcomeNote: note, updatedAt: now }).where(eq(visits.id, visitId));
}

/** The review engine's effect on a visit (in the decision's transaction); `undefined` when the visit is gone. */
export async function setVisitReviewState(
  db: DbOrTx,
  visitId: number,
  state: ReviewState,
  note: string | null,
  fields: ReviewField[],
  now: Date,
) {
  const [row] = await db
    .update(visits)
    .set({ reviewState: state, reviewNote: note, reviewFields: fields, updatedAt: now })
    .where(eq(visits.id, visitId))
    .returning({
      detectorUserId: visits.detectorUserId,
      schoolSiteId: visits.schoolSiteId,
      scheduledAt: visits.scheduledAt,
    });
  if (!row) return undefined;
  const [detector] = await db
    .select({ email: users.email, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, row.detectorUserId));
  const [site] = await db
    .select({ name: schoolSites.name })
    .from(schoolSites)
    .where(eq(schoolSites.id, row.schoolSiteId));
  return (
    detector && {
      ...detector,
      siteName: site?.name ?? '',
      schoolSiteId: row.schoolSiteId,
      scheduledAt: row.scheduledAt,
    }
  );
}

/** What the review screen shows of a visit report (queue `visite`); `undefined` when the visit is gone. */
export async function visitReviewContent(db: DbOrTx, visitId: number): Promise<ReviewContent | undefined> {
  const [row] = await db
    .select({
      id: visits.id,
      scheduledAt: visits.scheduledAt,
      reportedAt: visits.reportedAt,
      report: visits.report,
      teachersMet: visits.teachersMet,
      detectorId: visitDetector.id,
      detectorFirstName: visitDetector.firstName,
      detectorLastName: visitDetector.lastName,
      detectorEmail: visitDetector.email,
      siteId: schoolSites.id,
      siteName: schoolSites.name,
      siteCode: schoolSites.ministryCode,
      siteAddress: schoolSites.address,
      siteMunicipality: schoolSites.municipalityName,
      siteProvince: schoolSites.province,
      instituteName: institutes.name,
    })
    .from(visits)
    .innerJoin(schoolSites, eq(schoolSites.id, visits.schoolSiteId))
    .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId))
    .innerJoin(visitDetector, eq(visitDetector.id, visits.detectorUserId))
    .where(eq(visits.id, visitId));
  if (!row) return undefined;
  const [conflicts] = await db
    .select({ n: countAll })
    .from(visitReportSubmissions)
    .where(
      and(
        eq(visitReportSubmissions.visitId, visitId),
        eq(visitReportSubmissions.outcome, 'conflict'),
        isNull(visitReportSubmissions.resolution),
      ),
    );
  const people =
    row.teachersMet.length === 0
      ? []
      : await db
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(inArray(users.id, row.teachersMet));
  return {
    type: 'visite',
    visit: {
      id: row.id,
      scheduledAt: row.scheduledAt.toISOString(),
      reportedAt: row.reportedAt?.toISOString() ?? null,
      report: row.report,
      teachersMet: people,
      detector: {
        id: row.detectorId,
        firstName: row.detectorFirstName,
        lastName: row.detectorLastName,
        email: row.detectorEmail,
      },
      schoolSite: {
        id: row.siteId,
        name: row.siteName,
        ministryCode: row.siteCode,
        address: row.siteAddress,
        municipalityName: row.siteMunicipality,
        province: row.siteProvince,
        instituteName: row.instituteName,
      },
      openConflicts: rowValue.int(conflicts?.n ?? 0),
    },
  };
}
