import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { normaliseSearch } from '@portale/shared/lists';
import type { EnrolmentInstitute, EnrolmentInstituteOption } from '@portale/shared/enrolment';
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
import { searchCondition, searchRank } from '../../lib/list.ts';

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

// Staff's list of every invitation (issue 32) is in staff-invitations.repository.ts, re-exported here.
export * from './staff-invitations.repository.ts';
