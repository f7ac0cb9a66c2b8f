import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { authSessions, spidSessions } from '../../db/schema/index.ts';

/** What single logout needs of a session opened by SPID (decision 052). */
export interface SpidSessionKeys {
  idpEntityId: string;
  nameId: string;
  nameIdFormat: string | null;
  sessionIndex: string | null;
}

export type SpidSessionRow = typeof spidSessions.$inferSelect;

export async function insertSpidSession(
  db: DbOrTx,
  sessionId: number,
  keys: SpidSessionKeys,
  now: Date,
): Promise<void> {
  await db.insert(spidSessions).values({ sessionId, ...keys, createdAt: now });
}

export async function findSpidSession(db: Db, sessionId: number): Promise<SpidSessionRow | undefined> {
  const [row] = await db.select().from(spidSessions).where(eq(spidSessions.sessionId, sessionId));
  return row;
}

/**
 * Records our LogoutRequest's ID on the session, once: false when a logout was already asked of the
 * provider, or the provider already ended it (a second logout sends nothing).
 */
export async function markLogoutRequested(
  db: Db,
  sessionId: number,
  requestId: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(spidSessions)
    .set({ logoutRequestId: requestId, logoutRequestedAt: now })
    .where(
      and(
        eq(spidSessions.sessionId, sessionId),
        isNull(spidSessions.logoutRequestId),
        isNull(spidSessions.providerLoggedOutAt),
      ),
    )
    .returning({ sessionId: spidSessions.sessionId });
  return rows.length > 0;
}

/** The session whose LogoutRequest had this ID, with its user. */
export async function findByLogoutRequest(db: Db, requestId: string) {
  const [row] = await db
    .select({ spid: spidSessions, userId: authSessions.userId })
    .from(spidSessions)
    .innerJoin(authSessions, eq(authSessions.id, spidSessions.sessionId))
    .where(eq(spidSessions.logoutRequestId, requestId));
  return row;
}

/** Marks the provider's side ended; false when it already was (a replayed answer). */
export async function markProviderLoggedOut(db: DbOrTx, sessionId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(spidSessions)
    .set({ providerLoggedOutAt: now })
    .where(and(eq(spidSessions.sessionId, sessionId), isNull(spidSessions.providerLoggedOutAt)))
    .returning({ sessionId: spidSessions.sessionId });
  return rows.length > 0;
}

/**
 * The live sessions (not revoked, not expired) a provider's LogoutRequest names: its NameID at that
 * provider, and its SessionIndex when it gives one.
 */
export async function findLiveSpidSessions(
  db: Db,
  keys: { idpEntityId: string; nameId: string; sessionIndex: string | null },
  now: Date,
) {
  const rows = await db
    .select({
      sessionId: spidSessions.sessionId,
      userId: authSessions.userId,
      expiresAt: authSessions.expiresAt,
    })
    .from(spidSessions)
    .innerJoin(authSessions, eq(authSessions.id, spidSessions.sessionId))
    .where(
      and(
        eq(spidSessions.idpEntityId, keys.idpEntityId),
        eq(spidSessions.nameId, keys.nameId),
        keys.sessionIndex === null ? undefined : eq(spidSessions.sessionIndex, keys.sessionIndex),
        isNull(authSessions.revokedAt),
        isNull(spidSessions.providerLoggedOutAt),
      ),
    );
  return rows.filter((row) => row.expiresAt > now);
}
