import { and, count, eq, gt } from 'drizzle-orm';
import type { EmailVerificationStatus } from '@portale/shared/accounts';
import type { Db } from '../../db/client.ts';
import { emailVerifications, users } from '../../db/schema/index.ts';
import { writeAudit } from '../../lib/audit.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { enqueueMessage } from '../messages/outbox.repository.ts';

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
export async function sendEmailVerification(db: Db, user: Recipient, now: Date, webUrl: string): Promise<void> {
  const token = randomToken(32);
  await db.insert(emailVerifications).values({
    userId: user.id,
    email: user.email,
    tokenHash: sha256(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + EMAIL_LINK_TTL_MS),
  });
  await enqueueMessage(db, {
    templateKey: 'email.verifica',
    recipient: user.email,
    data: { firstName: user.firstName, link: `${webUrl}/verifica/email-verificata?token=${encodeURIComponent(token)}` },
    now,
  });
}

/** True when a new link may be sent now (throttle of the resend button). */
export async function mayResendEmailLink(db: Db, userId: number, now: Date): Promise<boolean> {
  const [recent] = await db
    .select({ n: count() })
    .from(emailVerifications)
    .where(and(eq(emailVerifications.userId, userId), gt(emailVerifications.createdAt, new Date(now.getTime() - RESEND_GAP_MS))));
  const [today] = await db
    .select({ n: count() })
    .from(emailVerifications)
    .where(and(eq(emailVerifications.userId, userId), gt(emailVerifications.createdAt, new Date(now.getTime() - 86_400_000))));
  return (recent?.n ?? 0) === 0 && (today?.n ?? 0) < MAX_LINKS_PER_DAY;
}

/** Applies a verification link: single use, 24 h, bound to the address it was sent to. */
export async function confirmEmailToken(db: Db, token: string, now: Date, ip: string): Promise<EmailVerificationStatus> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const [row] = await tx.select().from(emailVerifications).where(eq(emailVerifications.tokenHash, sha256(token)));
    if (!row) return 'invalid';
    const [user] = await tx.select().from(users).where(eq(users.id, row.userId));
    if (!user || user.email.toLowerCase() !== row.email.toLowerCase()) return 'invalid';
    if (user.emailVerifiedAt) return 'already_verified';
    if (row.usedAt) return 'invalid';
    if (row.expiresAt <= now) return 'expired';
    await tx.update(emailVerifications).set({ usedAt: now }).where(eq(emailVerifications.id, row.id));
    await tx.update(users).set({ emailVerifiedAt: now, updatedAt: now }).where(eq(users.id, user.id));
    await writeAudit(tx, { action: 'account.email.verified', actorUserId: user.id, entity: 'user', entityId: user.id, ip }, now);
    return 'verified';
  });
}
