import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accessTokens, authSessions, refreshTokens } from '../../db/schema/index.ts';
import { randomToken, safeEqual, sha256 } from '../../lib/crypto.ts';

export interface IssuedTokens {
  sessionId: number;
  accessToken: string;
  accessExpiresAt: Date;
  refreshToken: string;
}

async function issueAccessToken(db: Db, sessionId: number, userId: number, now: Date, ttlSeconds: number) {
  const secret = randomToken(32);
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  const [row] = await db
    .insert(accessTokens)
    .values({ sessionId, userId, tokenHash: sha256(secret), createdAt: now, expiresAt })
    .returning({ id: accessTokens.id });
  return { token: `${row!.id}|${secret}`, expiresAt };
}

async function issueRefreshToken(db: Db, sessionId: number, now: Date) {
  const token = randomToken(32);
  await db.insert(refreshTokens).values({ sessionId, tokenHash: sha256(token), createdAt: now });
  return token;
}

/** Starts a session (refresh family) with its first access and refresh tokens. */
export async function startSession(
  db: Db,
  input: { userId: number; ip: string; userAgent: string | undefined; now: Date; accessTtl: number; refreshTtl: number },
): Promise<IssuedTokens> {
  return db.transaction(async (tx) => {
    const [session] = await tx
      .insert(authSessions)
      .values({
        userId: input.userId,
        ip: input.ip,
        userAgent: input.userAgent?.slice(0, 300) ?? null,
        createdAt: input.now,
        lastUsedAt: input.now,
        expiresAt: new Date(input.now.getTime() + input.refreshTtl * 1000),
      })
      .returning({ id: authSessions.id });
    const access = await issueAccessToken(tx as unknown as Db, session!.id, input.userId, input.now, Math.min(input.accessTtl, input.refreshTtl));
    const refreshToken = await issueRefreshToken(tx as unknown as Db, session!.id, input.now);
    return { sessionId: session!.id, accessToken: access.token, accessExpiresAt: access.expiresAt, refreshToken };
  });
}

/** How often the last use of a token and its session is recorded. */
const TOUCH_INTERVAL_MS = 60_000;

export interface ResolvedAccessToken {
  tokenId: number;
  sessionId: number;
  userId: number;
  lastUsedAt: Date | null;
}

/** Looks up a bearer token `<id>|<secret>`; valid only when unrevoked, unexpired and its session alive. */
export async function resolveAccessToken(db: Db, bearer: string, now: Date): Promise<ResolvedAccessToken | undefined> {
  const match = /^(\d{1,15})\|([A-Za-z0-9_-]{20,128})$/.exec(bearer);
  if (!match) return undefined;
  const [row] = await db
    .select({
      tokenId: accessTokens.id,
      sessionId: accessTokens.sessionId,
      userId: accessTokens.userId,
      tokenHash: accessTokens.tokenHash,
      expiresAt: accessTokens.expiresAt,
      revokedAt: accessTokens.revokedAt,
      sessionRevokedAt: authSessions.revokedAt,
      sessionExpiresAt: authSessions.expiresAt,
      lastUsedAt: accessTokens.lastUsedAt,
    })
    .from(accessTokens)
    .innerJoin(authSessions, eq(authSessions.id, accessTokens.sessionId))
    .where(eq(accessTokens.id, Number(match[1])));
  if (!row || !safeEqual(row.tokenHash, sha256(match[2]!))) return undefined;
  if (row.revokedAt || row.sessionRevokedAt || row.expiresAt <= now || row.sessionExpiresAt <= now) return undefined;
  return { tokenId: row.tokenId, sessionId: row.sessionId, userId: row.userId, lastUsedAt: row.lastUsedAt };
}

/** Marks a token and its session as used now. */
export async function touchSession(db: Db, token: ResolvedAccessToken, now: Date): Promise<void> {
  // "Last use" is shown to the minute: no two writes on every authenticated request.
  if (token.lastUsedAt && now.getTime() - token.lastUsedAt.getTime() < TOUCH_INTERVAL_MS) return;
  await db.update(accessTokens).set({ lastUsedAt: now }).where(eq(accessTokens.id, token.tokenId));
  await db.update(authSessions).set({ lastUsedAt: now }).where(eq(authSessions.id, token.sessionId));
}

/** The session a refresh token belongs to, whatever its state (XSRF binding). */
export async function sessionIdOfRefreshToken(db: Db, token: string): Promise<number | undefined> {
  const [row] = await db
    .select({ sessionId: refreshTokens.sessionId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256(token)));
  return row?.sessionId;
}

/** Revokes a whole session: its refresh family and every access token issued in it. */
export async function revokeSession(db: Db, sessionId: number, reason: string, now: Date): Promise<void> {
  await db
    .update(authSessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
  await db
    .update(accessTokens)
    .set({ revokedAt: now })
    .where(and(eq(accessTokens.sessionId, sessionId), isNull(accessTokens.revokedAt)));
}

export type RotationResult =
  | { kind: 'rotated'; userId: number; tokens: IssuedTokens }
  | { kind: 'reused'; userId: number; sessionId: number }
  | { kind: 'invalid' };

/**
 * Rotates a refresh token: single use; a second use of the same token revokes its family.
 * The conditional update makes two concurrent uses race safely: only one wins.
 */
export async function rotateRefreshToken(
  db: Db,
  token: string,
  input: { now: Date; accessTtl: number },
): Promise<RotationResult> {
  const [row] = await db
    .select({
      id: refreshTokens.id,
      usedAt: refreshTokens.usedAt,
      sessionId: authSessions.id,
      userId: authSessions.userId,
      revokedAt: authSessions.revokedAt,
      expiresAt: authSessions.expiresAt,
    })
    .from(refreshTokens)
    .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, sha256(token)));
  if (!row || row.revokedAt || row.expiresAt <= input.now) return { kind: 'invalid' };
  if (row.usedAt) return { kind: 'reused', userId: row.userId, sessionId: row.sessionId };
  const claimed = await db
    .update(refreshTokens)
    .set({ usedAt: input.now })
    .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt)))
    .returning({ id: refreshTokens.id });
  if (claimed.length === 0) return { kind: 'reused', userId: row.userId, sessionId: row.sessionId };
  // A refreshed access token never outlives the family's absolute lifetime.
  const familySeconds = Math.floor((row.expiresAt.getTime() - input.now.getTime()) / 1000);
  const access = await issueAccessToken(db, row.sessionId, row.userId, input.now, Math.min(input.accessTtl, familySeconds));
  const refreshToken = await issueRefreshToken(db, row.sessionId, input.now);
  await db.update(authSessions).set({ lastUsedAt: input.now }).where(eq(authSessions.id, row.sessionId));
  return {
    kind: 'rotated',
    userId: row.userId,
    tokens: { sessionId: row.sessionId, accessToken: access.token, accessExpiresAt: access.expiresAt, refreshToken },
  };
}
