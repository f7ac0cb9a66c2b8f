import type { FastifyInstance } from 'fastify';
import { FORGOT_PASSWORD_ANSWER, forgotPassword } from '@portale/shared/accounts';
import { changePassword, resetPassword } from '@portale/shared/accounts/password';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { HttpError } from '../../lib/http-error.ts';
import { authOf } from '../../plugins/authorization.ts';
import { rateLimitKey } from '../../plugins/rate-limits.ts';
import { afterResponse, settleAfterResponse } from './after-response.ts';
import {
  changeOwnPassword,
  findUserOfResetToken,
  requestPasswordReset,
  setNewPassword,
} from './password.service.ts';

export async function passwordRoutes(app: FastifyInstance) {
  const config = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } };
  const ctx = (ip: string) => ({ now: app.clock.now(), ip, webUrl: app.env.publicWebUrl });
  // A shutdown waits for the reset links already promised.
  app.addHook('onClose', () => settleAfterResponse(app));

  registerEndpoint(app, forgotPassword, { config }, async (request, reply) => {
    // Same answer, same time, for every address: nothing about the account is read before the
    // answer is sent; the lookup and the e-mail follow it (A5).
    const { email } = request.body;
    const client = rateLimitKey(request);
    const context = {
      ...ctx(request.ip),
      // The hourly e-mail ceiling counts the e-mails really queued, never an unknown address.
      charge: async (weight: 0 | 1) => (await app.ceilings.take('emails', client, request.log, weight)).ok,
    };
    afterResponse(app, request, reply, 'password reset request', () =>
      requestPasswordReset(app.db, email, context),
    );
    return { status: 'accepted', message: FORGOT_PASSWORD_ANSWER };
  });

  registerEndpoint(app, resetPassword, { config }, async (request) => {
    const user = await findUserOfResetToken(app.db, request.body.token, app.clock.now());
    if (!user)
      throw new HttpError(
        400,
        'reset_token_invalid',
        'Il collegamento non è valido o è scaduto: chiedi un nuovo collegamento.',
      );
    await setNewPassword(app.db, user, request.body.password, {
      ...ctx(request.ip),
      action: 'auth.password.reset',
      viaEmailLink: true,
    });
    return {
      status: 'password_reset',
      message: 'Password aggiornata. Ora puoi accedere con la nuova password.',
    };
  });

  registerEndpoint(app, changePassword, { config }, async (request) => {
    const auth = authOf(request);
    const outcome = await changeOwnPassword(app.db, auth.user.id, request.body, {
      ...ctx(request.ip),
      sessionId: auth.sessionId,
    });
    if (outcome === 'unknown-user')
      throw new HttpError(401, 'unauthenticated', 'Sessione assente o scaduta: accedi di nuovo.');
    return {
      status: 'password_changed',
      message: 'Password aggiornata. Gli accessi sugli altri dispositivi sono stati chiusi.',
    };
  });
}
