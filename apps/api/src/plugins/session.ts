import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { findAuthUser, type AuthUser } from '../modules/auth/session-user.repository.ts';
import { resolveAccessToken, touchSession } from '../modules/auth/tokens.repository.ts';

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

/** Resolves the bearer token of every request into `request.auth` (null for guests). */
export const session = fp(async (app: FastifyInstance) => {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const bearer = bearerOf(request);
    if (!bearer) return;
    const now = app.clock.now();
    const token = await resolveAccessToken(app.db, bearer, now);
    if (!token) return;
    const user = await findAuthUser(app.db, token.userId);
    if (!user || user.status !== 'active') return;
    await touchSession(app.db, token, now);
    request.auth = { user, sessionId: token.sessionId, tokenId: token.tokenId };
  });
});
