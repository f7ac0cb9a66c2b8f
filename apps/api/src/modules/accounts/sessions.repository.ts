import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { authSessions } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

/** The user's sessions that are neither revoked nor expired, most recently used first. */
export function listActiveSessions(db: DbOrTx, userId: number, now: Date) {
  return db
    .select({
      id: authSessions.id,
      userAgent: authSessions.userAgent,
      ip: authSessions.ip,
      createdAt: authSessions.createdAt,
      lastUsedAt: authSessions.lastUsedAt,
    })
    .from(authSessions)
    .where(
      and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt), gt(authSessions.expiresAt, now)),
    )
    .orderBy(desc(authSessions.lastUsedAt));
}

/** True when `sessionId` is a session of the user that is not revoked (someone else's is not found). */
export async function isLiveSessionOf(db: DbOrTx, sessionId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: authSessions.id })
    .from(authSessions)
    .where(
      and(eq(authSessions.id, sessionId), eq(authSessions.userId, userId), isNull(authSessions.revokedAt)),
    );
  return row !== undefined;
}
