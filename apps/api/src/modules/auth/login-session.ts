import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TokenResponse } from '@portale/shared/auth';
import { AUTH_COOKIES } from '@portale/shared/http';
import { issueXsrfCookie } from '../../plugins/xsrf.ts';
import { recordLastLogin } from './login.repository.ts';
import { startSession } from './tokens.repository.ts';

/**
 * Path `/` (seed §9): the refresh cookie must also reach `/sanctum/csrf-cookie`, otherwise the XSRF
 * token issued there is bound to no session and the refresh or login that follows fails with 419.
 */
export const REFRESH_COOKIE_PATH = '/';

export function refreshCookieOptions(app: FastifyInstance) {
  return {
    httpOnly: true,
    secure: app.env.COOKIE_SECURE,
    sameSite: 'lax' as const,
    path: REFRESH_COOKIE_PATH,
    ...(app.env.COOKIE_DOMAIN ? { domain: app.env.COOKIE_DOMAIN } : {}),
  };
}

export function tokenBody(app: FastifyInstance, token: string, expiresAt: Date): TokenResponse {
  return {
    token,
    token_type: 'Bearer',
    expires_in: Math.max(1, Math.round((expiresAt.getTime() - app.clock.now().getTime()) / 1000)),
  };
}

/** Opens a session for a fully authenticated user: tokens, refresh and XSRF cookies, audit. */
export async function openLoginSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  method: 'password' | 'mfa' | 'cie' | 'spid',
): Promise<TokenResponse> {
  const now = app.clock.now();
  const tokens = await startSession(app.db, {
    userId,
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    now,
    accessTtl: app.env.ACCESS_TOKEN_TTL,
    refreshTtl: app.env.REFRESH_TOKEN_TTL,
  });
  await recordLastLogin(app.db, userId, now);
  // The user's other sessions show this login as their "last login" (the route invalidates precisely).
  await app.sessions.invalidate({ kind: 'user', userId });
  await app.audit({
    action: 'auth.login',
    actorUserId: userId,
    entity: 'session',
    entityId: tokens.sessionId,
    after: { method },
    ip: request.ip,
  });
  reply.setCookie(AUTH_COOKIES.refreshToken, tokens.refreshToken, {
    ...refreshCookieOptions(app),
    maxAge: app.env.REFRESH_TOKEN_TTL,
  });
  issueXsrfCookie(app, reply, tokens.sessionId);
  return tokenBody(app, tokens.accessToken, tokens.accessExpiresAt);
}
