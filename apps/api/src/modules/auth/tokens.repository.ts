import { hash } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { accessTokens, authSessions, refreshTokens } from '../../db/schema/index.ts';
import { randomToken, safeEqual, sha256 } from '../../lib/crypto.ts';
import type { Authentication } from '../../plugins/session/authentication.ts';
import { AUTH_USER_COLUMNS, authUserOf, type AuthUserRow } from './session-user.repository.ts';

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
  return { id: row!.id, token: `${row!.id}|${secret}`, expiresAt };
}

/** A refresh token of the session, linked to the access token issued with it (`accessTokenId`). */
async function issueRefreshToken(db: Db, sessionId: number, now: Date, accessTokenId: number) {
  const token = randomToken(32);
  await db
    .insert(refreshTokens)
    .values({ sessionId, tokenHash: sha256(token), createdAt: now, accessTokenId });
  return token;
}

/** Starts a session (refresh family) with its first access and refresh tokens. */
export async function startSession(
  db: Db,
  input: {
    userId: number;
    ip: string;
    userAgent: string | undefined;
    now: Date;
    accessTtl: number;
    refreshTtl: number;
    /** The level of a SPID/CIE login; null for a password login. */
    acr?: string | null;
  },
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
        acr: input.acr ?? null,
      })
      .returning({ id: authSessions.id });
    const access = await issueAccessToken(
      tx as unknown as Db,
      session!.id,
      input.userId,
      input.now,
      Math.min(input.accessTtl, input.refreshTtl),
    );
    const refreshToken = await issueRefreshToken(tx as unknown as Db, session!.id, input.now, access.id);
    return {
      sessionId: session!.id,
      accessToken: access.token,
      accessExpiresAt: access.expiresAt,
      refreshToken,
    };
  });
}

/** How often the last use of a token and its session is recorded ("last use" is shown to the minute). */
export const TOUCH_INTERVAL_MS = 60_000;

export type { Authentication };

/**
 * A bearer token `<id>|<secret>` as its id and the SHA-256 of its secret (hex, as `sha256`; the
 * one-shot `hash` because this runs on every authenticated request); undefined when malformed.
 */
export function parseBearer(bearer: string): { id: number; hash: string } | undefined {
  const match = /^(\d{1,15})\|([A-Za-z0-9_-]{20,128})$/.exec(bearer);
  return match ? { id: Number(match[1]), hash: hash('sha256', match[2]!, 'hex') } : undefined;
}

/**
 * Authenticates a bearer token `<id>|<secret>` in ONE statement (one round trip on every
 * authenticated request): the token (unrevoked, unexpired, its session alive), its user with roles,
 * permissions and flags, and, at most once a minute, the "last use" of the token and of its session
 * (data-modifying CTEs of the same statement, which run only when the secret matches and the user is
 * active). The secret is compared in constant time here; the statement compares only its SHA-256
 * for the write. `undefined` for an unknown, dead or mismatched token and for a suspended user.
 */
export async function authenticateAccessToken(
  db: Db,
  bearer: string,
  now: Date,
): Promise<Authentication | undefined> {
  const parsed = parseBearer(bearer);
  if (!parsed) return undefined;
  const { id, hash } = parsed;
  const at = now.toISOString();
  const staleBefore = new Date(now.getTime() - TOUCH_INTERVAL_MS).toISOString();
  const result = await db.execute(sql`
    with token as (
      select t.id, t.session_id, t.user_id, t.token_hash, t.last_used_at, least(t.expires_at, s.expires_at) as valid_until
      from access_tokens t join auth_sessions s on s.id = t.session_id
      where t.id = ${id} and t.revoked_at is null and t.expires_at > ${at}::timestamptz
        and s.revoked_at is null and s.expires_at > ${at}::timestamptz
    ),
    touched_token as (
      update access_tokens set last_used_at = ${at}::timestamptz
      where id = (
        select token.id from token join users on users.id = token.user_id
        where token.token_hash = ${hash} and users.status = 'active'
          and (token.last_used_at is null or token.last_used_at <= ${staleBefore}::timestamptz))
      returning session_id
    ),
    touched_session as (
      update auth_sessions set last_used_at = ${at}::timestamptz where id in (select session_id from touched_token)
    )
    select token.id::text as token_id, token.session_id::text as session_id, token.token_hash,
      (extract(epoch from token.valid_until) * 1000)::float8 as valid_until_ms, ${AUTH_USER_COLUMNS}
    from token join users u on u.id = token.user_id`);
  const [row] = (
    result as unknown as {
      rows: (AuthUserRow & {
        token_id: string;
        session_id: string;
        token_hash: string;
        valid_until_ms: number;
      })[];
    }
  ).rows;
  if (!row || !safeEqual(row.token_hash, hash)) return undefined;
  const user = authUserOf(row);
  if (user.status !== 'active') return undefined;
  return {
    user,
    tokenId: Number(row.token_id),
    sessionId: Number(row.session_id),
    validUntil: new Date(Number(row.valid_until_ms)),
  };
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

/** Revokes the user's live sessions and their access tokens, except `keepSessionId`; returns how many sessions. */
export async function revokeUserSessions(
  db: DbOrTx,
  userId: number,
  reason: string,
  now: Date,
  keepSessionId?: number,
): Promise<number> {
  const filter = and(
    eq(authSessions.userId, userId),
    isNull(authSessions.revokedAt),
    keepSessionId ? ne(authSessions.id, keepSessionId) : undefined,
  );
  const revoked = await db
    .update(authSessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(filter)
    .returning({ id: authSessions.id });
  const keep = keepSessionId ? ne(accessTokens.sessionId, keepSessionId) : undefined;
  await db
    .update(accessTokens)
    .set({ revokedAt: now })
    .where(and(eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt), keep));
  return revoked.length;
}

/**
 * How long a refresh token that has just been rotated may be presented again without being taken
 * for a stolen copy: two tabs restoring the session at once, or a retry after a lost response.
 * Such a late caller gets a fresh pair in the same family; after the window, reuse revokes it.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

export type RotationResult =
  | {
      kind: 'rotated';
      userId: number;
      tokens: IssuedTokens;
      concurrent: boolean;
      replacedAccessTokenId: number | undefined;
    }
  | { kind: 'reused'; userId: number; sessionId: number }
  | { kind: 'invalid' };

/**
 * Rotates a refresh token: single use; a second use of the same token revokes its family, except
 * within REFRESH_REUSE_GRACE_MS of the first use (`concurrent: true`), which gets a fresh access
 * and refresh token of the same live family (same session, same absolute end). The conditional
 * update decides which of two simultaneous uses rotates; the other is such a concurrent use.
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
      accessTokenId: refreshTokens.accessTokenId,
      sessionId: authSessions.id,
      userId: authSessions.userId,
      revokedAt: authSessions.revokedAt,
      expiresAt: authSessions.expiresAt,
    })
    .from(refreshTokens)
    .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, sha256(token)));
  if (!row || row.revokedAt || row.expiresAt <= input.now) return { kind: 'invalid' };
  let concurrent = false;
  if (row.usedAt) {
    const sinceFirstUse = input.now.getTime() - row.usedAt.getTime();
    if (sinceFirstUse > REFRESH_REUSE_GRACE_MS)
      return { kind: 'reused', userId: row.userId, sessionId: row.sessionId };
    concurrent = true;
  } else {
    const claimed = await db
      .update(refreshTokens)
      .set({ usedAt: input.now })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt)))
      .returning({ id: refreshTokens.id });
    // Lost the race to a request that rotated this token a moment ago.
    concurrent = claimed.length === 0;
  }
  // A refreshed access token never outlives the family's absolute lifetime.
  const familySeconds = Math.floor((row.expiresAt.getTime() - input.now.getTime()) / 1000);
  const access = await issueAccessToken(
    db,
    row.sessionId,
    row.userId,
    input.now,
    Math.min(input.accessTtl, familySeconds),
  );
  const refreshToken = await issueRefreshToken(db, row.sessionId, input.now, access.id);
  // The access token issued with the refresh token just used is replaced: it stops working now. A
  // concurrent use in the grace window gets its own pair and leaves the first caller's new one alone.
  const replacedAccessTokenId = row.accessTokenId ?? undefined;
  if (replacedAccessTokenId !== undefined) {
    await db
      .update(accessTokens)
      .set({ revokedAt: input.now })
      .where(and(eq(accessTokens.id, replacedAccessTokenId), isNull(accessTokens.revokedAt)));
  }
  await db.update(authSessions).set({ lastUsedAt: input.now }).where(eq(authSessions.id, row.sessionId));
  return {
    kind: 'rotated',
    userId: row.userId,
    concurrent,
    replacedAccessTokenId,
    tokens: {
      sessionId: row.sessionId,
      accessToken: access.token,
      accessExpiresAt: access.expiresAt,
      refreshToken,
    },
  };
}
