import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import { emailVerifications, users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

/** Stores a verification link (its token as a hash). */
export async function insertEmailVerification(
  db: DbOrTx,
  link: {
    userId: number;
    email: string;
    tokenHash: string;
    createdAt: Date;
    expiresAt: Date;
    changeRequest?: boolean;
  },
): Promise<void> {
  await db.insert(emailVerifications).values(link);
}

/** How many links the user was sent after `since`. */
export async function countEmailLinksSince(db: DbOrTx, userId: number, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(emailVerifications)
    .where(and(eq(emailVerifications.userId, userId), gt(emailVerifications.createdAt, since)));
  return row?.n ?? 0;
}

/** The link of a token hash. */
export async function findEmailVerificationByTokenHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db.select().from(emailVerifications).where(eq(emailVerifications.tokenHash, tokenHash));
  return row;
}

/** The account fields a link is checked against. */
export async function findUserEmailState(db: DbOrTx, userId: number) {
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      emailVerifiedAt: users.emailVerifiedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  return user;
}

/** The not yet verified account of an address (`email` lower case). */
export async function findUnverifiedUserByEmail(db: DbOrTx, email: string) {
  const [user] = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.emailVerifiedAt)));
  return user;
}

/** Uses up the link and marks the user's address verified. */
export async function markEmailVerified(
  db: DbOrTx,
  linkId: number,
  userId: number,
  now: Date,
): Promise<void> {
  await db.update(emailVerifications).set({ usedAt: now }).where(eq(emailVerifications.id, linkId));
  await db.update(users).set({ emailVerifiedAt: now, updatedAt: now }).where(eq(users.id, userId));
}

/** Whether an account already uses the address (any case). */
export async function isAddressTaken(db: DbOrTx, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row !== undefined;
}

/** Moves the account to its new, verified address and uses up the link (decision 041). */
export async function applyEmailChange(
  db: DbOrTx,
  linkId: number,
  userId: number,
  email: string,
  now: Date,
): Promise<void> {
  await db.update(emailVerifications).set({ usedAt: now }).where(eq(emailVerifications.id, linkId));
  await db.update(users).set({ email, emailVerifiedAt: now, updatedAt: now }).where(eq(users.id, userId));
}
