import { checkPasswordStrength } from '@portale/shared/accounts/password';
import type { Db } from '../../db/client.ts';
import { withTransaction, type DbOrTx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { enqueueMessage, renderOutboxMessage, type TemplateKey } from '../messages/index.ts';
import type { TemplateData } from '../../lib/render/template-render.ts';
import { revokeUserSessions } from '../auth/index.ts';
import { formatRomeDateTime } from '../../lib/format.ts';
import * as repo from './password.repository.ts';
import { findPasswordUser } from './password.repository.ts';
import type { PasswordUser } from './password.repository.ts';

export const RESET_TTL_MS = 60 * 60_000;
const MAX_RESETS_PER_HOUR = 3;

/** The policy with the user's own words as context: 422 on `password` when broken. */
export function assertPasswordPolicy(
  password: string,
  user: Pick<PasswordUser, 'email' | 'firstName' | 'lastName'>,
): void {
  const { problem } = checkPasswordStrength(password, user);
  if (problem) throw fieldError('password', problem);
}

/** Who stands in for the account in the e-mail rendered for an address that gets none (same work, nothing sent). */
const NOBODY = { id: null, email: 'nessuno@invalid', firstName: 'Utente' };

/**
 * Queues a reset link (256-bit token, stored hashed, 60 min) unless the account is unknown or not
 * active, asked 3 times this hour, or `ctx.charge` refuses it (the hourly e-mail ceiling: one unit,
 * taken only when an e-mail is really queued). Runs after the answer (see after-response.ts), and
 * runs the same statements whatever the address: the account and its recent links in one statement,
 * the ceiling (weight 0 when nothing is sent), the template, then one statement that writes the link,
 * the e-mail and the audit row only when they are due. An unknown address thus holds the embedded
 * database's one connection as long as an existing one, and the next request cannot tell them apart.
 */
export async function requestPasswordReset(
  db: Db,
  email: string,
  ctx: { now: Date; ip: string; webUrl: string; charge: (weight: 0 | 1) => Promise<boolean> },
): Promise<void> {
  const found = await repo.findResetCandidate(db, email, new Date(ctx.now.getTime() - 3_600_000));
  const due = found !== undefined && found.status === 'active' && found.recentResets < MAX_RESETS_PER_HOUR;
  const allowed = await ctx.charge(due ? 1 : 0);
  const user = due ? found : NOBODY;
  const token = randomToken(32);
  const message = await renderOutboxMessage(db, {
    templateKey: 'email.reset-password',
    recipient: user.email,
    data: {
      firstName: user.firstName,
      link: `${ctx.webUrl}/auth/reset-password?token=${encodeURIComponent(token)}`,
    },
    now: ctx.now,
  });
  await repo.recordResetRequest(db, {
    send: due && allowed,
    userId: user.id,
    tokenHash: sha256(token),
    now: ctx.now,
    expiresAt: new Date(ctx.now.getTime() + RESET_TTL_MS),
    ip: ctx.ip,
    message,
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
  link: {
    now: Date;
    ip: string;
    webUrl: string;
    ttlMs: number;
    templateKey: TemplateKey;
    data?: TemplateData;
  },
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
    data: {
      ...link.data,
      firstName: user.firstName,
      link: `${link.webUrl}/auth/reset-password?token=${encodeURIComponent(token)}`,
    },
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
  ctx: {
    now: Date;
    ip: string;
    webUrl: string;
    action: string;
    keepSessionId?: number;
    viaEmailLink?: boolean;
  },
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
        sessionsNote: ctx.keepSessionId
          ? 'gli accessi attivi sugli altri dispositivi'
          : 'tutti gli accessi attivi',
        forgotLink: `${ctx.webUrl}/auth/forgot-password`,
      },
      now: ctx.now,
    });
    await auditWrite(
      tx,
      { userId: user.id, ip: ctx.ip ?? null, at: ctx.now },
      { action: ctx.action, entity: 'user', entityId: user.id, after: { sessionsRevoked: revoked } },
    );
  });
}

/** The user of a live reset token (unused, unexpired), or undefined. */
export async function findUserOfResetToken(
  db: Db,
  token: string,
  now: Date,
): Promise<PasswordUser | undefined> {
  const row = await repo.findResetWithUser(db, sha256(token));
  if (!row || row.usedAt || row.expiresAt <= now || row.user.status !== 'active') return undefined;
  return row.user;
}

/**
 * A signed-in user's own password change: the current password must be right (a wrong one is audited
 * and answered on `current_password`) and the new one different; then `setNewPassword`, keeping the
 * session that asked.
 */
export async function changeOwnPassword(
  db: Db,
  userId: number,
  body: { current_password: string; password: string },
  ctx: { now: Date; ip: string; webUrl: string; sessionId: number },
): Promise<'unknown-user' | 'changed'> {
  const user = await findPasswordUser(db, userId);
  if (!user) return 'unknown-user';
  if (!(await verifyPassword(user.passwordHash, body.current_password))) {
    await auditWrite(
      db,
      { userId: user.id, ip: ctx.ip, at: ctx.now },
      { action: 'auth.password.change_failed', entity: 'user', entityId: user.id },
    );
    throw fieldError('current_password', 'La password attuale non è corretta.');
  }
  if (await verifyPassword(user.passwordHash, body.password))
    throw fieldError('password', 'La nuova password deve essere diversa da quella attuale.');
  await setNewPassword(db, user, body.password, {
    ...ctx,
    action: 'auth.password.changed',
    keepSessionId: ctx.sessionId,
  });
  return 'changed';
}
