import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginThrottles } from '../../db/schema/index.ts';

/** The throttle rows of these keys (account, IP). */
export function findThrottles(db: Db, keys: string[]) {
  return db.select().from(loginThrottles).where(inArray(loginThrottles.key, keys));
}

/**
 * Counts one failure for `key` in one atomic upsert (concurrent failures are never lost): failures
 * still count while recent (after `windowStart`) and while no lock has expired since; otherwise
 * counting restarts. Returns the new count.
 */
export async function countFailure(db: Db, key: string, now: Date, windowStart: Date): Promise<number> {
  const at = now.toISOString();
  const fresh = sql`(${loginThrottles.lastFailureAt} > ${windowStart.toISOString()}::timestamptz and (${loginThrottles.lockedUntil} is null or ${loginThrottles.lockedUntil} > ${at}::timestamptz))`;
  const [row] = await db
    .insert(loginThrottles)
    .values({ key, failures: 1, lastFailureAt: now, lockedUntil: null })
    .onConflictDoUpdate({
      target: loginThrottles.key,
      set: {
        failures: sql`case when ${fresh} then ${loginThrottles.failures} + 1 else 1 end`,
        lockedUntil: sql`case when ${fresh} then ${loginThrottles.lockedUntil} else null end`,
        lastFailureAt: now,
      },
    })
    .returning({ failures: loginThrottles.failures });
  return row?.failures ?? 0;
}

export async function lockKeyUntil(db: Db, key: string, lockedUntil: Date): Promise<void> {
  await db.update(loginThrottles).set({ lockedUntil }).where(eq(loginThrottles.key, key));
}

export async function deleteThrottle(db: Db, key: string): Promise<void> {
  await db.delete(loginThrottles).where(eq(loginThrottles.key, key));
}

/** Runs `task` in a transaction holding `pg_advisory_xact_lock` on `key` (released at commit). */
export function inAdvisoryLockTransaction<T>(db: Db, key: string, task: (db: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
    return task(tx as unknown as Db);
  });
}
