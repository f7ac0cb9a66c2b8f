import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthUser } from '../modules/auth/session-user.repository.ts';
import { authenticateAccessToken } from '../modules/auth/tokens.repository.ts';

export interface AuthContext {
  user: AuthUser;
  sessionId: number;
  tokenId: number;
}

/** Reads `Authorization: Bearer <id>|<secret>`; the token is never read from the query string. */
export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match?.[1]?.trim();
}

/**
 * Resolves the bearer token of every request into `request.auth` (null for guests) with one
 * database statement and no cache, so a logout, a revocation, a suspension or a change of roles
 * applies to the very next request.
 */
export const session = fp(async (app: FastifyInstance) => {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const bearer = bearerOf(request);
    if (!bearer) return;
    const found = await authenticateAccessToken(app.db, bearer, app.clock.now());
    if (!found) return;
    request.auth = { user: found.user, sessionId: found.sessionId, tokenId: found.tokenId };
  });
});
