import { checkPasswordStrength } from '@portale/shared/accounts/password';
import type { Db } from '../../db/client.ts';
import { withTransaction, type DbOrTx } from '../../db/transaction.ts';
import { writeAudit } from '../../lib/audit.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { enqueueMessage } from '../messages/outbox.repository.ts';
import type { TemplateData } from '../messages/template-render.ts';
import { revokeUserSessions } from '../auth/tokens.repository.ts';
import { formatRomeDateTime } from './format.ts';
import * as repo from './password.repository.ts';
import type { PasswordUser } from './password.repository.ts';

export const RESET_TTL_MS = 60 * 60_000;
const MAX_RESETS_PER_HOUR = 3;

/** The policy with the user's own words as context: 422 on `password` when broken. */
export function assertPasswordPolicy(password: string, user: Pick<PasswordUser, 'email' | 'firstName' | 'lastName'>): void {
  const { problem } = checkPasswordStrength(password, user);
  if (problem) throw fieldError('password', problem);
}

/** Queues a reset link (256-bit token, stored hashed, 60 min) unless the account asked 3 times this hour. */
export async function requestPasswordReset(db: Db, email: string, ctx: { now: Date; ip: string; webUrl: string }): Promise<void> {
  const user = await repo.findPasswordUserByEmail(db, email);
  if (!user || user.status !== 'active') return;
  if ((await repo.countResetsSince(db, user.id, new Date(ctx.now.getTime() - 3_600_000))) >= MAX_RESETS_PER_HOUR) return;
  await withTransaction(db, async (tx) => {
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
  db: DbOrTx,
  user: { id: number; email: string; firstName: string },
  link: { now: Date; ip: string; webUrl: string; ttlMs: number; templateKey: string; data?: TemplateData },
): Promise<void> {
  const token = randomToken(32);
  await repo.insertPasswordReset(db, {
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

/**
 * Sets a new password: hash, flag cleared, sessions revoked (all, or all but the current one), unused
 * reset links voided, notice e-mail and audit, in one transaction. `viaEmailLink`: the password was
 * set from a link sent to the address (reset, invitation, enrolment), which proves the mailbox: the
 * address counts as verified.
 */
export async function setNewPassword(
  db: Db,
  user: PasswordUser,
  password: string,
  ctx: { now: Date; ip: string; webUrl: string; action: string; keepSessionId?: number; viaEmailLink?: boolean },
): Promise<void> {
  assertPasswordPolicy(password, user);
  const passwordHash = await hashPassword(password);
  await withTransaction(db, async (tx) => {
    await repo.updatePasswordHash(tx, user.id, passwordHash, ctx.now);
    if (ctx.viaEmailLink) await repo.markEmailVerifiedByLink(tx, user.id, ctx.now);
    await repo.voidUnusedResets(tx, user.id, ctx.now);
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
export async function findUserOfResetToken(db: Db, token: string, now: Date): Promise<PasswordUser | undefined> {
  const row = await repo.findResetWithUser(db, sha256(token));
  if (!row || row.usedAt || row.expiresAt <= now || row.user.status !== 'active') return undefined;
  return row.user;
}
