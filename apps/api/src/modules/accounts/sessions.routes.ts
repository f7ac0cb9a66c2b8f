import type { FastifyInstance } from 'fastify';
import { deleteSession, listSessions, revokeOtherSessions } from '@portale/shared/accounts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { authOf } from '../../plugins/authorization.ts';
import { serviceContextOf } from '../../plugins/service-context.ts';
import { listActiveSessions } from './sessions.repository.ts';
import { revokeOwnOtherSessions, revokeOwnSession } from './sessions.service.ts';

/** The user's own active sessions: list, revoke one, revoke all the others (any role). */
export async function sessionRoutes(app: FastifyInstance) {
  registerEndpoint(app, listSessions, {}, async (request) => {
    const auth = authOf(request);
    const rows = await listActiveSessions(app.db, auth.user.id, app.clock.now());
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
  });

  registerEndpoint(app, deleteSession, {}, (request) =>
    revokeOwnSession(serviceContextOf(request), request.params.sessionId),
  );

  registerEndpoint(app, revokeOtherSessions, {}, async (request) => ({
    revoked: await revokeOwnOtherSessions(serviceContextOf(request), authOf(request).sessionId),
  }));
}
