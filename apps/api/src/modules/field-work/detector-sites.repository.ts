import { and, asc, eq, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  AssignmentFilter,
  DetectorSiteDetail,
  DetectorSiteFilters,
  DetectorSiteListQuery,
  DetectorSiteSummary,
  SiteTeacher,
} from '@portale/shared/field-work';
import type { ReviewState } from '@portale/shared/reviews';
import { institutes, schoolSites, teacherProfiles, users, visits } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import {
  aliased,
  countAll,
  orderByOf,
  paginate,
  rawCount,
  rawRows,
  rowValue,
  searchCondition,
  type Page,
} from '../../lib/list.ts';
import { listVisitsOfSite } from './visits.repository.ts';

// The plessi of field work: their assignment to detectors, a detector's plessi and their teachers.

// --- Assignment ---

/** The plessi an assignment names: a list, or a filter. */
export function assignmentTarget(target: { siteIds?: number[]; filter?: AssignmentFilter }): SQL | undefined {
  return target.siteIds ? inArray(schoolSites.id, target.siteIds) : assignmentWhere(target.filter!);
}

function assignmentWhere(filter: AssignmentFilter): SQL | undefined {
  return and(
    searchCondition(schoolSites.searchText, filter.q),
    filter.region ? eq(schoolSites.region, filter.region) : undefined,
    filter.province ? eq(schoolSites.province, filter.province) : undefined,
    filter.level ? eq(schoolSites.schoolLevel, filter.level) : undefined,
    filter.participating === undefined ? undefined : eq(schoolSites.participating, filter.participating),
    filter.currentDetector === undefined
      ? undefined
      : filter.currentDetector === 'none'
        ? isNull(schoolSites.detectorUserId)
        : eq(schoolSites.detectorUserId, filter.currentDetector),
  );
}

export interface AssignmentCounts {
  matched: number;
  unchanged: number;
  moved: number;
  added: number;
}

/** Counts what an assignment would do; with `lock`, locks the rows it names (inside the applying transaction). */
export async function countAssignment(
  db: DbOrTx,
  target: { siteIds?: number[]; filter?: AssignmentFilter },
  detectorUserId: number | null,
  lock = false,
): Promise<AssignmentCounts> {
  const where = assignmentTarget(target);
  if (lock)
    await db
      .select({ id: schoolSites.id })
      .from(schoolSites)
      .where(where)
      .orderBy(asc(schoolSites.id))
      .for('update');
  const same =
    detectorUserId === null
      ? sql`${schoolSites.detectorUserId} is null`
      : sql`${schoolSites.detectorUserId} is not distinct from ${detectorUserId}`;
  const [row] = await db
    .select({
      matched: countAll,
      unchanged: sql<number>`count(*) filter (where ${same})::int`,
      moved: sql<number>`count(*) filter (where ${schoolSites.detectorUserId} is not null and not (${same}))::int`,
      added: sql<number>`count(*) filter (where ${schoolSites.detectorUserId} is null and not (${same}))::int`,
    })
    .from(schoolSites)
    .where(where);
  return {
    matched: rowValue.int(row?.matched ?? 0),
    unchanged: rowValue.int(row?.unchanged ?? 0),
    moved: rowValue.int(row?.moved ?? 0),
    added: rowValue.int(row?.added ?? 0),
  };
}

/** Applies the assignment to the rows that change (a retried request changes nothing more); returns the ids written. */
export async function applyAssignment(
  db: DbOrTx,
  target: { siteIds?: number[]; filter?: AssignmentFilter },
  detectorUserId: number | null,
  now: Date,
): Promise<number[]> {
  const where = assignmentTarget(target);
  const changes =
    detectorUserId === null
      ? isNotNull(schoolSites.detectorUserId)
      : or(isNull(schoolSites.detectorUserId), ne(schoolSites.detectorUserId, detectorUserId));
  const rows = await db
    .update(schoolSites)
    .set({ detectorUserId, updatedAt: now })
    .where(and(where, changes))
    .returning({ id: schoolSites.id });
  return rows.map((r) => r.id);
}

/** How many of `siteIds` exist (an unknown id in an explicit list is refused). */
export async function countExistingSites(db: DbOrTx, siteIds: number[]): Promise<number> {
  const [row] = await db.select({ n: countAll }).from(schoolSites).where(inArray(schoolSites.id, siteIds));
  return rowValue.int(row?.n ?? 0);
}

// --- A detector's plessi ---

const detectorUser = alias(users, 'site_detector');
const teacherCountExpr = sql<number>`(select count(*)::int from ${teacherProfiles} where ${teacherProfiles.schoolSiteId} = ${schoolSites.id})`;
function nextVisitExpr(now: Date) {
  return sql`(select min(${visits.scheduledAt}) from ${visits} where ${visits.schoolSiteId} = ${schoolSites.id} and ${visits.state} = 'pianificata' and ${visits.scheduledAt} > ${now.toISOString()}::timestamptz)`;
}

function siteFields(now: Date) {
  return aliased({
    id: schoolSites.id,
    ministryCode: schoolSites.ministryCode,
    name: schoolSites.name,
    schoolLevel: schoolSites.schoolLevel,
    address: schoolSites.address,
    postalCode: schoolSites.postalCode,
    municipalityName: schoolSites.municipalityName,
    province: schoolSites.province,
    region: schoolSites.region,
    instituteName: institutes.name,
    participating: schoolSites.participating,
    detectorId: detectorUser.id,
    detectorFirstName: detectorUser.firstName,
    detectorLastName: detectorUser.lastName,
    teacherCount: teacherCountExpr,
    nextVisitAt: nextVisitExpr(now),
  });
}

export function toDetectorSiteSummary(row: Record<string, unknown>): DetectorSiteSummary {
  return {
    id: rowValue.int(row.id),
    ministryCode: rowValue.text(row.ministryCode),
    name: rowValue.text(row.name),
    schoolLevel: row.schoolLevel as DetectorSiteSummary['schoolLevel'],
    address: rowValue.textOrNull(row.address),
    postalCode: rowValue.textOrNull(row.postalCode),
    municipalityName: rowValue.text(row.municipalityName),
    province: rowValue.text(row.province),
    region: rowValue.text(row.region),
    instituteName: rowValue.text(row.instituteName),
    participating: rowValue.bool(row.participating),
    detector:
      row.detectorId === null || row.detectorId === undefined
        ? null
        : {
            id: rowValue.int(row.detectorId),
            firstName: rowValue.text(row.detectorFirstName),
            lastName: rowValue.text(row.detectorLastName),
          },
    teacherCount: rowValue.int(row.teacherCount),
    nextVisitAt: rowValue.iso(row.nextVisitAt),
  };
}

type SiteFilters = Omit<DetectorSiteFilters, 'sort'> & { sort?: DetectorSiteFilters['sort'] };

/** `detectorId`: whose plessi (forced to the caller for a detector; for staff, optional: every assigned plesso). */
function siteWhere(filters: SiteFilters, now: Date): SQL | undefined {
  return and(
    filters.detectorId
      ? eq(schoolSites.detectorUserId, filters.detectorId)
      : isNotNull(schoolSites.detectorUserId),
    searchCondition(schoolSites.searchText, filters.q),
    filters.province ? eq(schoolSites.province, filters.province) : undefined,
    filters.level ? eq(schoolSites.schoolLevel, filters.level) : undefined,
    filters.plannedVisit === undefined
      ? undefined
      : filters.plannedVisit
        ? sql`${nextVisitExpr(now)} is not null`
        : sql`${nextVisitExpr(now)} is null`,
  );
}

function siteOrder(filters: SiteFilters, now: Date): SQL[] {
  const columns = {
    name: schoolSites.name,
    municipalityName: schoolSites.municipalityName,
    province: schoolSites.province,
    nextVisitAt: nextVisitExpr(now),
    teacherCount: teacherCountExpr,
  };
  const sort = filters.sort ?? { column: 'name', direction: 'asc' };
  const nullsLast = sort.column === 'nextVisitAt' ? [sql`${nextVisitExpr(now)} is null`] : [];
  return [...nullsLast, ...orderByOf(sort, columns, schoolSites.id)];
}

function fromSites(db: DbOrTx, fields: Record<string, SQL.Aliased>) {
  return db
    .select(fields)
    .from(schoolSites)
    .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId))
    .leftJoin(detectorUser, eq(detectorUser.id, schoolSites.detectorUserId));
}

export function detectorSiteListQuery(db: DbOrTx, filters: SiteFilters, now: Date) {
  return fromSites(db, siteFields(now))
    .where(siteWhere(filters, now))
    .orderBy(...siteOrder(filters, now));
}

export async function countDetectorSites(db: DbOrTx, filters: SiteFilters, now: Date): Promise<number> {
  return rawCount(db, db.select({ n: countAll }).from(schoolSites).where(siteWhere(filters, now)));
}

export function listDetectorSites(
  db: DbOrTx,
  query: DetectorSiteListQuery,
  now: Date,
): Promise<Page<DetectorSiteSummary>> {
  return paginate(
    async (limit, offset) =>
      (await rawRows(db, detectorSiteListQuery(db, query, now).limit(limit).offset(offset))).map(
        toDetectorSiteSummary,
      ),
    () => countDetectorSites(db, query, now),
    query.page,
    query.pageSize,
  );
}

/** Owners of a plesso for field work: its detector only. `undefined` when the plesso is unknown. */
export async function siteDetectorOwners(db: DbOrTx, siteId: number) {
  const [row] = await db
    .select({ detector: schoolSites.detectorUserId })
    .from(schoolSites)
    .where(eq(schoolSites.id, siteId));
  return row && { ownerUserIds: [row.detector] };
}

export async function findDetectorSite(
  db: DbOrTx,
  siteId: number,
  now: Date,
): Promise<DetectorSiteSummary | undefined> {
  const [row] = await fromSites(db, siteFields(now)).where(eq(schoolSites.id, siteId));
  return row && toDetectorSiteSummary(row);
}

export async function findDetectorSiteDetail(
  db: DbOrTx,
  siteId: number,
  now: Date,
): Promise<DetectorSiteDetail | undefined> {
  const [row] = await fromSites(db, {
    ...siteFields(now),
    ...aliased({
      instituteId: institutes.id,
      instituteCode: institutes.ministryCode,
      latitude: schoolSites.latitude,
      longitude: schoolSites.longitude,
    }),
  }).where(eq(schoolSites.id, siteId));
  if (!row) return undefined;
  const [siteVisits, teachers] = await Promise.all([
    listVisitsOfSite(db, siteId),
    listSiteTeachers(db, siteId),
  ]);
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    ...toDetectorSiteSummary(row),
    instituteId: rowValue.int(row.instituteId),
    instituteCode: rowValue.text(row.instituteCode),
    latitude: num(row.latitude),
    longitude: num(row.longitude),
    visits: siteVisits,
    teachers,
  };
}

/** A rejected teacher is no longer one of the plesso's teachers (decision 029). */
const notRejected = ne(teacherProfiles.reviewState, 'respinta');

export async function listSiteTeachers(db: DbOrTx, siteId: number): Promise<SiteTeacher[]> {
  const rows = await db
    .select({
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      phone: users.phone,
      kind: teacherProfiles.kind,
      subjects: teacherProfiles.subjects,
      reviewState: teacherProfiles.reviewState,
    })
    .from(teacherProfiles)
    .innerJoin(users, eq(users.id, teacherProfiles.userId))
    .where(and(eq(teacherProfiles.schoolSiteId, siteId), notRejected))
    .orderBy(users.lastName, users.firstName, users.id);
  return rows.map((r) => ({ ...r, reviewState: r.reviewState as ReviewState }));
}

/** The user ids among `userIds` that are teachers of the plesso. */
export async function teachersOfSite(db: DbOrTx, siteId: number, userIds: number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ userId: teacherProfiles.userId })
    .from(teacherProfiles)
    .where(
      and(eq(teacherProfiles.schoolSiteId, siteId), notRejected, inArray(teacherProfiles.userId, userIds)),
    );
  return rows.map((r) => r.userId);
}

/** The plesso's detector, locked (a visit is planned for whoever holds the plesso now). */
export async function lockSiteDetector(db: DbOrTx, siteId: number) {
  const [row] = await db
    .select({ detector: schoolSites.detectorUserId })
    .from(schoolSites)
    .where(eq(schoolSites.id, siteId))
    .for('update');
  return row;
}
