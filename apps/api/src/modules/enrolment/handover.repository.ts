import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { EnrolmentInvitationRole, HandoverInvitation } from '@portale/shared/enrolment';
import type { Role } from '@portale/shared/auth';
import { enrolmentInvitations, institutes, roles, userRoles, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import type { EnrolmentUser } from './enrolment.repository.ts';

/** The principal of an institute (the only owner for a handover: its first contact may not start one). */
export async function principalOf(db: DbOrTx, instituteId: number) {
  const [row] = await db
    .select({ principalUserId: institutes.principalUserId })
    .from(institutes)
    .where(eq(institutes.id, instituteId));
  return row;
}

/** A new account for the invited person: no phone yet (they add it when they complete the registration). */
export async function insertInvitedUser(
  db: DbOrTx,
  user: { email: string; passwordHash: string; firstName: string; lastName: string; taxCode: string },
  now: Date,
): Promise<EnrolmentUser | undefined> {
  const [row] = await db
    .insert(users)
    .values({ ...user, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName });
  return row;
}

/**
 * Cancels the pending invitations of the institute for `role` (a handover's or an enrolment's): the
 * newer invitation replaces them. Returns their ids.
 */
export async function cancelPendingFor(
  db: DbOrTx,
  instituteId: number,
  role: EnrolmentInvitationRole,
  now: Date,
): Promise<number[]> {
  const rows = await db
    .update(enrolmentInvitations)
    .set({ state: 'annullato', decidedAt: now })
    .where(
      and(
        eq(enrolmentInvitations.instituteId, instituteId),
        eq(enrolmentInvitations.state, 'in_attesa'),
        sql`${role} = any(${enrolmentInvitations.roles})`,
      ),
    )
    .returning({ id: enrolmentInvitations.id });
  return rows.map((r) => r.id);
}

const inviter = alias(users, 'inviter');

const handoverFields = {
  id: enrolmentInvitations.id,
  roles: enrolmentInvitations.roles,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  state: enrolmentInvitations.state,
  inviterFirstName: inviter.firstName,
  inviterLastName: inviter.lastName,
  createdAt: enrolmentInvitations.createdAt,
  expiresAt: enrolmentInvitations.expiresAt,
  decidedAt: enrolmentInvitations.decidedAt,
};

type HandoverRow = {
  id: number;
  roles: EnrolmentInvitationRole[];
  firstName: string;
  lastName: string;
  email: string;
  state: HandoverInvitation['state'];
  inviterFirstName: string | null;
  inviterLastName: string | null;
  createdAt: Date;
  expiresAt: Date;
  decidedAt: Date | null;
};

function toHandover(row: HandoverRow, now: Date): HandoverInvitation {
  return {
    id: row.id,
    role: row.roles[0]!,
    inviteeName: `${row.firstName} ${row.lastName}`,
    inviteeEmail: row.email,
    state: row.state,
    expired: row.state === 'in_attesa' && row.expiresAt.getTime() <= now.getTime(),
    invitedBy: row.inviterFirstName === null ? null : `${row.inviterFirstName} ${row.inviterLastName}`,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

function handoverQuery(db: DbOrTx) {
  return db
    .select(handoverFields)
    .from(enrolmentInvitations)
    .innerJoin(users, eq(users.id, enrolmentInvitations.userId))
    .leftJoin(inviter, eq(inviter.id, enrolmentInvitations.invitedByUserId));
}

/** The handovers of an institute: the pending ones first, then the last decided; at most 20. */
export async function listHandovers(
  db: DbOrTx,
  instituteId: number,
  now: Date,
): Promise<HandoverInvitation[]> {
  const rows = await handoverQuery(db)
    .where(and(eq(enrolmentInvitations.instituteId, instituteId), eq(enrolmentInvitations.kind, 'passaggio')))
    .orderBy(
      sql`(${enrolmentInvitations.state} = 'in_attesa') desc`,
      desc(enrolmentInvitations.createdAt),
      desc(enrolmentInvitations.id),
    )
    .limit(20);
  return rows.map((r) => toHandover(r, now));
}

/** One handover of the institute (`undefined`: none with this id there). */
export async function findHandover(db: DbOrTx, instituteId: number, invitationId: number, now: Date) {
  const [row] = await handoverQuery(db).where(
    and(
      eq(enrolmentInvitations.id, invitationId),
      eq(enrolmentInvitations.instituteId, instituteId),
      eq(enrolmentInvitations.kind, 'passaggio'),
    ),
  );
  return row && toHandover(row, now);
}

/**
 * Takes `role` away from a user who no longer holds it in any institute (their access to the
 * institute ended with the handover; their account and other institutes stay, decision 042).
 */
export async function revokeRoleIfUnused(db: DbOrTx, userId: number, role: Role): Promise<boolean> {
  const column = role === 'school.principal' ? institutes.principalUserId : institutes.firstContactUserId;
  const [still] = await db.select({ id: institutes.id }).from(institutes).where(eq(column, userId)).limit(1);
  if (still) return false;
  const [found] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, role));
  if (!found) return false;
  const removed = await db
    .delete(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, found.id)))
    .returning({ userId: userRoles.userId });
  return removed.length > 0;
}

/** The holder's name and address (the notice of the end of their access). */
export async function personOf(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
