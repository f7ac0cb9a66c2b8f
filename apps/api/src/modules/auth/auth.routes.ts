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
import { actorOf, type Actor } from '../../lib/audit.ts';
import { HttpError } from '../../lib/http-error.ts';
import { frozenAnswer } from '../../lib/response-serialization.ts';
import { authOf } from '../../plugins/authorization.ts';
import { issueXsrfCookie } from '../../plugins/xsrf.ts';
import type { AuthUser } from './session-user.repository.ts';
import { refreshCookieOptions, sendSession, tokenBody as buildTokenBody } from './login-session.ts';
import {
  endSession,
  loginClientOf,
  loginDepsOf,
  loginWithPassword,
  refreshSession,
} from './login.service.ts';
import { sessionIdOfRefreshToken } from './tokens.repository.ts';

/**
 * What a logout asks the browser to clear (Clear-Site-Data; honoured on https and localhost): the API
 * origin's cache and storage. Not "cookies": browsers apply it to the whole registrable domain, so it
 * would also erase the web's cookie-consent choice (Garante: not asked again for 6 months); the
 * refresh cookie is already expired by its own Set-Cookie.
 */
export const LOGOUT_CLEAR_SITE_DATA = '"cache", "storage"';

export interface AuthRoutesOptions {
  /**
   * After a logout ended `sessionId`: the URL where the browser also ends the identity provider's
   * session (SPID single logout, decision 052; CIE RP-initiated logout, decision 048), or null. Given by app.ts, so auth imports no identity code.
   */
  providerLogout?: (actor: Actor, sessionId: number) => Promise<string | null>;
}

export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions = {}) {
  const { env } = app;
  const deps = loginDepsOf(app);
  const cookieBase = refreshCookieOptions(app);
  const setRefreshCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(AUTH_COOKIES.refreshToken, token, { ...cookieBase, maxAge: env.REFRESH_TOKEN_TTL });
  const clearRefreshCookie = (reply: FastifyReply) =>
    reply.clearCookie(AUTH_COOKIES.refreshToken, cookieBase);
  const tokenBody = (token: string, expiresAt: Date) => buildTokenBody(app, token, expiresAt);

  registerEndpoint(app, authLogin, {}, async (request, reply) => {
    const outcome = await loginWithPassword(deps, request.body, loginClientOf(request));
    return outcome.kind === 'second-factor' ? outcome.answer : sendSession(app, reply, outcome.session);
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
    const token = request.cookies[AUTH_COOKIES.refreshToken];
    if (!token) throw new HttpError(401, 'unauthenticated', ERROR_MESSAGES.unauthenticated);
    const result = await refreshSession(deps, token, loginClientOf(request));
    if (result.kind === 'refused') {
      clearRefreshCookie(reply);
      throw new HttpError(401, 'unauthenticated', ERROR_MESSAGES.unauthenticated);
    }
    setRefreshCookie(reply, result.tokens.refreshToken);
    return tokenBody(result.tokens.accessToken, result.tokens.accessExpiresAt);
  });

  registerEndpoint(app, authLogout, {}, async (request, reply) => {
    const refresh = request.cookies[AUTH_COOKIES.refreshToken];
    const sessionId =
      request.auth?.sessionId ?? (refresh ? await sessionIdOfRefreshToken(app.db, refresh) : undefined);
    const actor = actorOf(request);
    let providerLogoutUrl: string | null = null;
    if (sessionId) {
      await endSession(deps, sessionId, actor);
      try {
        providerLogoutUrl = (await options.providerLogout?.(actor, sessionId)) ?? null;
      } catch (error) {
        // Our session is over whatever the provider's logout does: the user is logged out here.
        request.log.warn({ err: error }, 'provider logout not started');
      }
    }
    clearRefreshCookie(reply);
    issueXsrfCookie(app, reply, undefined);
    // The browser drops what it kept for the site (ASVS 14.3.1); the cache holds no personal data
    // (API answers are not cached), so it is kept.
    reply.header('clear-site-data', LOGOUT_CLEAR_SITE_DATA);
    return { providerLogoutUrl };
  });
}
