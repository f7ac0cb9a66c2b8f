import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { ACCOUNT_PATHS, MFA_RESET_RULE, MfaResetResponseSchema, MfaVerifyBodySchema, MfaVerifyResponseSchema } from '@portale/shared/accounts';
import { satisfiesRule } from '@portale/shared/auth';
import { IdParamSchema } from '@portale/shared/validation';
import { mfaFactors, users } from '../../db/schema/index.ts';
import { writeAudit } from '../../lib/audit.ts';
import { HttpError } from '../../lib/http-error.ts';
import { authOf, requireAuth } from '../../plugins/authorization.ts';
import { openLoginSession } from '../auth/login-session.ts';
import { enqueueMessage } from '../messages/outbox.repository.ts';
import { formatRomeDateTime } from '../accounts/format.ts';
import { checkSecondFactor } from './mfa-verify.ts';

const invalidChallenge = () =>
  new HttpError(401, 'mfa_challenge_invalid', 'La verifica è scaduta o non è valida: accedi di nuovo con e-mail e password.');

export async function mfaRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    ACCOUNT_PATHS.mfaVerify,
    {
      config: { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Secondo fattore: codice TOTP o codice di recupero; risponde come il login',
        body: MfaVerifyBodySchema,
        response: { 200: MfaVerifyResponseSchema },
      },
    },
    async (request, reply) => {
      const outcome = await checkSecondFactor(app, request.body, request.ip);
      if (outcome.kind === 'invalid_challenge') throw invalidChallenge();
      if (outcome.kind === 'wrong_code') {
        throw new HttpError(422, 'mfa_code_invalid', 'Il codice non è corretto o è scaduto. Riprova con il codice attuale.');
      }
      const tokens = await openLoginSession(app, request, reply, outcome.userId, 'mfa');
      return outcome.recoveryCodes ? { ...tokens, recovery_codes: outcome.recoveryCodes } : tokens;
    },
  );

  r.post(
    ACCOUNT_PATHS.mfaReset,
    {
      preHandler: requireAuth(),
      schema: {
        tags: ['auth'],
        summary: 'Azzera il secondo fattore di un utente (solo super-admin)',
        params: z.object({ userId: IdParamSchema }),
        response: { 200: MfaResetResponseSchema },
      },
    },
    async (request) => {
      const { user: actor } = authOf(request);
      if (!satisfiesRule(actor, MFA_RESET_RULE)) throw new HttpError(403, 'forbidden', 'Solo un amministratore può azzerare il secondo fattore.');
      const now = app.clock.now();
      const [target] = await app.db.select().from(users).where(eq(users.id, request.params.userId));
      if (!target) throw new HttpError(404, 'not_found', 'Utente non trovato.');
      await app.db.transaction(async (tx) => {
        const db = tx as unknown as typeof app.db;
        await db.delete(mfaFactors).where(eq(mfaFactors.userId, target.id));
        await enqueueMessage(db, {
          templateKey: 'email.mfa-reset',
          recipient: target.email,
          data: { firstName: target.firstName, when: formatRomeDateTime(now) },
          now,
        });
        await writeAudit(db, { action: 'auth.mfa.reset', actorUserId: actor.id, entity: 'user', entityId: target.id, ip: request.ip }, now);
      });
      return { status: 'mfa_reset' as const, message: 'Il secondo fattore è stato azzerato: l’utente lo configurerà al prossimo accesso.' };
    },
  );
}
