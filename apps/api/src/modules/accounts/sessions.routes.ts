import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { ACCOUNT_PATHS, RevokeOthersResponseSchema, SessionListSchema } from '@portale/shared/accounts';
import { IdParamSchema } from '@portale/shared/validation';
import { authSessions } from '../../db/schema/index.ts';
import { HttpError } from '../../lib/http-error.ts';
import { authOf, requireAuth } from '../../plugins/authorization.ts';
import { revokeSession } from '../auth/tokens.repository.ts';
import { revokeUserSessions } from './password.service.ts';

/** The user's own active sessions: list, revoke one, revoke all the others. */
export async function sessionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = requireAuth();

  r.get(
    ACCOUNT_PATHS.sessions,
    { preHandler, schema: { tags: ['auth'], summary: 'Le sessioni attive dell’utente', response: { 200: SessionListSchema } } },
    async (request) => {
      const auth = authOf(request);
      const rows = await app.db
        .select()
        .from(authSessions)
        .where(and(eq(authSessions.userId, auth.user.id), isNull(authSessions.revokedAt), gt(authSessions.expiresAt, app.clock.now())))
        .orderBy(desc(authSessions.lastUsedAt));
      return {
        items: rows.map((s) => ({
          id: s.id,
          device: s.userAgent ?? 'Dispositivo sconosciuto',
          ip: s.ip,
          createdAt: s.createdAt.toISOString(),
          lastUsedAt: s.lastUsedAt.toISOString(),
          current: s.id === auth.sessionId,
        })),
      };
    },
  );

  r.delete(
    ACCOUNT_PATHS.session,
    { preHandler, schema: { tags: ['auth'], summary: 'Chiude una sessione', params: z.object({ sessionId: IdParamSchema }) } },
    async (request, reply) => {
      const auth = authOf(request);
      const [row] = await app.db
        .select({ id: authSessions.id })
        .from(authSessions)
        .where(and(eq(authSessions.id, request.params.sessionId), eq(authSessions.userId, auth.user.id), isNull(authSessions.revokedAt)));
      if (!row) throw new HttpError(404, 'not_found', 'Sessione non trovata.');
      await revokeSession(app.db, row.id, 'revoked_by_user', app.clock.now());
      await app.audit({ action: 'auth.session.revoked', actorUserId: auth.user.id, entity: 'session', entityId: row.id, ip: request.ip });
      return reply.status(204).send();
    },
  );

  r.post(
    ACCOUNT_PATHS.revokeOtherSessions,
    { preHandler, schema: { tags: ['auth'], summary: 'Chiude tutte le altre sessioni', response: { 200: RevokeOthersResponseSchema } } },
    async (request) => {
      const auth = authOf(request);
      const revoked = await revokeUserSessions(app.db, auth.user.id, 'revoked_by_user', app.clock.now(), auth.sessionId);
      await app.audit({ action: 'auth.session.revoked_others', actorUserId: auth.user.id, entity: 'user', entityId: auth.user.id, after: { revoked }, ip: request.ip });
      return { revoked };
    },
  );
}
