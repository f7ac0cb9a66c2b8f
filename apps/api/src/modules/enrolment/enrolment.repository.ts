import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { normaliseSearch, searchWords } from '@portale/shared/lists';
import type {
  EnrolmentInstitute,
  EnrolmentInstituteOption,
  StaffEnrolmentInvitation,
  StaffInvitationListQuery,
} from '@portale/shared/enrolment';
import { STAFF_ROLES, type Role } from '@portale/shared/auth';
import {
  enrolmentInvitations,
  enrolments,
  institutes,
  phoneVerifications,
  roles,
  schoolSites,
  userPermissions,
  userRoles,
  users,
} from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import {
  aliased,
  countAll,
  likeLiteral,
  orderByOf,
  paginate,
  rawRows,
  rowValue,
  searchCondition,
  searchRank,
  type Page,
} from '../../lib/list.ts';

const optionFields = {
  id: institutes.id,
  ministryCode: institutes.ministryCode,
  name: institutes.name,
  type: institutes.type,
  municipalityName: institutes.municipalityName,
  province: institutes.province,
  adhesionState: institutes.adhesionState,
};

type OptionRow = Omit<EnrolmentInstituteOption, 'enrollable'>;
const asOption = <T extends OptionRow>(row: T): T & { enrollable: boolean } => ({
  ...row,
  enrollable: row.adhesionState === 'nessuna',
});

async function optionsWhere(
  db: DbOrTx,
  where: SQL,
  q: string,
  limit: number,
): Promise<EnrolmentInstituteOption[]> {
  const rows = await db
    .select(optionFields)
    .from(institutes)
    .where(where)
    .orderBy(
      ...searchRank(institutes.ministryCode, institutes.searchText, q),
      asc(institutes.name),
      asc(institutes.id),
    )
    .limit(limit);
  return rows.map(asOption);
}

/**
 * The institute search of the enrolment: every word of `q` in the normalised name, comune and codice
 * (`search_text`, GIN trigram index), exact code first; when nothing contains the words, the same
 * index is asked for a near spelling, so a typo still finds the school.
 */
export async function searchInstituteOptions(
  db: DbOrTx,
  q: string,
  limit: number,
): Promise<EnrolmentInstituteOption[]> {
  const words = searchCondition(institutes.searchText, q);
  if (!words) return [];
  const found = await optionsWhere(db, words, q, limit);
  if (found.length > 0) return found;
  return optionsWhere(db, sql`${normaliseSearch(q)} <% ${institutes.searchText}`, q, limit);
}

/** One institute with its plessi (by level and name); `undefined` when unknown. */
export async function findEnrolmentInstitute(
  db: DbOrTx,
  instituteId: number,
): Promise<EnrolmentInstitute | undefined> {
  const [row] = await db
    .select({ ...optionFields, address: institutes.address })
    .from(institutes)
    .where(eq(institutes.id, instituteId));
  if (!row) return undefined;
  const sites = await db
    .select({
      id: schoolSites.id,
      ministryCode: schoolSites.ministryCode,
      name: schoolSites.name,
      schoolLevel: schoolSites.schoolLevel,
      municipalityName: schoolSites.municipalityName,
      address: schoolSites.address,
    })
    .from(schoolSites)
    .where(eq(schoolSites.instituteId, instituteId))
    .orderBy(asc(schoolSites.schoolLevel), asc(schoolSites.name), asc(schoolSites.id));
  return { ...asOption(row), schoolSites: sites };
}

export type VerificationRow = {
  id: string;
  userId: number | null;
  phone: string;
  verifiedAt: Date | null;
  enrolmentId: number | null;
};

const verificationFields = {
  id: phoneVerifications.id,
  userId: phoneVerifications.userId,
  phone: phoneVerifications.phone,
  verifiedAt: phoneVerifications.verifiedAt,
};

/** A phone verification and the enrolment that used it, if any. */
export async function findVerification(
  db: DbOrTx,
  verificationId: string,
): Promise<VerificationRow | undefined> {
  const [row] = await db
    .select({ ...verificationFields, enrolmentId: enrolments.id })
    .from(phoneVerifications)
    .leftJoin(enrolments, eq(enrolments.phoneVerificationId, phoneVerifications.id))
    .where(eq(phoneVerifications.id, verificationId));
  return row;
}

/**
 * Locks the verification row for the enrolment transaction (a second enrolment with the same
 * verification waits, then finds it used) and reads whether an enrolment already used it.
 */
export async function lockVerification(
  db: DbOrTx,
  verificationId: string,
): Promise<VerificationRow | undefined> {
  const [row] = await db
    .select(verificationFields)
    .from(phoneVerifications)
    .where(eq(phoneVerifications.id, verificationId))
    .for('update');
  if (!row) return undefined;
  const [used] = await db
    .select({ id: enrolments.id })
    .from(enrolments)
    .where(eq(enrolments.phoneVerificationId, verificationId));
  return { ...row, enrolmentId: used?.id ?? null };
}

/** Locks the institute row and reads what the enrolment and a handover need. */
export async function lockInstitute(db: DbOrTx, instituteId: number) {
  const [row] = await db
    .select({
      id: institutes.id,
      ministryCode: institutes.ministryCode,
      name: institutes.name,
      adhesionState: institutes.adhesionState,
      principalUserId: institutes.principalUserId,
      firstContactUserId: institutes.firstContactUserId,
    })
    .from(institutes)
    .where(eq(institutes.id, instituteId))
    .for('update');
  return row;
}

/** Those of `siteIds` that are plessi of the institute. */
export async function schoolSitesOfInstitute(
  db: DbOrTx,
  instituteId: number,
  siteIds: readonly number[],
): Promise<number[]> {
  if (siteIds.length === 0) return [];
  const rows = await db
    .select({ id: schoolSites.id })
    .from(schoolSites)
    .where(and(eq(schoolSites.instituteId, instituteId), inArray(schoolSites.id, [...siteIds])));
  return rows.map((r) => r.id);
}

const personFields = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
};
export type EnrolmentUser = { id: number; email: string; firstName: string; lastName: string };

/** The user of an address, whatever its case (`email` lower case). */
export async function findUserByEmail(db: DbOrTx, email: string): Promise<EnrolmentUser | undefined> {
  const [row] = await db
    .select(personFields)
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  return row;
}

/**
 * Creates the user unless the address exists (a concurrent enrolment naming the same person): then
 * `undefined`, and the caller links the existing user instead.
 */
export async function insertUserIfAbsent(
  db: DbOrTx,
  user: {
    email: string;
    passwordHash: string;
    firstName: string;
    lastName: string;
    phone: string;
    taxCode: string;
    phoneVerifiedAt: Date | null;
  },
  now: Date,
): Promise<EnrolmentUser | undefined> {
  const [row] = await db
    .insert(users)
    .values({ ...user, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning(personFields);
  return row;
}

/** Gives the user a role (nothing when they already hold it). */
export async function grantRole(db: DbOrTx, userId: number, role: Role): Promise<void> {
  const [found] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, role));
  if (!found) throw new Error(`Role not seeded: ${role}`);
  await db.insert(userRoles).values({ userId, roleId: found.id }).onConflictDoNothing();
}

/** Links the principal and the first contact to the institute (`null`: nobody yet, an invitation waits). */
export async function setInstitutePeople(
  db: DbOrTx,
  instituteId: number,
  people: { principalUserId: number | null; firstContactUserId: number | null },
  now: Date,
) {
  await db
    .update(institutes)
    .set({ ...people, updatedAt: now })
    .where(eq(institutes.id, instituteId));
}

/** Marks the chosen plessi as participating. */
export async function markSitesParticipating(
  db: DbOrTx,
  siteIds: readonly number[],
  now: Date,
): Promise<void> {
  if (siteIds.length === 0) return;
  await db
    .update(schoolSites)
    .set({ participating: true, updatedAt: now })
    .where(and(inArray(schoolSites.id, [...siteIds]), eq(schoolSites.participating, false)));
}

export async function insertEnrolment(db: DbOrTx, row: typeof enrolments.$inferInsert): Promise<number> {
  const [created] = await db.insert(enrolments).values(row).returning({ id: enrolments.id });
  return created!.id;
}

/** True when the verification is a public one (not the phone check of a signed-in account). */
export const isAnonymousVerification = (row: Pick<VerificationRow, 'userId'>) => row.userId === null;

/**
 * True when the account belongs to the programme's staff: a staff role (`STAFF_ROLES`) or any
 * permission of its own (permissions are staff grants, seed-spec §6).
 */
export async function isStaffAccount(db: DbOrTx, userId: number): Promise<boolean> {
  const [staffRole] = await db
    .select({ id: userRoles.userId })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(eq(userRoles.userId, userId), inArray(roles.name, [...STAFF_ROLES])))
    .limit(1);
  if (staffRole) return true;
  const [permission] = await db
    .select({ id: userPermissions.userId })
    .from(userPermissions)
    .where(eq(userPermissions.userId, userId))
    .limit(1);
  return permission !== undefined;
}

export type InvitationRow = typeof enrolmentInvitations.$inferSelect;

export async function insertInvitation(
  db: DbOrTx,
  row: typeof enrolmentInvitations.$inferInsert,
): Promise<number> {
  const [created] = await db
    .insert(enrolmentInvitations)
    .values(row)
    .returning({ id: enrolmentInvitations.id });
  return created!.id;
}

const invitationView = {
  id: enrolmentInvitations.id,
  kind: enrolmentInvitations.kind,
  instituteId: enrolmentInvitations.instituteId,
  ministryCode: institutes.ministryCode,
  instituteName: institutes.name,
  roles: enrolmentInvitations.roles,
  state: enrolmentInvitations.state,
  createdAt: enrolmentInvitations.createdAt,
  expiresAt: enrolmentInvitations.expiresAt,
};

export type InvitationView = {
  id: number;
  kind: InvitationRow['kind'];
  instituteId: number;
  ministryCode: string;
  instituteName: string;
  roles: InvitationRow['roles'];
  state: InvitationRow['state'];
  createdAt: Date;
  expiresAt: Date;
};

/** The pending, unexpired invitations of a user, oldest first. */
export async function pendingInvitationsOf(db: DbOrTx, userId: number, now: Date): Promise<InvitationView[]> {
  return db
    .select(invitationView)
    .from(enrolmentInvitations)
    .innerJoin(institutes, eq(institutes.id, enrolmentInvitations.instituteId))
    .where(
      and(
        eq(enrolmentInvitations.userId, userId),
        eq(enrolmentInvitations.state, 'in_attesa'),
        sql`${enrolmentInvitations.expiresAt} > ${now}`,
      ),
    )
    .orderBy(asc(enrolmentInvitations.createdAt), asc(enrolmentInvitations.id));
}

/** One invitation with its institute's name, for the answer of a decision. */
export async function findInvitationView(
  db: DbOrTx,
  invitationId: number,
): Promise<InvitationView | undefined> {
  const [row] = await db
    .select(invitationView)
    .from(enrolmentInvitations)
    .innerJoin(institutes, eq(institutes.id, enrolmentInvitations.instituteId))
    .where(eq(enrolmentInvitations.id, invitationId));
  return row;
}

/** The owner of an invitation (the resource check), `undefined` when there is none. */
export async function invitationOwner(db: DbOrTx, invitationId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ userId: enrolmentInvitations.userId })
    .from(enrolmentInvitations)
    .where(eq(enrolmentInvitations.id, invitationId));
  return row?.userId;
}

/** Locks the invitation for its decision. */
export async function lockInvitation(db: DbOrTx, invitationId: number): Promise<InvitationRow | undefined> {
  const [row] = await db
    .select()
    .from(enrolmentInvitations)
    .where(eq(enrolmentInvitations.id, invitationId))
    .for('update');
  return row;
}

export async function decideInvitation(
  db: DbOrTx,
  invitationId: number,
  state: 'accettato' | 'rifiutato',
  now: Date,
): Promise<void> {
  await db
    .update(enrolmentInvitations)
    .set({ state, decidedAt: now })
    .where(eq(enrolmentInvitations.id, invitationId));
}

/** Locks the institute and reads its state and people (the decision of an invitation). */
export async function lockInstitutePeople(db: DbOrTx, instituteId: number) {
  const [row] = await db
    .select({
      id: institutes.id,
      adhesionState: institutes.adhesionState,
      principalUserId: institutes.principalUserId,
      firstContactUserId: institutes.firstContactUserId,
    })
    .from(institutes)
    .where(eq(institutes.id, instituteId))
    .for('update');
  return row;
}

/** Sets one of the institute's people. */
export async function setInstitutePerson(
  db: DbOrTx,
  instituteId: number,
  person: { principalUserId: number } | { firstContactUserId: number },
  now: Date,
) {
  await db
    .update(institutes)
    .set({ ...person, updatedAt: now })
    .where(eq(institutes.id, instituteId));
}

/** The account's codice fiscale (upper case) and e-mail. */
export async function accountIdentity(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({ taxCode: users.taxCode, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

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
