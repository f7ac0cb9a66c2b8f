import type { EmailVerificationStatus } from '@portale/shared/accounts';
import type { Db } from '../../db/client.ts';
import { withTransaction, type DbOrTx, type Tx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { enqueueMessage } from '../messages/index.ts';
import * as repo from './email-verification.repository.ts';

export const EMAIL_LINK_TTL_MS = 24 * 60 * 60_000;
/** Resend: not within a minute of the previous link, at most 5 links a day. */
const RESEND_GAP_MS = 60_000;
const MAX_LINKS_PER_DAY = 5;

interface Recipient {
  id: number;
  email: string;
  firstName: string;
}

/** Creates a 24 h single-use link and queues `email.verifica` (call inside the change's transaction). */
export async function sendEmailVerification(
  tx: Tx,
  user: Recipient,
  now: Date,
  webUrl: string,
  options: { changeRequest?: boolean } = {},
): Promise<void> {
  const token = randomToken(32);
  await repo.insertEmailVerification(tx, {
    userId: user.id,
    email: user.email,
    tokenHash: sha256(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + EMAIL_LINK_TTL_MS),
    changeRequest: options.changeRequest ?? false,
  });
  await enqueueMessage(tx, {
    templateKey: 'email.verifica',
    recipient: user.email,
    data: {
      firstName: user.firstName,
      link: `${webUrl}/verifica/email-verificata?token=${encodeURIComponent(token)}`,
    },
    now,
  });
}

/** True when a new link may be sent now (throttle of the resend button). */
export async function mayResendEmailLink(db: DbOrTx, userId: number, now: Date): Promise<boolean> {
  const recent = await repo.countEmailLinksSince(db, userId, new Date(now.getTime() - RESEND_GAP_MS));
  const today = await repo.countEmailLinksSince(db, userId, new Date(now.getTime() - 86_400_000));
  return recent === 0 && today < MAX_LINKS_PER_DAY;
}

/**
 * A new link for the unverified account of `email`, within the throttle. `'sent'`, `'throttled'` (the
 * account got a link too recently, or this client used its share of the hourly e-mail ceiling) or `'none'` (no such unverified account): the anonymous caller
 * answers the same for all three.
 */
export async function resendEmailVerification(
  db: Db,
  email: string,
  ctx: { now: Date; ip: string; webUrl: string; charge: () => Promise<boolean> },
): Promise<'sent' | 'throttled' | 'none'> {
  const user = await repo.findUnverifiedUserByEmail(db, email);
  if (!user) return 'none';
  if (!(await mayResendEmailLink(db, user.id, ctx.now))) return 'throttled';
  // The hourly e-mail ceiling counts only a link really sent to an existing account.
  if (!(await ctx.charge())) return 'throttled';
  await withTransaction(db, async (tx) => {
    await sendEmailVerification(tx, user, ctx.now, ctx.webUrl);
    await auditWrite(
      tx,
      { userId: user.id, ip: ctx.ip ?? null, at: ctx.now },
      { action: 'account.email.verification_resent', entity: 'user', entityId: user.id },
    );
  });
  return 'sent';
}

/** Applies a verification link: single use, 24 h, bound to the address it was sent to. */
export async function confirmEmailToken(
  db: Db,
  token: string,
  now: Date,
  ip: string,
  webUrl = '',
): Promise<EmailVerificationStatus> {
  return withTransaction(db, async (tx) => {
    const row = await repo.findEmailVerificationByTokenHash(tx, sha256(token));
    if (!row) return 'invalid';
    const user = await repo.findUserEmailState(tx, row.userId);
    if (!user) return 'invalid';
    if (row.changeRequest && user.email.toLowerCase() !== row.email.toLowerCase()) {
      // A change the user asked for (decision 041): the account moves to the new address, the old one is told.
      if (row.usedAt) return 'invalid';
      if (row.expiresAt <= now) return 'expired';
      if (await repo.isAddressTaken(tx, row.email)) return 'invalid';
      await repo.applyEmailChange(tx, row.id, user.id, row.email, now);
      await enqueueMessage(tx, {
        templateKey: 'email.indirizzo-cambiato',
        recipient: user.email,
        data: {
          firstName: user.firstName,
          newEmail: row.email,
          changedBy: 'su tua richiesta, confermata dal nuovo indirizzo',
          contactLink: `${webUrl}/contatti`,
        },
        now,
      });
      await auditWrite(
        tx,
        { userId: user.id, ip: ip ?? null, at: now },
        {
          action: 'account.email.changed',
          entity: 'user',
          entityId: user.id,
          before: { email: user.email },
          after: { email: row.email },
        },
      );
      return 'verified';
    }
    if (user.email.toLowerCase() !== row.email.toLowerCase()) return 'invalid';
    if (user.emailVerifiedAt) return 'already_verified';
    if (row.usedAt) return 'invalid';
    if (row.expiresAt <= now) return 'expired';
    await repo.markEmailVerified(tx, row.id, user.id, now);
    await auditWrite(
      tx,
      { userId: user.id, ip: ip ?? null, at: now },
      { action: 'account.email.verified', entity: 'user', entityId: user.id },
    );
    return 'verified';
  });
}
