import { and, eq, sql, type SQL } from 'drizzle-orm';
import type {
  DetectorFilters,
  DetectorListQuery,
  DetectorSummary,
  DetectorUpdate,
} from '@portale/shared/field-work';
import {
  detectorDeviceQueues,
  detectorProfiles,
  roles,
  schoolSites,
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

// Detectors: the users with the detector role and their profile (provinces, active).

const DETECTOR_ROLE = 'detector';

const isDetector = sql`exists (select 1 from ${userRoles} join ${roles} on ${roles.id} = ${userRoles.roleId} where ${userRoles.userId} = ${users.id} and ${roles.name} = ${DETECTOR_ROLE})`;
/** The detector's devices' unsent reports (issue 39): their sum, the oldest, the last report. */
const unsentExpr = sql<number>`(select coalesce(sum(${detectorDeviceQueues.unsent}), 0)::int from ${detectorDeviceQueues} where ${detectorDeviceQueues.userId} = ${users.id})`;
const oldestUnsentExpr = sql`(select min(${detectorDeviceQueues.oldestUnsentAt}) from ${detectorDeviceQueues} where ${detectorDeviceQueues.userId} = ${users.id} and ${detectorDeviceQueues.unsent} > 0)`;
const queueReportedExpr = sql`(select max(${detectorDeviceQueues.reportedAt}) from ${detectorDeviceQueues} where ${detectorDeviceQueues.userId} = ${users.id})`;
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
    unsentReports: unsentExpr,
    oldestUnsentAt: oldestUnsentExpr,
    queueReportedAt: queueReportedExpr,
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
    unsentReports: rowValue.int(row.unsentReports),
    oldestUnsentAt: rowValue.iso(row.oldestUnsentAt),
    queueReportedAt: rowValue.iso(row.queueReportedAt),
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

/** Records what one of the detector's devices says about its unsent reports (one row per device). */
export async function upsertDeviceQueue(
  db: DbOrTx,
  userId: number,
  report: { deviceId: string; unsent: number; oldestUnsentAt: string | null },
  now: Date,
): Promise<void> {
  const values = {
    unsent: report.unsent,
    oldestUnsentAt: report.oldestUnsentAt ? new Date(report.oldestUnsentAt) : null,
    reportedAt: now,
  };
  await db
    .insert(detectorDeviceQueues)
    .values({ userId, deviceId: report.deviceId, ...values })
    .onConflictDoUpdate({
      target: [detectorDeviceQueues.userId, detectorDeviceQueues.deviceId],
      set: values,
    });
}
