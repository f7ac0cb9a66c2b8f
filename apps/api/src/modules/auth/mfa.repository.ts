import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mfaChallenges, mfaFactors } from '../../db/schema/index.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';

export const CHALLENGE_TTL_SECONDS = 300;
export const CHALLENGE_MAX_FAILURES = 5;

export function findFactor(db: Db, userId: number) {
  return db
    .select()
    .from(mfaFactors)
    .where(eq(mfaFactors.userId, userId))
    .then((rows) => rows[0]);
}

/** Replaces any factor not yet enabled with a new pending secret. */
export async function savePendingFactor(db: Db, userId: number, secretEncrypted: string, now: Date) {
  await db
    .insert(mfaFactors)
    .values({ userId, secretEncrypted, createdAt: now })
    .onConflictDoUpdate({
      target: mfaFactors.userId,
      set: { secretEncrypted, createdAt: now, enabledAt: null, recoveryCodeHashes: [], lastTimeStep: null },
    });
}

export async function createChallenge(
  db: Db,
  input: {
    userId: number;
    purpose: 'verify' | 'enrol';
    now: Date;
    ip: string;
    userAgent: string | undefined;
  },
): Promise<string> {
  const token = randomToken(32);
  await db.insert(mfaChallenges).values({
    userId: input.userId,
    tokenHash: sha256(token),
    purpose: input.purpose,
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + CHALLENGE_TTL_SECONDS * 1000),
    ip: input.ip,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
  });
  return token;
}

/** The live challenge of a token, or undefined when unknown, used, expired or out of attempts. */
export async function findLiveChallenge(db: Db, token: string, now: Date) {
  const [row] = await db
    .select()
    .from(mfaChallenges)
    .where(eq(mfaChallenges.tokenHash, sha256(token)));
  if (!row || row.usedAt || row.expiresAt <= now || row.failedAttempts >= CHALLENGE_MAX_FAILURES)
    return undefined;
  return row;
}

export async function countChallengeFailure(db: Db, id: number) {
  await db
    .update(mfaChallenges)
    .set({ failedAttempts: sql`${mfaChallenges.failedAttempts} + 1` })
    .where(eq(mfaChallenges.id, id));
}

/** Marks a challenge used; false when another request used it first. */
export async function consumeChallenge(db: Db, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(mfaChallenges)
    .set({ usedAt: now })
    .where(and(eq(mfaChallenges.id, id), isNull(mfaChallenges.usedAt)))
    .returning({ id: mfaChallenges.id });
  return rows.length === 1;
}

/** Keeps only the recovery codes not yet used. */
export async function saveRecoveryCodeHashes(db: Db, userId: number, recoveryCodeHashes: string[]) {
  await db.update(mfaFactors).set({ recoveryCodeHashes }).where(eq(mfaFactors.userId, userId));
}

/** The time step of the last accepted TOTP code (a code is accepted once). */
export async function saveLastTimeStep(db: Db, userId: number, lastTimeStep: number) {
  await db.update(mfaFactors).set({ lastTimeStep }).where(eq(mfaFactors.userId, userId));
}

/** Enables an enrolled factor with fresh recovery codes. */
export async function enableFactor(db: Db, userId: number, now: Date, recoveryCodeHashes: string[]) {
  await db
    .update(mfaFactors)
    .set({ enabledAt: now, recoveryCodeHashes })
    .where(eq(mfaFactors.userId, userId));
}
