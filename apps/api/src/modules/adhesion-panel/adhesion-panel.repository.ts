import { and, asc, eq, inArray, isNotNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ADHESION_STATES, type AdhesionState } from '@portale/shared/registry';
import type {
  AdhesionFunnel,
  AdhesionPanelFilters,
  AdhesionPanelQuery,
  AdhesionPanelRow,
  ReminderFilters,
  ReminderPreview,
} from '@portale/shared/adhesions';
import { adhesionReminders, institutes, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import {
  aliased,
  countAll,
  orderByOf,
  paginate,
  rawCount,
  rawRows,
  rowValue,
  searchRank,
  type Page,
} from '../../lib/list.ts';
import { enrolledInstitute, instituteFilterCondition, toInstituteSummary } from '../registry/index.ts';

const DAY_MS = 86_400_000;
const principal = alias(users, 'principal');
const firstContact = alias(users, 'first_contact');

const SORT_COLUMNS = {
  name: institutes.name,
  ministryCode: institutes.ministryCode,
  province: institutes.province,
  region: institutes.region,
  adhesionState: institutes.adhesionState,
  adhesionStateChangedAt: institutes.adhesionStateChangedAt,
};

const rowFields = aliased({
  id: institutes.id,
  ministryCode: institutes.ministryCode,
  name: institutes.name,
  type: institutes.type,
  isStateSchool: institutes.isStateSchool,
  region: institutes.region,
  province: institutes.province,
  municipalityName: institutes.municipalityName,
  adhesionState: institutes.adhesionState,
  adhesionStateChangedAt: institutes.adhesionStateChangedAt,
  schoolSiteCount: institutes.schoolSiteCount,
  principalId: principal.id,
  principalFirstName: principal.firstName,
  principalLastName: principal.lastName,
  principalEmail: principal.email,
  firstContactId: firstContact.id,
  firstContactFirstName: firstContact.firstName,
  firstContactLastName: firstContact.lastName,
  firstContactEmail: firstContact.email,
  lastReminderOn: sql`(select max(${adhesionReminders.sentOn})::text from ${adhesionReminders} where ${adhesionReminders.instituteId} = ${institutes.id})`,
});

function personOf(row: Record<string, unknown>, prefix: 'principal' | 'firstContact') {
  if (row[`${prefix}Id`] === null || row[`${prefix}Id`] === undefined) return null;
  return {
    id: rowValue.int(row[`${prefix}Id`]),
    firstName: rowValue.text(row[`${prefix}FirstName`]),
    lastName: rowValue.text(row[`${prefix}LastName`]),
    email: rowValue.text(row[`${prefix}Email`]),
  };
}

/** A raw row (page or export cursor) as the shared DTO. */
export function toPanelRow(row: Record<string, unknown>): AdhesionPanelRow {
  return {
    ...toInstituteSummary(row),
    principal: personOf(row, 'principal'),
    firstContact: personOf(row, 'firstContact'),
    lastReminderOn: rowValue.textOrNull(row.lastReminderOn),
  };
}

/** In the state for at least `days` days at `now`. */
function daysInStateCondition(days: number | undefined, now: Date): SQL | undefined {
  return days ? lte(institutes.adhesionStateChangedAt, new Date(now.getTime() - days * DAY_MS)) : undefined;
}

/**
 * The panel's condition: the registry filters, the days in state, and — without a state filter —
 * only the institutes that joined the programme (not `nessuna`).
 */
function whereOf(filters: Omit<AdhesionPanelFilters, 'sort'>, now: Date): SQL | undefined {
  return and(
    instituteFilterCondition({
      q: filters.q,
      region: filters.region,
      province: filters.province,
      adhesionState: filters.adhesionState,
    }),
    filters.adhesionState ? undefined : enrolledInstitute,
    daysInStateCondition(filters.minDaysInState, now),
  );
}

function orderOf(filters: Pick<AdhesionPanelFilters, 'q' | 'sort'>): SQL[] {
  if (!filters.sort && filters.q) {
    return [
      ...searchRank(institutes.ministryCode, institutes.searchText, filters.q),
      ...orderByOf({ column: 'name', direction: 'asc' }, SORT_COLUMNS, institutes.id),
    ];
  }
  // Longest in their state first: who waits most is who needs a reminder.
  return orderByOf(
    filters.sort ?? { column: 'adhesionStateChangedAt', direction: 'asc' },
    SORT_COLUMNS,
    institutes.id,
  );
}

/** The filtered, sorted rows of the list and of its export. */
export function panelQuery(db: DbOrTx, filters: AdhesionPanelFilters, now: Date) {
  return db
    .select(rowFields)
    .from(institutes)
    .leftJoin(principal, eq(principal.id, institutes.principalUserId))
    .leftJoin(firstContact, eq(firstContact.id, institutes.firstContactUserId))
    .where(whereOf(filters, now))
    .orderBy(...orderOf(filters));
}

export async function countPanel(
  db: DbOrTx,
  filters: Omit<AdhesionPanelFilters, 'sort'>,
  now: Date,
): Promise<number> {
  return rawCount(db, db.select({ n: countAll }).from(institutes).where(whereOf(filters, now)));
}

export function listPanel(db: DbOrTx, query: AdhesionPanelQuery, now: Date): Promise<Page<AdhesionPanelRow>> {
  return paginate(
    async (limit, offset) =>
      (await rawRows(db, panelQuery(db, query, now).limit(limit).offset(offset))).map(toPanelRow),
    () => countPanel(db, query, now),
    query.page,
    query.pageSize,
  );
}

/** Institutes per adhesion state, every state listed (zero included), in the machine's order. */
export async function funnel(
  db: DbOrTx,
  filters: Pick<AdhesionPanelFilters, 'region' | 'province' | 'minDaysInState'>,
  now: Date,
): Promise<AdhesionFunnel> {
  const rows = await db
    .select({ state: institutes.adhesionState, n: countAll })
    .from(institutes)
    .where(
      and(
        instituteFilterCondition({ region: filters.region, province: filters.province }),
        daysInStateCondition(filters.minDaysInState, now),
      ),
    )
    .groupBy(institutes.adhesionState);
  const counts = new Map<AdhesionState, number>(rows.map((r) => [r.state, Number(r.n)]));
  const states = ADHESION_STATES.map((state) => ({ state, count: counts.get(state) ?? 0 }));
  return { states, total: states.reduce((sum, s) => sum + s.count, 0) };
}

const hasContact = or(isNotNull(institutes.principalUserId), isNotNull(institutes.firstContactUserId));
const remindedOn = (day: string) =>
  sql`exists (select 1 from ${adhesionReminders} where ${adhesionReminders.instituteId} = ${institutes.id} and ${adhesionReminders.sentOn} = ${day})`;

/** How the filtered set splits for a reminder sent on `day`: eligible, already reminded, no one to write to. */
export async function previewReminders(
  db: DbOrTx,
  filters: ReminderFilters,
  now: Date,
  day: string,
): Promise<ReminderPreview> {
  const [row] = await db
    .select({
      eligible: sql<number>`count(*) filter (where ${hasContact} and not ${remindedOn(day)})::int`,
      remindedToday: sql<number>`count(*) filter (where ${remindedOn(day)})::int`,
      withoutContacts: sql<number>`count(*) filter (where not ${hasContact} and not ${remindedOn(day)})::int`,
    })
    .from(institutes)
    .where(whereOf(filters, now));
  return {
    eligible: Number(row?.eligible ?? 0),
    remindedToday: Number(row?.remindedToday ?? 0),
    withoutContacts: Number(row?.withoutContacts ?? 0),
  };
}

/**
 * Records today's reminder for every eligible institute of the filtered set in one statement; the
 * unique (institute, day) index makes a second click, or a concurrent one, record nothing twice.
 * Returns the institutes recorded now.
 */
export async function recordReminders(
  tx: DbOrTx,
  filters: ReminderFilters,
  now: Date,
  day: string,
  actorUserId: number | null,
): Promise<number[]> {
  const result = (await tx.execute(sql`
    insert into ${adhesionReminders} (institute_id, adhesion_state, sent_on, sent_by_user_id, created_at)
    select ${institutes.id}, ${institutes.adhesionState}, ${day}::date, ${actorUserId}::bigint, ${now.toISOString()}::timestamptz
    from ${institutes}
    where ${and(whereOf(filters, now), hasContact)}
    on conflict (institute_id, sent_on) do nothing
    returning institute_id`)) as unknown as { rows: { institute_id: number | string }[] };
  return result.rows.map((r) => Number(r.institute_id));
}

/** The people to write to for each reminded institute: principal and first contact (one e-mail per person). */
export async function reminderRecipients(db: DbOrTx, instituteIds: number[]) {
  if (instituteIds.length === 0) return [];
  return db
    .select({
      instituteId: institutes.id,
      instituteName: institutes.name,
      ministryCode: institutes.ministryCode,
      adhesionState: institutes.adhesionState,
      principalEmail: principal.email,
      principalFirstName: principal.firstName,
      firstContactEmail: firstContact.email,
      firstContactFirstName: firstContact.firstName,
    })
    .from(institutes)
    .leftJoin(principal, eq(principal.id, institutes.principalUserId))
    .leftJoin(firstContact, eq(firstContact.id, institutes.firstContactUserId))
    .where(inArray(institutes.id, instituteIds))
    .orderBy(asc(institutes.id));
}

/** Owners for the withdrawal: only the principal may withdraw their institute (staff: any). */
export async function findWithdrawalOwners(db: DbOrTx, instituteId: number) {
  const [row] = await db
    .select({ principal: institutes.principalUserId })
    .from(institutes)
    .where(eq(institutes.id, instituteId));
  return row && { ownerUserIds: [row.principal] };
}
