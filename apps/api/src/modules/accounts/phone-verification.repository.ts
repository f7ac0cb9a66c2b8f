import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { outbox, phoneVerifications, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

export type PhoneVerificationRow = typeof phoneVerifications.$inferSelect;

const codeMessagesTo = (phone: string) =>
  and(eq(outbox.channel, 'sms'), eq(outbox.recipient, phone), eq(outbox.templateKey, 'sms.codice'));

/** When the number was last sent a code (the outbox is the record of every SMS). */
export async function lastCodeSentAt(db: DbOrTx, phone: string): Promise<Date | undefined> {
  const [last] = await db
    .select({ createdAt: outbox.createdAt })
    .from(outbox)
    .where(codeMessagesTo(phone))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  return last?.createdAt;
}

/** How many codes the number was sent after `since`. */
export async function countCodesSentSince(db: DbOrTx, phone: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(outbox)
    .where(and(codeMessagesTo(phone), gt(outbox.createdAt, since)));
  return row?.n ?? 0;
}

/** A new verification of `phone` (no code yet: `issueCode` sets one). */
export async function insertPhoneVerification(
  db: DbOrTx,
  input: { userId: number | null; phone: string; now: Date },
): Promise<PhoneVerificationRow> {
  const { userId, phone, now } = input;
  const [row] = await db
    .insert(phoneVerifications)
    .values({ userId, phone, codeHash: '-', codeSentAt: now, expiresAt: now, createdAt: now })
    .returning();
  return row!;
}

/** Replaces the verification's code, its expiry and its count of wrong tries. */
export async function setPhoneCode(
  db: DbOrTx,
  id: string,
  code: { codeHash: string; sentAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .update(phoneVerifications)
    .set({ codeHash: code.codeHash, codeSentAt: code.sentAt, expiresAt: code.expiresAt, failedAttempts: 0 })
    .where(eq(phoneVerifications.id, id));
}

export async function findPhoneVerification(
  db: DbOrTx,
  id: string,
): Promise<PhoneVerificationRow | undefined> {
  const [row] = await db.select().from(phoneVerifications).where(eq(phoneVerifications.id, id));
  return row;
}

/** Counts one more wrong code. */
export async function addFailedAttempt(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(phoneVerifications)
    .set({ failedAttempts: sql`${phoneVerifications.failedAttempts} + 1` })
    .where(eq(phoneVerifications.id, id));
}

/** Marks the verification done; false when it already was (a concurrent confirmation). */
export async function markPhoneVerified(db: DbOrTx, id: string, now: Date): Promise<boolean> {
  const done = await db
    .update(phoneVerifications)
    .set({ verifiedAt: now })
    .where(and(eq(phoneVerifications.id, id), isNull(phoneVerifications.verifiedAt)))
    .returning({ id: phoneVerifications.id });
  return done.length > 0;
}

/** Sets the user's phone as verified. */
export async function setUserVerifiedPhone(
  db: DbOrTx,
  userId: number,
  phone: string,
  now: Date,
): Promise<void> {
  await db.update(users).set({ phone, phoneVerifiedAt: now, updatedAt: now }).where(eq(users.id, userId));
}

/** The user's current phone, whether it is verified, and the password hash that guards changing it. */
export async function findUserPhone(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({ phone: users.phone, phoneVerifiedAt: users.phoneVerifiedAt, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
