import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TokenResponse } from '@portale/shared/auth';
import { AUTH_COOKIES } from '@portale/shared/http';
import { issueXsrfCookie } from '../../plugins/xsrf.ts';
import {
  loginClientOf,
  loginDepsOf,
  openSession,
  type LoginMethod,
  type OpenedSession,
} from './login.service.ts';

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

/** Answers an opened session: the refresh and XSRF cookies, and the access token as the body. */
export function sendSession(
  app: FastifyInstance,
  reply: FastifyReply,
  session: OpenedSession,
): TokenResponse {
  reply.setCookie(AUTH_COOKIES.refreshToken, session.refreshToken, {
    ...refreshCookieOptions(app),
    maxAge: app.env.REFRESH_TOKEN_TTL,
  });
  issueXsrfCookie(app, reply, session.sessionId);
  return tokenBody(app, session.accessToken, session.accessExpiresAt);
}

/** What a SPID/CIE login gives its session: the level it was opened with, and what its logout needs. */
export interface SessionExtras {
  acr?: string | null;
  /** Records what the login method keeps with the session (SPID/CIE: what the provider's logout needs). */
  opened?: ((sessionId: number) => Promise<void>) | undefined;
}

/** Opens a session for a fully authenticated user (login.service's `openSession`) and answers it. */
export async function openLoginSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  method: LoginMethod,
  extras: SessionExtras = {},
): Promise<TokenResponse> {
  const client = loginClientOf(request);
  const session = await openSession(loginDepsOf(app), userId, method, client, extras.acr ?? null);
  await extras.opened?.(session.sessionId);
  return sendSession(app, reply, session);
}
