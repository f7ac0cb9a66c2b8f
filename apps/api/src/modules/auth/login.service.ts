import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LoginResponse } from '@portale/shared/accounts';
import { ERROR_MESSAGES } from '@portale/shared/http';
import type { Db } from '../../db/client.ts';
import type { Env } from '../../env.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
import type { Clock } from '../../lib/clock.ts';
import { HttpError } from '../../lib/http-error.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import type { SessionScope } from '../../plugins/session/session-cache.ts';
import {
  accountKey,
  assertLoginAllowed,
  clearAccountThrottle,
  ipKey,
  recordLoginFailure,
  withAccountLock,
} from './login-throttle.ts';
import { findLoginAccount, recordLastLogin } from './login.repository.ts';
import { beginSecondFactor } from './mfa-login.ts';
import { findAuthUser } from './session-user.repository.ts';
import { revokeSession, rotateRefreshToken, startSession, type IssuedTokens } from './tokens.repository.ts';

/**
 * What a login needs, named (decision 049): the database, the settings (throttle policy, token
 * lifetimes, MFA roles), the clock, and the session cache to drop the user's cached sessions. No
 * Fastify: a login reads route → service → repositories, as the adhesion signing does.
 */
export interface LoginDeps {
  db: Db;
  env: Env;
  clock: Clock;
  invalidateSessions(scope: SessionScope): Promise<void>;
}

/** The client that logs in: its address and browser, for the session row and the audit. */
export interface LoginClient {
  ip: string;
  userAgent: string | undefined;
}

export type LoginMethod = 'password' | 'mfa' | 'cie' | 'spid';

/** A session opened for a fully authenticated user: what the route turns into cookies and a body. */
export type OpenedSession = IssuedTokens;

export type PasswordLoginOutcome =
  { kind: 'second-factor'; answer: LoginResponse } | { kind: 'session'; session: OpenedSession };

export function loginDepsOf(app: FastifyInstance): LoginDeps {
  return {
    db: app.db,
    env: app.env,
    clock: app.clock,
    invalidateSessions: (scope) => app.sessions.invalidate(scope),
  };
}

export function loginClientOf(request: FastifyRequest): LoginClient {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

/** The password's throttle policy (the second factor's codes count with the same one). */
export function loginPolicy(env: Env) {
  return {
    slowDownAfter: env.LOGIN_SLOWDOWN_AFTER,
    lockAfter: env.LOGIN_LOCK_AFTER,
    lockMinutes: env.LOGIN_LOCK_MINUTES,
    ipMaxFailures: env.LOGIN_IP_MAX_FAILURES,
  };
}

const actorAt = (deps: LoginDeps, userId: number | null, client: LoginClient): Actor => ({
  userId,
  ip: client.ip,
  at: deps.clock.now(),
});

/**
 * A login with e-mail and password. Throttled attempts (429) and wrong credentials (401, the seed's
 * message whatever was wrong) are audited and thrown; a right password answers the second step for a
 * role that needs MFA, otherwise a new session.
 */
export async function loginWithPassword(
  deps: LoginDeps,
  credentials: { email: string; password: string },
  client: LoginClient,
): Promise<PasswordLoginOutcome> {
  const { db, clock } = deps;
  const policy = loginPolicy(deps.env);
  const email = credentials.email.trim().toLowerCase();
  const keys = { account: accountKey(email), ip: ipKey(client.ip) };
  // One attempt per account at a time, across instances (see withAccountLock): the outcome is
  // returned from the lock so that the failure count commits before the answer is sent.
  const outcome = await withAccountLock(db, keys.account, async (locked) => {
    try {
      await assertLoginAllowed(locked, keys, clock.now(), policy);
    } catch (error) {
      return { kind: 'throttled' as const, error };
    }
    const found = await findLoginAccount(locked, email);
    const passwordOk = await verifyPassword(found?.passwordHash, credentials.password);
    if (!found || !passwordOk || found.status !== 'active') {
      const lockedNow = await recordLoginFailure(locked, keys, clock.now(), policy);
      return { kind: 'failed' as const, userId: found?.id ?? null, locked: lockedNow };
    }
    await clearAccountThrottle(locked, email);
    return { kind: 'ok' as const, user: found };
  });
  if (outcome.kind === 'throttled') {
    await auditWrite(db, actorAt(deps, null, client), {
      action: 'auth.login.throttled',
      entity: 'account',
      entityId: email,
    });
    throw outcome.error;
  }
  if (outcome.kind === 'failed') {
    const actor = actorAt(deps, outcome.userId, client);
    await auditWrite(db, actor, { action: 'auth.login.failed', entity: 'account', entityId: email });
    if (outcome.locked)
      await auditWrite(db, actor, { action: 'auth.login.locked', entity: 'account', entityId: email });
    throw new HttpError(401, 'invalid_credentials', ERROR_MESSAGES.badCredentials);
  }
  const secondFactor = await beginSecondFactor(deps, outcome.user.id, client);
  if (secondFactor) return { kind: 'second-factor', answer: secondFactor };
  return { kind: 'session', session: await openSession(deps, outcome.user.id, 'password', client) };
}

/**
 * Opens a session for a fully authenticated user (tokens, last login), audited with its method and,
 * for SPID/CIE, the level (`acr`) it was opened with, which the session keeps.
 */
export async function openSession(
  deps: LoginDeps,
  userId: number,
  method: LoginMethod,
  client: LoginClient,
  acr: string | null = null,
): Promise<OpenedSession> {
  const now = deps.clock.now();
  const tokens = await startSession(deps.db, {
    userId,
    ip: client.ip,
    userAgent: client.userAgent,
    now,
    accessTtl: deps.env.ACCESS_TOKEN_TTL,
    refreshTtl: deps.env.REFRESH_TOKEN_TTL,
    acr,
  });
  await recordLastLogin(deps.db, userId, now);
  // The user's other sessions show this login as their "last login" (the route invalidates precisely).
  await deps.invalidateSessions({ kind: 'user', userId });
  await auditWrite(
    deps.db,
    { userId, ip: client.ip, at: now },
    {
      action: 'auth.login',
      entity: 'session',
      entityId: tokens.sessionId,
      after: acr ? { method, acr } : { method },
    },
  );
  return tokens;
}

/**
 * Rotates a refresh token (seed §9): a reused one revokes its whole session (theft), a user no longer
 * active loses the new session at once; both answer `refused` (the route clears the cookie, 401).
 */
export async function refreshSession(
  deps: LoginDeps,
  token: string,
  client: LoginClient,
): Promise<{ kind: 'refused' } | { kind: 'rotated'; tokens: IssuedTokens }> {
  const { db } = deps;
  const now = deps.clock.now();
  const result = await rotateRefreshToken(db, token, { now, accessTtl: deps.env.ACCESS_TOKEN_TTL });
  if (result.kind !== 'rotated') {
    if (result.kind === 'reused') {
      await revokeSession(db, result.sessionId, 'refresh_token_reuse', now);
      await deps.invalidateSessions({ kind: 'session', sessionId: result.sessionId });
      await auditWrite(
        db,
        { userId: result.userId, ip: client.ip, at: now },
        { action: 'auth.refresh.reuse', entity: 'session', entityId: result.sessionId },
      );
    }
    return { kind: 'refused' };
  }
  const user = await findAuthUser(db, result.userId);
  if (!user || user.status !== 'active') {
    await revokeSession(db, result.tokens.sessionId, 'user_inactive', now);
    await deps.invalidateSessions({ kind: 'session', sessionId: result.tokens.sessionId });
    return { kind: 'refused' };
  }
  // The access token this refresh replaced was revoked with the rotation: no instance may keep
  // answering it from its cache (decision 021).
  if (result.replacedAccessTokenId !== undefined)
    await deps.invalidateSessions({ kind: 'session', sessionId: result.tokens.sessionId });
  if (result.concurrent)
    await auditWrite(
      db,
      { userId: result.userId, ip: client.ip, at: now },
      { action: 'auth.refresh.concurrent', entity: 'session', entityId: result.tokens.sessionId },
    );
  return { kind: 'rotated', tokens: result.tokens };
}

/**
 * Ends a session (logout): revoked, dropped from every instance's cache before the answer (the very
 * next request with its token is refused), audited.
 */
export async function endSession(deps: LoginDeps, sessionId: number, actor: Actor): Promise<void> {
  await revokeSession(deps.db, sessionId, 'logout', actor.at);
  await deps.invalidateSessions({ kind: 'session', sessionId });
  await auditWrite(deps.db, actor, { action: 'auth.logout', entity: 'session', entityId: sessionId });
}
