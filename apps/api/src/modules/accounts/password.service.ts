import { and, count, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { checkPasswordStrength } from '@portale/shared/accounts/password';
import type { Db } from '../../db/client.ts';
import { accessTokens, authSessions, passwordResets, users } from '../../db/schema/index.ts';
import { writeAudit } from '../../lib/audit.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { enqueueMessage } from '../messages/outbox.repository.ts';
import type { TemplateData } from '../messages/template-render.ts';
import { formatRomeDateTime } from './format.ts';

export const RESET_TTL_MS = 60 * 60_000;
const MAX_RESETS_PER_HOUR = 3;

type UserRow = typeof users.$inferSelect;

/** The policy with the user's own words as context: 422 on `password` when broken. */
export function assertPasswordPolicy(password: string, user: Pick<UserRow, 'email' | 'firstName' | 'lastName'>): void {
  const { problem } = checkPasswordStrength(password, user);
  if (problem) throw fieldError('password', problem);
}

/** Queues a reset link (256-bit token, stored hashed, 60 min) unless the account asked 3 times this hour. */
export async function requestPasswordReset(db: Db, email: string, ctx: { now: Date; ip: string; webUrl: string }): Promise<void> {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
  if (!user || user.status !== 'active') return;
  const [recent] = await db
    .select({ n: count() })
    .from(passwordResets)
    .where(and(eq(passwordResets.userId, user.id), gt(passwordResets.createdAt, new Date(ctx.now.getTime() - 3_600_000))));
  if ((recent?.n ?? 0) >= MAX_RESETS_PER_HOUR) return;
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    await issuePasswordLink(tx, user, { ...ctx, ttlMs: RESET_TTL_MS, templateKey: 'email.reset-password' });
    await writeAudit(tx, { action: 'auth.password.reset_requested', actorUserId: user.id, entity: 'user', entityId: user.id, ip: ctx.ip }, ctx.now);
  });
}

/**
 * Creates a single-use link to choose a password (256-bit token stored hashed, valid `ttlMs`) and
 * queues the e-mail of `templateKey` with it as `{{link}}`: a reset, or the invitation of a new user.
 * Call it inside the transaction of the change.
 */
export async function issuePasswordLink(
  db: Db,
  user: { id: number; email: string; firstName: string },
  link: { now: Date; ip: string; webUrl: string; ttlMs: number; templateKey: string; data?: TemplateData },
): Promise<void> {
  const token = randomToken(32);
  await db.insert(passwordResets).values({
    userId: user.id,
    tokenHash: sha256(token),
    createdAt: link.now,
    expiresAt: new Date(link.now.getTime() + link.ttlMs),
    ip: link.ip,
  });
  await enqueueMessage(db, {
    templateKey: link.templateKey,
    recipient: user.email,
    data: { ...link.data, firstName: user.firstName, link: `${link.webUrl}/auth/reset-password?token=${encodeURIComponent(token)}` },
    now: link.now,
  });
}

/** Revokes the user's live sessions, except `keepSessionId`; returns how many. */
export async function revokeUserSessions(db: Db, userId: number, reason: string, now: Date, keepSessionId?: number): Promise<number> {
  const filter = and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt), keepSessionId ? ne(authSessions.id, keepSessionId) : undefined);
  const revoked = await db.update(authSessions).set({ revokedAt: now, revokedReason: reason }).where(filter).returning({ id: authSessions.id });
  const keep = keepSessionId ? ne(accessTokens.sessionId, keepSessionId) : undefined;
  await db.update(accessTokens).set({ revokedAt: now }).where(and(eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt), keep));
  return revoked.length;
}

/**
 * Sets a new password: hash, flag cleared, sessions revoked (all, or all but the current one), unused
 * reset links voided, notice e-mail and audit, in one transaction.
 */
export async function setNewPassword(
  db: Db,
  user: UserRow,
  password: string,
  ctx: { now: Date; ip: string; webUrl: string; action: string; keepSessionId?: number },
): Promise<void> {
  assertPasswordPolicy(password, user);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    await tx.update(users).set({ passwordHash, mustChangePassword: false, updatedAt: ctx.now }).where(eq(users.id, user.id));
    await tx.update(passwordResets).set({ usedAt: ctx.now }).where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    const revoked = await revokeUserSessions(tx, user.id, ctx.action, ctx.now, ctx.keepSessionId);
    await enqueueMessage(tx, {
      templateKey: 'email.password-cambiata',
      recipient: user.email,
      data: {
        firstName: user.firstName,
        when: formatRomeDateTime(ctx.now),
        sessionsNote: ctx.keepSessionId ? 'gli accessi attivi sugli altri dispositivi' : 'tutti gli accessi attivi',
        forgotLink: `${ctx.webUrl}/auth/forgot-password`,
      },
      now: ctx.now,
    });
    await writeAudit(tx, { action: ctx.action, actorUserId: user.id, entity: 'user', entityId: user.id, after: { sessionsRevoked: revoked }, ip: ctx.ip }, ctx.now);
  });
}

/** The user of a live reset token (unused, unexpired), or undefined. */
export async function findUserOfResetToken(db: Db, token: string, now: Date): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users, reset: passwordResets })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(eq(passwordResets.tokenHash, sha256(token)));
  if (!row || row.reset.usedAt || row.reset.expiresAt <= now || row.user.status !== 'active') return undefined;
  return row.user;
}
