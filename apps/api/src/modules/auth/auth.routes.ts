import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SessionUser } from '@portale/shared/auth';
import {
  AUTH_COOKIES,
  authLogin,
  authLogout,
  authMe,
  authRefresh,
  ERROR_MESSAGES,
} from '@portale/shared/http';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { HttpError } from '../../lib/http-error.ts';
import { frozenAnswer } from '../../lib/response-serialization.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { authOf } from '../../plugins/authorization.ts';
import { issueXsrfCookie } from '../../plugins/xsrf.ts';
import {
  accountKey,
  assertLoginAllowed,
  clearAccountThrottle,
  ipKey,
  recordLoginFailure,
  withAccountLock,
} from './login-throttle.ts';
import { findLoginAccount } from './login.repository.ts';
import { findAuthUser, type AuthUser } from './session-user.repository.ts';
import { beginSecondFactor } from './mfa-login.ts';
import { openLoginSession, refreshCookieOptions, tokenBody as buildTokenBody } from './login-session.ts';
import { revokeSession, rotateRefreshToken, sessionIdOfRefreshToken } from './tokens.repository.ts';

/**
 * What a logout asks the browser to clear (Clear-Site-Data; honoured on https and localhost): the API
 * origin's cache and storage. Not "cookies": browsers apply it to the whole registrable domain, so it
 * would also erase the web's cookie-consent choice (Garante: not asked again for 6 months); the
 * refresh cookie is already expired by its own Set-Cookie.
 */
export const LOGOUT_CLEAR_SITE_DATA = '"cache", "storage"';

export async function authRoutes(app: FastifyInstance) {
  const { env } = app;
  const policy = {
    slowDownAfter: env.LOGIN_SLOWDOWN_AFTER,
    lockAfter: env.LOGIN_LOCK_AFTER,
    lockMinutes: env.LOGIN_LOCK_MINUTES,
    ipMaxFailures: env.LOGIN_IP_MAX_FAILURES,
  };
  const cookieBase = refreshCookieOptions(app);
  const setRefreshCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(AUTH_COOKIES.refreshToken, token, { ...cookieBase, maxAge: env.REFRESH_TOKEN_TTL });
  const clearRefreshCookie = (reply: FastifyReply) =>
    reply.clearCookie(AUTH_COOKIES.refreshToken, cookieBase);
  const tokenBody = (token: string, expiresAt: Date) => buildTokenBody(app, token, expiresAt);

  registerEndpoint(app, authLogin, {}, async (request, reply) => {
    const email = request.body.email.trim().toLowerCase();
    const keys = { account: accountKey(email), ip: ipKey(request.ip) };
    // One attempt per account at a time, across instances (see withAccountLock): the outcome is
    // returned from the lock so that the failure count commits before the answer is sent.
    const outcome = await withAccountLock(app.db, keys.account, async (db) => {
      try {
        await assertLoginAllowed(db, keys, app.clock.now(), policy);
      } catch (error) {
        return { kind: 'throttled' as const, error };
      }
      const found = await findLoginAccount(db, email);
      const passwordOk = await verifyPassword(found?.passwordHash, request.body.password);
      if (!found || !passwordOk || found.status !== 'active') {
        const locked = await recordLoginFailure(db, keys, app.clock.now(), policy);
        return { kind: 'failed' as const, userId: found?.id ?? null, locked };
      }
      await clearAccountThrottle(db, email);
      return { kind: 'ok' as const, user: found };
    });
    if (outcome.kind === 'throttled') {
      await app.audit({ action: 'auth.login.throttled', entity: 'account', entityId: email, ip: request.ip });
      throw outcome.error;
    }
    if (outcome.kind === 'failed') {
      await app.audit({
        action: 'auth.login.failed',
        actorUserId: outcome.userId,
        entity: 'account',
        entityId: email,
        ip: request.ip,
      });
      if (outcome.locked) {
        await app.audit({
          action: 'auth.login.locked',
          actorUserId: outcome.userId,
          entity: 'account',
          entityId: email,
          ip: request.ip,
        });
      }
      throw new HttpError(401, 'invalid_credentials', ERROR_MESSAGES.badCredentials);
    }
    const { user } = outcome;
    const secondFactor = await beginSecondFactor(app, request, user.id);
    if (secondFactor) return secondFactor;
    return openLoginSession(app, request, reply, user.id, 'password');
  });

  // One answer per session user: a cached session (decision 021) keeps its user object until a
  // change drops it, so its answer is checked and written once (frozenAnswer, decision 025).
  const meAnswers = new WeakMap<AuthUser, Readonly<{ user: SessionUser }>>();
  registerEndpoint(app, authMe, {}, async (request) => {
    const { user } = authOf(request);
    let answer = meAnswers.get(user);
    if (!answer) {
      const { status: _status, ...sessionUser } = user;
      answer = frozenAnswer({ user: sessionUser });
      meAnswers.set(user, answer);
    }
    return answer;
  });

  registerEndpoint(app, authRefresh, {}, async (request, reply) => {
    const now = app.clock.now();
    const token = request.cookies[AUTH_COOKIES.refreshToken];
    if (!token) throw new HttpError(401, 'unauthenticated', ERROR_MESSAGES.unauthenticated);
    const result = await rotateRefreshToken(app.db, token, { now, accessTtl: env.ACCESS_TOKEN_TTL });
    if (result.kind !== 'rotated') {
      clearRefreshCookie(reply);
      if (result.kind === 'reused') {
        await revokeSession(app.db, result.sessionId, 'refresh_token_reuse', now);
        await app.sessions.invalidate({ kind: 'session', sessionId: result.sessionId });
        await app.audit({
          action: 'auth.refresh.reuse',
          actorUserId: result.userId,
          entity: 'session',
          entityId: result.sessionId,
          ip: request.ip,
        });
      }
      throw new HttpError(401, 'unauthenticated', ERROR_MESSAGES.unauthenticated);
    }
    const user = await findAuthUser(app.db, result.userId);
    if (!user || user.status !== 'active') {
      await revokeSession(app.db, result.tokens.sessionId, 'user_inactive', now);
      await app.sessions.invalidate({ kind: 'session', sessionId: result.tokens.sessionId });
      clearRefreshCookie(reply);
      throw new HttpError(401, 'unauthenticated', ERROR_MESSAGES.unauthenticated);
    }
    // The access token this refresh replaced was revoked with the rotation: no instance may keep
    // answering it from its cache (decision 021).
    if (result.replacedAccessTokenId !== undefined)
      await app.sessions.invalidate({ kind: 'session', sessionId: result.tokens.sessionId });
    if (result.concurrent) {
      await app.audit({
        action: 'auth.refresh.concurrent',
        actorUserId: result.userId,
        entity: 'session',
        entityId: result.tokens.sessionId,
        ip: request.ip,
      });
    }
    setRefreshCookie(reply, result.tokens.refreshToken);
    return tokenBody(result.tokens.accessToken, result.tokens.accessExpiresAt);
  });

  registerEndpoint(app, authLogout, {}, async (request, reply) => {
    const now = app.clock.now();
    const refresh = request.cookies[AUTH_COOKIES.refreshToken];
    const sessionId =
      request.auth?.sessionId ?? (refresh ? await sessionIdOfRefreshToken(app.db, refresh) : undefined);
    if (sessionId) {
      await revokeSession(app.db, sessionId, 'logout', now);
      // Before the answer: the very next request with this session's token is refused on every instance.
      await app.sessions.invalidate({ kind: 'session', sessionId });
      await app.audit({
        action: 'auth.logout',
        actorUserId: request.auth?.user.id ?? null,
        entity: 'session',
        entityId: sessionId,
        ip: request.ip,
      });
    }
    clearRefreshCookie(reply);
    issueXsrfCookie(app, reply, undefined);
    // The browser drops what it kept for the site (ASVS 14.3.1); the cache holds no personal data
    // (API answers are not cached), so it is kept.
    reply.header('clear-site-data', LOGOUT_CLEAR_SITE_DATA);
  });
}
