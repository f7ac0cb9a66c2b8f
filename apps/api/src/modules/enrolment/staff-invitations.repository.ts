import { and, eq, sql, type SQL } from 'drizzle-orm';
import { searchWords } from '@portale/shared/lists';
import type { StaffEnrolmentInvitation, StaffInvitationListQuery } from '@portale/shared/enrolment';
import { enrolmentInvitations, institutes, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import {
  aliased,
  countAll,
  likeLiteral,
  orderByOf,
  paginate,
  rawRows,
  rowValue,
  type Page,
} from '../../lib/list.ts';

// --- Staff: every invitation (issue 32) ---

type StaffFilters = Omit<StaffInvitationListQuery, 'page' | 'pageSize' | 'sort'> & {
  sort?: StaffInvitationListQuery['sort'];
};

const staffFields = aliased({
  id: enrolmentInvitations.id,
  kind: enrolmentInvitations.kind,
  instituteId: enrolmentInvitations.instituteId,
  ministryCode: institutes.ministryCode,
  instituteName: institutes.name,
  userId: enrolmentInvitations.userId,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  roles: enrolmentInvitations.roles,
  state: enrolmentInvitations.state,
  createdAt: enrolmentInvitations.createdAt,
  expiresAt: enrolmentInvitations.expiresAt,
  decidedAt: enrolmentInvitations.decidedAt,
});

const inviteeName = sql`${users.lastName} || ' ' || ${users.firstName}`;
const STAFF_SORT_COLUMNS = {
  createdAt: enrolmentInvitations.createdAt,
  expiresAt: enrolmentInvitations.expiresAt,
  instituteName: institutes.name,
  inviteeName,
  state: enrolmentInvitations.state,
};

/** A row of the staff list: `expired` says whether a pending invitation is past its date at `now`. */
export function toStaffInvitation(row: Record<string, unknown>, now: Date): StaffEnrolmentInvitation {
  const state = row.state as StaffEnrolmentInvitation['state'];
  const expiresAt = rowValue.date(row.expiresAt)!;
  const roles = Array.isArray(row.roles)
    ? row.roles
    : String(row.roles ?? '')
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean);
  return {
    id: rowValue.int(row.id),
    kind: rowValue.text(row.kind) as StaffEnrolmentInvitation['kind'],
    instituteId: rowValue.int(row.instituteId),
    ministryCode: rowValue.text(row.ministryCode),
    instituteName: rowValue.text(row.instituteName),
    userId: rowValue.int(row.userId),
    inviteeName: `${rowValue.text(row.firstName)} ${rowValue.text(row.lastName)}`.trim(),
    inviteeEmail: rowValue.text(row.email),
    roles: roles as StaffEnrolmentInvitation['roles'],
    state,
    expired: state === 'in_attesa' && expiresAt.getTime() <= now.getTime(),
    createdAt: rowValue.iso(row.createdAt)!,
    expiresAt: expiresAt.toISOString(),
    decidedAt: rowValue.iso(row.decidedAt),
  };
}

function staffWhere(filters: StaffFilters, now: Date): SQL | undefined {
  return and(
    // Every word in the institute (name, place, code) or in the invited person (name, e-mail).
    ...searchWords(filters.q).map(
      (w) =>
        sql`(${institutes.searchText} like ${`%${likeLiteral(w)}%`} or ${users.searchText} like ${`%${likeLiteral(w)}%`})`,
    ),
    filters.state ? eq(enrolmentInvitations.state, filters.state) : undefined,
    filters.expired === undefined
      ? undefined
      : filters.expired
        ? sql`(${enrolmentInvitations.state} = 'in_attesa' and ${enrolmentInvitations.expiresAt} <= ${now})`
        : sql`not (${enrolmentInvitations.state} = 'in_attesa' and ${enrolmentInvitations.expiresAt} <= ${now})`,
  );
}

/** The filtered, sorted invitations with their institute and invited account: the staff list's page and the export's rows. */
export function staffInvitationQuery(db: DbOrTx, filters: StaffFilters, now: Date) {
  return db
    .select(staffFields)
    .from(enrolmentInvitations)
    .innerJoin(institutes, eq(institutes.id, enrolmentInvitations.instituteId))
    .innerJoin(users, eq(users.id, enrolmentInvitations.userId))
    .where(staffWhere(filters, now))
    .orderBy(
      ...orderByOf(
        filters.sort ?? { column: 'createdAt', direction: 'desc' },
        STAFF_SORT_COLUMNS,
        enrolmentInvitations.id,
      ),
    );
}

export async function countStaffInvitations(db: DbOrTx, filters: StaffFilters, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: countAll })
    .from(enrolmentInvitations)
    .innerJoin(institutes, eq(institutes.id, enrolmentInvitations.instituteId))
    .innerJoin(users, eq(users.id, enrolmentInvitations.userId))
    .where(staffWhere(filters, now));
  return row?.n ?? 0;
}

export function listStaffInvitations(
  db: DbOrTx,
  query: StaffInvitationListQuery,
  now: Date,
): Promise<Page<StaffEnrolmentInvitation>> {
  return paginate(
    async (limit, offset) =>
      (await rawRows(db, staffInvitationQuery(db, query, now).limit(limit).offset(offset))).map((row) =>
        toStaffInvitation(row, now),
      ),
    () => countStaffInvitations(db, query, now),
    query.page,
    query.pageSize,
  );
}

/** One invitation as staff see it. */
export async function findStaffInvitation(
  db: DbOrTx,
  invitationId: number,
  now: Date,
): Promise<StaffEnrolmentInvitation | undefined> {
  const [row] = await rawRows(
    db,
    db
      .select(staffFields)
      .from(enrolmentInvitations)
      .innerJoin(institutes, eq(institutes.id, enrolmentInvitations.instituteId))
      .innerJoin(users, eq(users.id, enrolmentInvitations.userId))
      .where(eq(enrolmentInvitations.id, invitationId)),
  );
  return row && toStaffInvitation(row, now);
}

/** Whether the invitation exists (the 404 of the staff routes, before the permission answer). */
export async function invitationExists(db: DbOrTx, invitationId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: enrolmentInvitations.id })
    .from(enrolmentInvitations)
    .where(eq(enrolmentInvitations.id, invitationId));
  return row !== undefined;
}

/** A pending invitation sent again: valid until `expiresAt`. */
export async function extendInvitation(db: DbOrTx, invitationId: number, expiresAt: Date): Promise<void> {
  await db.update(enrolmentInvitations).set({ expiresAt }).where(eq(enrolmentInvitations.id, invitationId));
}

/** A pending invitation cancelled by staff. */
export async function cancelInvitation(db: DbOrTx, invitationId: number, now: Date): Promise<void> {
  await db
    .update(enrolmentInvitations)
    .set({ state: 'annullato', decidedAt: now })
    .where(eq(enrolmentInvitations.id, invitationId));
}

/** What the invitation e-mail needs: the institute and the invited account. */
export async function invitationMailData(db: DbOrTx, invitationId: number) {
  const [row] = await db
    .select({
      instituteName: institutes.name,
      ministryCode: institutes.ministryCode,
      email: users.email,
      firstName: users.firstName,
      roles: enrolmentInvitations.roles,
      kind: enrolmentInvitations.kind,
      inviterName: sql<
        string | null
      >`(select ${users.firstName} || ' ' || ${users.lastName} from ${users} where ${users.id} = ${enrolmentInvitations.invitedByUserId})`,
    })
    .from(enrolmentInvitations)
    .innerJoin(institutes, eq(institutes.id, enrolmentInvitations.instituteId))
    .innerJoin(users, eq(users.id, enrolmentInvitations.userId))
    .where(eq(enrolmentInvitations.id, invitationId));
  return row;
}
