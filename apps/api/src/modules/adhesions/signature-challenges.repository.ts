import { and, eq, sql } from 'drizzle-orm';
import { signatureChallenges } from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/transaction.ts';

/** The institute a principal or first contact acts for (the principal's first, then the first contact's). */

// --- Online signature: SMS challenges -------------------------------------------------------------

export type ChallengeRow = typeof signatureChallenges.$inferSelect;

export async function insertChallenge(
  tx: Tx,
  values: typeof signatureChallenges.$inferInsert,
): Promise<void> {
  await tx.insert(signatureChallenges).values(values);
}

export async function findChallenge(
  db: DbOrTx,
  id: string,
  userId: number,
): Promise<ChallengeRow | undefined> {
  const [row] = await db
    .select()
    .from(signatureChallenges)
    .where(and(eq(signatureChallenges.id, id), eq(signatureChallenges.userId, userId)));
  return row;
}

/** When the user last got a code, and how many since `since` (the resend throttle). */
export async function challengeActivity(
  db: DbOrTx,
  userId: number,
  since: Date,
): Promise<{ last: Date | null; countSince: number }> {
  const [row] = await db
    .select({
      last: sql<Date | string | null>`max(${signatureChallenges.createdAt})`,
      countSince: sql<number>`count(*) filter (where ${signatureChallenges.createdAt} >= ${since.toISOString()})::int`,
    })
    .from(signatureChallenges)
    .where(eq(signatureChallenges.userId, userId));
  const last = row?.last ?? null;
  return {
    last: last === null ? null : last instanceof Date ? last : new Date(last),
    countSince: Number(row?.countSince ?? 0),
  };
}

export async function addChallengeFailure(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(signatureChallenges)
    .set({ failedAttempts: sql`${signatureChallenges.failedAttempts} + 1` })
    .where(eq(signatureChallenges.id, id));
}

/** Marks a challenge used; false when it was used meanwhile (a second confirmation). */
export async function useChallenge(tx: Tx, id: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(signatureChallenges)
    .set({ usedAt: now })
    .where(and(eq(signatureChallenges.id, id), sql`${signatureChallenges.usedAt} is null`))
    .returning({ id: signatureChallenges.id });
  return rows.length === 1;
}
