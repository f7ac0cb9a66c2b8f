import { and, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  ConflictResolution,
  VisitReportConflict,
  VisitReportConflictQuery,
} from '@portale/shared/field-work';
import { schoolSites, users, visitReportSubmissions, visits } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { countAll, likeLiteral, orderByOf, paginate, type Page } from '../../lib/list.ts';
import { teachersMetOf } from './visits.repository.ts';

// The reports kept as conflicts (issue 39, decisions 043 and 051): the device's version and the visit now.

const s = visitReportSubmissions;
const author = alias(users, 'conflict_author');
const visitDetector = alias(users, 'conflict_visit_detector');
const importer = alias(users, 'conflict_importer');
const resolver = alias(users, 'conflict_resolver');

const fields = {
  clientReportId: s.clientReportId,
  code: s.conflictCode,
  report: s.report,
  teachersMet: s.teachersMet,
  visitStateThen: s.visitState,
  submittedAt: s.createdAt,
  authorId: author.id,
  authorFirstName: author.firstName,
  authorLastName: author.lastName,
  importerId: importer.id,
  importerFirstName: importer.firstName,
  importerLastName: importer.lastName,
  visitId: visits.id,
  siteId: schoolSites.id,
  siteName: schoolSites.name,
  siteCode: schoolSites.ministryCode,
  visitDetectorId: visitDetector.id,
  visitDetectorFirstName: visitDetector.firstName,
  visitDetectorLastName: visitDetector.lastName,
  scheduledAt: visits.scheduledAt,
  visitState: visits.state,
  outcomeNote: visits.outcomeNote,
  visitReport: visits.report,
  reviewState: visits.reviewState,
  resolution: s.resolution,
  resolutionNote: s.resolutionNote,
  resolvedAt: s.resolvedAt,
  resolverId: resolver.id,
  resolverFirstName: resolver.firstName,
  resolverLastName: resolver.lastName,
};

function fromConflicts(db: DbOrTx) {
  return db
    .select(fields)
    .from(s)
    .innerJoin(author, eq(author.id, s.detectorUserId))
    .innerJoin(visits, eq(visits.id, s.visitId))
    .innerJoin(schoolSites, eq(schoolSites.id, visits.schoolSiteId))
    .innerJoin(visitDetector, eq(visitDetector.id, visits.detectorUserId))
    .leftJoin(importer, eq(importer.id, s.importedByUserId))
    .leftJoin(resolver, eq(resolver.id, s.resolvedByUserId));
}

type Row = Awaited<ReturnType<ReturnType<typeof fromConflicts>['execute']>>[number];

async function toConflicts(db: DbOrTx, rows: Row[]): Promise<VisitReportConflict[]> {
  const byId = await teachersMetOf(db, rows);
  const person = (id: number | null, firstName: string | null, lastName: string | null) =>
    id === null ? null : { id, firstName: firstName ?? '', lastName: lastName ?? '' };
  return rows.map((r) => ({
    clientReportId: r.clientReportId,
    code: r.code ?? 'visit_changed',
    detector: { id: r.authorId, firstName: r.authorFirstName, lastName: r.authorLastName },
    report: r.report,
    teachersMet: r.teachersMet.map((id) => byId.get(id)).filter((p) => p !== undefined),
    visitState: r.visitStateThen,
    submittedAt: r.submittedAt.toISOString(),
    importedBy: person(r.importerId, r.importerFirstName, r.importerLastName),
    visit: {
      id: r.visitId,
      site: { id: r.siteId, name: r.siteName, ministryCode: r.siteCode },
      detector: {
        id: r.visitDetectorId,
        firstName: r.visitDetectorFirstName,
        lastName: r.visitDetectorLastName,
      },
      scheduledAt: r.scheduledAt.toISOString(),
      state: r.visitState,
      outcomeNote: r.outcomeNote,
      report: r.visitReport,
      reviewState: r.reviewState,
    },
    resolution:
      r.resolution && r.resolvedAt
        ? {
            decision: r.resolution,
            note: r.resolutionNote,
            by: person(r.resolverId, r.resolverFirstName, r.resolverLastName) ?? {
              id: 0,
              firstName: '',
              lastName: '',
            },
            at: r.resolvedAt.toISOString(),
          }
        : null,
  }));
}

function whereOf(query: Omit<VisitReportConflictQuery, 'page' | 'pageSize' | 'sort'>): SQL {
  const conditions: SQL[] = [eq(s.outcome, 'conflict')];
  if (query.state === 'open') conditions.push(isNull(s.resolution));
  if (query.state === 'resolved') conditions.push(isNotNull(s.resolution));
  if (query.code) conditions.push(eq(s.conflictCode, query.code));
  if (query.detectorId) conditions.push(eq(s.detectorUserId, query.detectorId));
  if (query.q) {
    const like = `%${likeLiteral(query.q)}%`;
    conditions.push(
      or(
        ilike(schoolSites.name, like),
        ilike(schoolSites.ministryCode, like),
        ilike(sql`${author.lastName} || ' ' || ${author.firstName}`, like),
        ilike(sql`${author.firstName} || ' ' || ${author.lastName}`, like),
      )!,
    );
  }
  return and(...conditions)!;
}

/** One page of the kept conflicts, filtered and sorted on the server (newest first by default). */
export function listConflicts(
  db: DbOrTx,
  query: VisitReportConflictQuery,
): Promise<Page<VisitReportConflict>> {
  const where = whereOf(query);
  const order = orderByOf(
    query.sort ?? { column: 'submittedAt', direction: 'desc' },
    { submittedAt: s.createdAt },
    s.clientReportId,
  );
  return paginate(
    async (limit, offset) =>
      toConflicts(
        db,
        await fromConflicts(db)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
      ),
    async () =>
      (
        await db
          .select({ n: countAll })
          .from(s)
          .innerJoin(author, eq(author.id, s.detectorUserId))
          .innerJoin(visits, eq(visits.id, s.visitId))
          .innerJoin(schoolSites, eq(schoolSites.id, visits.schoolSiteId))
          .where(where)
      )[0]!.n,
    query.page,
    query.pageSize,
  );
}

export async function findConflict(
  db: DbOrTx,
  clientReportId: string,
): Promise<VisitReportConflict | undefined> {
  const rows = await fromConflicts(db).where(
    and(eq(s.clientReportId, clientReportId), eq(s.outcome, 'conflict')),
  );
  return (await toConflicts(db, rows))[0];
}

/** The kept conflict, locked for a decision. */
export async function lockConflict(db: DbOrTx, clientReportId: string) {
  const [row] = await db
    .select()
    .from(s)
    .where(and(eq(s.clientReportId, clientReportId), eq(s.outcome, 'conflict')))
    .for('update');
  return row;
}

export async function setResolution(
  db: DbOrTx,
  clientReportId: string,
  values: { resolution: ConflictResolution; note: string | null; by: number; at: Date },
): Promise<void> {
  await db
    .update(s)
    .set({
      resolution: values.resolution,
      resolutionNote: values.note,
      resolvedByUserId: values.by,
      resolvedAt: values.at,
    })
    .where(eq(s.clientReportId, clientReportId));
}
