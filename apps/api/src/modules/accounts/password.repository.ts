import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/transaction.ts';
import { passwordResets, users } from '../../db/schema/index.ts';

/** What the password flows need of a user: who to write to, the policy's context, the current hash. */
const PASSWORD_USER = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  status: users.status,
  passwordHash: users.passwordHash,
};

export type PasswordUser = NonNullable<Awaited<ReturnType<typeof findPasswordUser>>>;

/** The user of an address (case-insensitive; `email` is already lower-case). */
export async function findPasswordUserByEmail(db: DbOrTx, email: string) {
  const [row] = await db.select(PASSWORD_USER).from(users).where(sql`lower(${users.email}) = ${email}`);
  return row;
}

export async function findPasswordUser(db: DbOrTx, userId: number) {
  const [row] = await db.select(PASSWORD_USER).from(users).where(eq(users.id, userId));
  return row;
}

/** How many reset links the user asked for since `since`. */
export async function countResetsSince(db: DbOrTx, userId: number, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(passwordResets)
    .where(and(eq(passwordResets.userId, userId), gt(passwordResets.createdAt, since)));
  return row?.n ?? 0;
}

export async function insertPasswordReset(
  db: DbOrTx,
  reset: { userId: number; tokenHash: string; createdAt: Date; expiresAt: Date; ip: string },
): Promise<void> {
  await db.insert(passwordResets).values(reset);
}

/** The reset link of a token hash with its user, whatever its state. */
export async function findResetWithUser(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({ user: PASSWORD_USER, usedAt: passwordResets.usedAt, expiresAt: passwordResets.expiresAt })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(eq(passwordResets.tokenHash, tokenHash));
  return row;
}

/** Stores a new password hash and clears the "must change" flag. */
export async function updatePasswordHash(db: DbOrTx, userId: number, passwordHash: string, now: Date): Promise<void> {
  await db.update(users).set({ passwordHash, mustChangePassword: false, updatedAt: now }).where(eq(users.id, userId));
}

/** Voids the user's unused reset links. */
export async function voidUnusedResets(db: DbOrTx, userId: number, now: Date): Promise<void> {
  await db.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/** Marks the address verified (a link sent to it was used) unless it already was. */
export async function markEmailVerifiedByLink(db: DbOrTx, userId: number, now: Date): Promise<void> {
  await db.update(users).set({ emailVerifiedAt: now }).where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
}
