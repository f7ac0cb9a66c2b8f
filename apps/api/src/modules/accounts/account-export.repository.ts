import { desc, eq, inArray, or } from 'drizzle-orm';
import {
  auditLog,
  authSessions,
  deletionRequests,
  emailVerifications,
  enrolmentInvitations,
  mfaFactors,
  outbox,
  passwordResets,
  phoneVerifications,
  roles,
  teacherProfiles,
  userRoles,
  users,
} from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

/** Everything stored about a user (GDPR art. 15/20), without secrets: no hashes, tokens or TOTP secret. */
export async function exportAccountData(db: DbOrTx, userId: number) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return undefined;
  const { passwordHash: _hash, ...account } = user;
  const recipients = [user.email, ...(user.phone ? [user.phone] : [])];
  const [mfa] = await db.select().from(mfaFactors).where(eq(mfaFactors.userId, userId));
  return {
    account,
    roles: (
      await db
        .select({ name: roles.name })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(eq(userRoles.userId, userId))
    ).map((r) => r.name),
    teacherProfile:
      (await db.select().from(teacherProfiles).where(eq(teacherProfiles.userId, userId)))[0] ?? null,
    secondFactor: mfa ? { enabledAt: mfa.enabledAt, recoveryCodesLeft: mfa.recoveryCodeHashes.length } : null,
    sessions: await db
      .select({
        id: authSessions.id,
        device: authSessions.userAgent,
        ip: authSessions.ip,
        createdAt: authSessions.createdAt,
        lastUsedAt: authSessions.lastUsedAt,
        revokedAt: authSessions.revokedAt,
      })
      .from(authSessions)
      .where(eq(authSessions.userId, userId)),
    emailVerifications: await db
      .select({
        email: emailVerifications.email,
        createdAt: emailVerifications.createdAt,
        usedAt: emailVerifications.usedAt,
      })
      .from(emailVerifications)
      .where(eq(emailVerifications.userId, userId)),
    phoneVerifications: await db
      .select({
        phone: phoneVerifications.phone,
        createdAt: phoneVerifications.createdAt,
        verifiedAt: phoneVerifications.verifiedAt,
      })
      .from(phoneVerifications)
      .where(eq(phoneVerifications.userId, userId)),
    passwordResets: await db
      .select({ createdAt: passwordResets.createdAt, usedAt: passwordResets.usedAt, ip: passwordResets.ip })
      .from(passwordResets)
      .where(eq(passwordResets.userId, userId)),
    deletionRequests: await db.select().from(deletionRequests).where(eq(deletionRequests.userId, userId)),
    enrolmentInvitations: await db
      .select({
        instituteId: enrolmentInvitations.instituteId,
        roles: enrolmentInvitations.roles,
        taxCode: enrolmentInvitations.taxCode,
        state: enrolmentInvitations.state,
        createdAt: enrolmentInvitations.createdAt,
        expiresAt: enrolmentInvitations.expiresAt,
        decidedAt: enrolmentInvitations.decidedAt,
      })
      .from(enrolmentInvitations)
      .where(eq(enrolmentInvitations.userId, userId)),
    messages: await db
      .select({
        channel: outbox.channel,
        templateKey: outbox.templateKey,
        subject: outbox.subject,
        status: outbox.status,
        createdAt: outbox.createdAt,
        sentAt: outbox.sentAt,
      })
      .from(outbox)
      .where(inArray(outbox.recipient, recipients)),
    activity: await db
      .select({
        action: auditLog.action,
        entity: auditLog.entity,
        entityId: auditLog.entityId,
        ip: auditLog.ip,
        at: auditLog.at,
      })
      .from(auditLog)
      .where(or(eq(auditLog.actorUserId, userId)))
      .orderBy(desc(auditLog.at)),
  };
}
