import { HttpError } from '../../lib/http-error.ts';
import { auditWrite } from '../../lib/audit.ts';
import type { ServiceContext } from '../../plugins/service-context.ts';
import { revokeSession, revokeUserSessions } from '../auth/index.ts';
import { isLiveSessionOf } from './sessions.repository.ts';

/** Revokes one of the user's own live sessions (404 for any other), audited. */
export async function revokeOwnSession(ctx: ServiceContext, sessionId: number): Promise<void> {
  const userId = ctx.user.id;
  if (!(await isLiveSessionOf(ctx.db, sessionId, userId)))
    throw new HttpError(404, 'not_found', 'Sessione non trovata.');
  await revokeSession(ctx.db, sessionId, 'revoked_by_user', ctx.actor.at);
  await auditWrite(ctx.db, ctx.actor, {
    action: 'auth.session.revoked',
    entity: 'session',
    entityId: sessionId,
  });
}

/** Revokes every other session of the user, keeping `keepSessionId`; audited with how many. */
export async function revokeOwnOtherSessions(ctx: ServiceContext, keepSessionId: number): Promise<number> {
  const userId = ctx.user.id;
  const revoked = await revokeUserSessions(ctx.db, userId, 'revoked_by_user', ctx.actor.at, keepSessionId);
  await auditWrite(ctx.db, ctx.actor, {
    action: 'auth.session.revoked_others',
    entity: 'user',
    entityId: userId,
    after: { revoked },
  });
  return revoked;
}
