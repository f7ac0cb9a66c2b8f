import { and, asc, eq, gt, inArray, lte, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  VISIT_DURATION_MINUTES,
  type AssignmentFilter,
  type DetectorFilters,
  type DetectorListQuery,
  type DetectorSiteDetail,
  type DetectorSiteFilters,
  type DetectorSiteListQuery,
  type DetectorSiteSummary,
  type DetectorSummary,
  type DetectorUpdate,
  type SiteTeacher,
  type Visit,
  type VisitState,
} from '@portale/shared/field-work';
import type { ReviewContent, ReviewField, ReviewState } from '@portale/shared/reviews';
import {
  detectorProfiles,
  institutes,
  roles,
  schoolSites,
  teacherProfiles,
  userRoles,
  users,
  visits,
} from '../../db/schema/index.ts';
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

const DETECTOR_ROLE = 'detector';

// --- Detectors ---

const isDetector = sql`exists (select 1 from ${userRoles} join ${roles} on ${roles.id} = ${userRoles.roleId} where ${userRoles.userId} = ${users.id} and ${roles.name} = ${DETECTOR_ROLE})`;
const siteCountExpr = sql<number>`(select count(*)::int from ${schoolSites} where ${schoolSites.detectorUserId} = ${users.id})`;

function detectorFields(now: Date) {
  return aliased({
    id: users.id,
    firstName: users.firstName,
    lastName: users.lastName,
    email: users.email,
    phone: users.phone,
    provinces: sql`coalesce(${detectorProfiles.provinces}, '{}'::text[])`,
    active: sql`coalesce(${detectorProfiles.active}, true)`,
    siteCount: siteCountExpr,
    nextVisitAt: sql`(select min(${visits.scheduledAt}) from ${visits} where ${visits.detectorUserId} = ${users.id} and ${visits.state} = 'pianificata' and ${visits.scheduledAt} > ${now.toISOString()}::timestamptz)`,
  });
}

const DETECTOR_SORTS = {
  name: sql`${users.lastName} || ' ' || ${users.firstName}`,
  siteCount: siteCountExpr,
  email: users.email,
};

function detectorWhere(filters: Omit<DetectorFilters, 'sort'>): SQL | undefined {
  return and(
    isDetector,
    searchCondition(users.searchText, filters.q),
    filters.province
      ? sql`${filters.province} = any(coalesce(${detectorProfiles.provinces}, '{}'::text[]))`
      : undefined,
    filters.active === undefined
      ? undefined
      : sql`coalesce(${detectorProfiles.active}, true) = ${filters.active}`,
  );
}

export function toDetectorSummary(row: Record<string, unknown>): DetectorSummary {
  const provinces = row.provinces;
  return {
    id: rowValue.int(row.id),
    firstName: rowValue.text(row.firstName),
    lastName: rowValue.text(row.lastName),
    email: rowValue.text(row.email),
    phone: rowValue.textOrNull(row.phone),
    provinces: Array.isArray(provinces) ? provinces.map(String) : parsePgArray(provinces),
    active: rowValue.bool(row.active),
    siteCount: rowValue.int(row.siteCount),
    nextVisitAt: rowValue.iso(row.nextVisitAt),
  };
}

/** `{RM,PV}` as the driver may hand a text[] through a raw cursor. */
function parsePgArray(value: unknown): string[] {
  if (typeof value !== 'string' || value.length < 2) return [];
  const inner = value.slice(1, -1);
  return inner === '' ? [] : inner.split(',').map((s) => s.replace(/^"|"$/g, ''));
}

export function detectorListQuery(db: DbOrTx, filters: DetectorFilters, now: Date) {
  return db
    .select(detectorFields(now))
    .from(users)
    .leftJoin(detectorProfiles, eq(detectorProfiles.userId, users.id))
    .where(detectorWhere(filters))
    .orderBy(...orderByOf(filters.sort ?? { column: 'name', direction: 'asc' }, DETECTOR_SORTS, users.id));
}

export async function countDetectors(db: DbOrTx, filters: DetectorFilters): Promise<number> {
  return rawCount(
    db,
    db
      .select({ n: countAll })
      .from(users)
      .leftJoin(detectorProfiles, eq(detectorProfiles.userId, users.id))
      .where(detectorWhere(filters)),
  );
}

export function listDetectors(
  db: DbOrTx,
  query: DetectorListQuery,
  now: Date,
): Promise<Page<DetectorSummary>> {
  return paginate(
    async (limit, offset) =>
      (await rawRows(db, detectorListQuery(db, query, now).limit(limit).offset(offset))).map(
        toDetectorSummary,
      ),
    () => countDetectors(db, query),
    query.page,
    query.pageSize,
  );
}

export async function findDetector(
  db: DbOrTx,
  userId: number,
  now: Date,
): Promise<DetectorSummary | undefined> {
  const [row] = await db
    .select(detectorFields(now))
    .from(users)
    .leftJoin(detectorProfiles, eq(detectorProfiles.userId, users.id))
    .where(and(eq(users.id, userId), isDetector));
  return row && toDetectorSummary(row);
}

export async function isDetectorUser(db: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isDetector));
  return row !== undefined;
}

/** The detector's profile as it stands, locked (created with defaults when missing). */
export async function lockDetectorProfile(db: DbOrTx, userId: number, now: Date) {
  await db.insert(detectorProfiles).values({ userId, createdAt: now, updatedAt: now }).onConflictDoNothing();
  const [row] = await db
    .select({ provinces: detectorProfiles.provinces, active: detectorProfiles.active })
    .from(detectorProfiles)
    .where(eq(detectorProfiles.userId, userId))
    .for('update');
  return row!;
}

export async function updateDetectorProfile(
  db: DbOrTx,
  userId: number,
  changes: DetectorUpdate,
  now: Date,
): Promise<void> {
  await db
    .update(detectorProfiles)
    .set({ ...changes, updatedAt: now })
    .where(eq(detectorProfiles.userId, userId));
}

// --- Assignment ---

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
  const where = target.siteIds ? inArray(schoolSites.id, target.siteIds) : assignmentWhere(target.filter!);
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
  const where = target.siteIds ? inArray(schoolSites.id, target.siteIds) : assignmentWhere(target.filter!);
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

// --- Visits ---

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

async function toVisits(db: DbOrTx, rows: VisitRow[]): Promise<Visit[]> {
  const ids = [...new Set(rows.flatMap((r) => r.teachersMet))];
  const people =
    ids.length === 0
      ? []
      : await db
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(inArray(users.id, ids));
  const byId = new Map(people.map((p) => [p.id, p]));
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

/** The plesso's detector, locked (a visit is planned for whoever holds the plesso now). */
export async function lockSiteDetector(db: DbOrTx, siteId: number) {
  const [row] = await db
    .select({ detector: schoolSites.detectorUserId })
    .from(schoolSites)
    .where(eq(schoolSites.id, siteId))
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
    },
  };
}
