import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { ACCOUNT_PATHS, FORGOT_PASSWORD_ANSWER, ForgotPasswordBodySchema, StatusMessageSchema } from '@portale/shared/accounts';
import { ChangePasswordBodySchema, ResetPasswordBodySchema } from '@portale/shared/accounts/password';
import { users } from '../../db/schema/index.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { authOf, requireAuth } from '../../plugins/authorization.ts';
import { afterResponse, settleAfterResponse } from './after-response.ts';
import { findUserOfResetToken, requestPasswordReset, setNewPassword } from './password.service.ts';

export async function passwordRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } };
  const ctx = (ip: string) => ({ now: app.clock.now(), ip, webUrl: app.env.publicWebUrl });
  // A shutdown waits for the reset links already promised.
  app.addHook('onClose', () => settleAfterResponse(app));

  r.post(
    ACCOUNT_PATHS.forgotPassword,
    { config, schema: { tags: ['auth'], summary: 'Chiede il collegamento per una nuova password (stessa risposta per ogni indirizzo)', body: ForgotPasswordBodySchema, response: { 202: StatusMessageSchema } } },
    async (request, reply) => {
      // Same answer, same time, for every address: nothing about the account is read before the
      // answer is sent; the lookup and the e-mail follow it (A5).
      const { email } = request.body;
      const context = ctx(request.ip);
      afterResponse(app, request, reply, 'password reset request', () => requestPasswordReset(app.db, email, context));
      return reply.status(202).send({ status: 'accepted', message: FORGOT_PASSWORD_ANSWER });
    },
  );

  r.post(
    ACCOUNT_PATHS.resetPassword,
    { config, schema: { tags: ['auth'], summary: 'Nuova password con il token del collegamento (nessun accesso automatico)', body: ResetPasswordBodySchema, response: { 200: StatusMessageSchema } } },
    async (request) => {
      const user = await findUserOfResetToken(app.db, request.body.token, app.clock.now());
      if (!user) throw new HttpError(400, 'reset_token_invalid', 'Il collegamento non è valido o è scaduto: chiedi un nuovo collegamento.');
      await setNewPassword(app.db, user, request.body.password, { ...ctx(request.ip), action: 'auth.password.reset' });
      return { status: 'password_reset', message: 'Password aggiornata. Ora puoi accedere con la nuova password.' };
    },
  );

  r.post(
    ACCOUNT_PATHS.changePassword,
    {
      config,
      preHandler: requireAuth({ allowPendingPasswordChange: true }),
      schema: { tags: ['auth'], summary: 'Cambia la password (anche quella da aggiornare obbligatoriamente)', body: ChangePasswordBodySchema, response: { 200: StatusMessageSchema } },
    },
    async (request) => {
      const auth = authOf(request);
      const [user] = await app.db.select().from(users).where(eq(users.id, auth.user.id));
      if (!user) throw new HttpError(401, 'unauthenticated', 'Sessione assente o scaduta: accedi di nuovo.');
      if (!(await verifyPassword(user.passwordHash, request.body.current_password))) {
        await app.audit({ action: 'auth.password.change_failed', actorUserId: user.id, entity: 'user', entityId: user.id, ip: request.ip });
        throw fieldError('current_password', 'La password attuale non è corretta.');
      }
      if (await verifyPassword(user.passwordHash, request.body.password)) {
        throw fieldError('password', 'La nuova password deve essere diversa da quella attuale.');
      }
      await setNewPassword(app.db, user, request.body.password, { ...ctx(request.ip), action: 'auth.password.changed', keepSessionId: auth.sessionId });
      return { status: 'password_changed', message: 'Password aggiornata. Gli accessi sugli altri dispositivi sono stati chiusi.' };
    },
  );
}
