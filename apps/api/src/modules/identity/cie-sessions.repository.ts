import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cieSessions } from '../../db/schema/index.ts';

/** Keeps a CIE session's sealed tokens for the provider's logout. */
export async function insertCieSession(
  db: Db,
  sessionId: number,
  keys: { idTokenSealed: string; accessTokenSealed: string | null },
  now: Date,
): Promise<void> {
  await db.insert(cieSessions).values({ sessionId, ...keys, createdAt: now });
}

/**
 * Marks the provider's logout of a CIE session asked, once: its sealed tokens, or undefined when the
 * session was not opened by CIE or its logout was already asked (a second logout sends nothing).
 */
export async function markCieLogoutRequested(db: Db, sessionId: number, now: Date) {
  const [row] = await db
    .update(cieSessions)
    .set({ logoutRequestedAt: now })
    .where(and(eq(cieSessions.sessionId, sessionId), isNull(cieSessions.logoutRequestedAt)))
    .returning();
  return row;
}
