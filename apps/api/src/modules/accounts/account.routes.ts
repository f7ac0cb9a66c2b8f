import type { FastifyInstance } from 'fastify';
import {
  DELETION_REQUEST_ANSWER,
  EMAIL_CHANGE_MESSAGES,
  exportAccount,
  getAccountProfile,
  requestAccountDeletion,
  requestEmailChange,
  updateAccountProfile,
} from '@portale/shared/accounts';
import { actorOf } from '../../lib/audit.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { HttpError } from '../../lib/http-error.ts';
import { authOf } from '../../plugins/authorization.ts';
import * as service from './account.service.ts';
import type { AccountDeps } from './account.service.ts';
import * as profiles from './account-profile.repository.ts';
import { romeDateStamp } from '../../lib/export.ts';

/** The signed-in user's own account: any role, also before the registration is complete (contracts say `'signed-in'`). */
export async function accountRoutes(app: FastifyInstance) {
  const notFound = () => new HttpError(404, 'not_found', 'Account non trovato.');

  registerEndpoint(app, getAccountProfile, {}, async (request) => {
    return (await profiles.findAccountProfile(app.db, authOf(request).user.id)) ?? Promise.reject(notFound());
  });

  const deps: AccountDeps = {
    db: app.db,
    clock: app.clock,
    throttle: {
      slowDownAfter: app.env.LOGIN_SLOWDOWN_AFTER,
      lockAfter: app.env.LOGIN_LOCK_AFTER,
      lockMinutes: app.env.LOGIN_LOCK_MINUTES,
      ipMaxFailures: app.env.LOGIN_IP_MAX_FAILURES,
    },
    webUrl: app.env.publicWebUrl,
  };

  registerEndpoint(app, updateAccountProfile, {}, async (request) => {
    const updated = await service.updateProfile(deps, actorOf(request), authOf(request).user, request.body);
    return updated ?? Promise.reject(notFound());
  });

  // A change of one's own e-mail (decision 041): the password, then a link to the new address; the
  // account moves to it only when the link is opened (confirmEmailToken), and the old address is told then.
  registerEndpoint(
    app,
    requestEmailChange,
    { config: { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } } },
    async (request) => {
      await service.requestEmailChange(deps, actorOf(request), authOf(request).user, request.body);
      return { message: EMAIL_CHANGE_MESSAGES.sent };
    },
  );

  registerEndpoint(app, exportAccount, {}, async (request, reply) => {
    const data = await service.exportAccount(app.db, actorOf(request), authOf(request).user.id);
    if (!data) throw notFound();
    const day = romeDateStamp(app.clock.now());
    reply.header('content-disposition', `attachment; filename="portale-scuole-dati-${day}.json"`);
    return { exportedAt: app.clock.now().toISOString(), ...data };
  });

  registerEndpoint(app, requestAccountDeletion, {}, async (request) => {
    const reason = request.body.reason ?? null;
    const requestedAt = await service.requestDeletion(app.db, actorOf(request), authOf(request).user, reason);
    return {
      status: 'received' as const,
      requestedAt: requestedAt.toISOString(),
      message: DELETION_REQUEST_ANSWER,
    };
  });
}
