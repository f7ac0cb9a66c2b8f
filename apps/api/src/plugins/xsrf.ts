import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AUTH_COOKIES, authCsrf, ERROR_MESSAGES, HTTP_DEFAULTS } from '@portale/shared/http';
import { hmac, randomToken, safeEqual } from '../lib/crypto.ts';
import { HttpError } from '../lib/http-error.ts';
import { HINTS_KEY, operationHints, operationIdOf } from '../lib/openapi-operation.ts';
import type { TokenLookup } from './session/authentication.ts';
import { takesCrossSiteForm } from './security.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sign(secret: string, nonce: string, sessionId: number | undefined): string {
  return hmac(secret, `xsrf|${sessionId ?? 'anonymous'}|${nonce}`);
}

/** The session the request belongs to: its bearer token, else its refresh cookie. */
async function bindingOf(
  app: FastifyInstance,
  request: FastifyRequest,
  { sessionIdOfRefreshToken }: TokenLookup,
): Promise<number | undefined> {
  if (request.auth) return request.auth.sessionId;
  const refresh = request.cookies[AUTH_COOKIES.refreshToken];
  return refresh ? sessionIdOfRefreshToken(app.db, refresh) : undefined;
}

/** Sets a fresh XSRF-TOKEN cookie bound to `sessionId` (signed double submit). */
export function issueXsrfCookie(
  app: FastifyInstance,
  reply: FastifyReply,
  sessionId: number | undefined,
): string {
  const nonce = randomToken(16);
  const value = `${nonce}.${sign(app.env.APP_SECRET, nonce, sessionId)}`;
  reply.setCookie(HTTP_DEFAULTS.xsrfCookie, value, {
    path: '/',
    httpOnly: false,
    secure: app.env.COOKIE_SECURE,
    sameSite: 'lax',
    maxAge: app.env.REFRESH_TOKEN_TTL,
    ...(app.env.COOKIE_DOMAIN ? { domain: app.env.COOKIE_DOMAIN } : {}),
  });
  return value;
}

/**
 * Every state-changing request must echo the XSRF-TOKEN cookie in X-XSRF-TOKEN, and the token's HMAC
 * must bind it to the request's own session: a mismatch is 419.
 */
export const xsrf = fp(async (app: FastifyInstance, { tokens }: { tokens: TokenLookup }) => {
  const check = async (request: FastifyRequest) => {
    const header = request.headers['x-xsrf-token'];
    const cookie = request.cookies[HTTP_DEFAULTS.xsrfCookie];
    const fail = () => new HttpError(419, 'csrf_token_mismatch', ERROR_MESSAGES.csrf);
    if (typeof header !== 'string' || !cookie || !safeEqual(header, cookie)) throw fail();
    const [nonce, signature] = header.split('.');
    if (!nonce || !signature) throw fail();
    const sessionId = await bindingOf(app, request, tokens);
    if (!safeEqual(signature, sign(app.env.APP_SECRET, nonce, sessionId))) throw fail();
  };
  // Safe methods pass without a promise (the common case).
  app.addHook('onRequest', (request, _reply, done) => {
    if (!UNSAFE.has(request.method) || takesCrossSiteForm(request)) return done();
    check(request).then(() => done(), done);
  });

  // The contract's route (GET and HEAD, one handler), kept next to the check that uses its cookie.
  app.route({
    method: ['GET', 'HEAD'],
    url: authCsrf.path,
    // The 204 is documented as the contract says (the OpenAPI document would otherwise claim a 200).
    schema: {
      tags: [authCsrf.tag],
      summary: authCsrf.summary,
      operationId: operationIdOf(authCsrf.method, authCsrf.path),
      security: [],
      [HINTS_KEY]: operationHints(authCsrf, false),
      response: { 204: authCsrf.response },
    },
    handler: async (request, reply) => {
      issueXsrfCookie(app, reply, await bindingOf(app, request, tokens));
      return reply.status(204).send();
    },
  });
});
