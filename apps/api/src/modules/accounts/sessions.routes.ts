import type { FastifyInstance } from 'fastify';
import { deleteSession, listSessions, revokeOtherSessions } from '@portale/shared/accounts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { HttpError } from '../../lib/http-error.ts';
import { authOf } from '../../plugins/authorization.ts';
import { revokeSession, revokeUserSessions } from '../auth/index.ts';
import { isLiveSessionOf, listActiveSessions } from './sessions.repository.ts';

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

  registerEndpoint(app, deleteSession, {}, async (request) => {
    const auth = authOf(request);
    const { sessionId } = request.params;
    if (!(await isLiveSessionOf(app.db, sessionId, auth.user.id)))
      throw new HttpError(404, 'not_found', 'Sessione non trovata.');
    await revokeSession(app.db, sessionId, 'revoked_by_user', app.clock.now());
    await app.audit({
      action: 'auth.session.revoked',
      actorUserId: auth.user.id,
      entity: 'session',
      entityId: sessionId,
      ip: request.ip,
    });
  });

  registerEndpoint(app, revokeOtherSessions, {}, async (request) => {
    const auth = authOf(request);
    const revoked = await revokeUserSessions(
      app.db,
      auth.user.id,
      'revoked_by_user',
      app.clock.now(),
      auth.sessionId,
    );
    await app.audit({
      action: 'auth.session.revoked_others',
      actorUserId: auth.user.id,
      entity: 'user',
      entityId: auth.user.id,
      after: { revoked },
      ip: request.ip,
    });
    return { revoked };
  });
}
