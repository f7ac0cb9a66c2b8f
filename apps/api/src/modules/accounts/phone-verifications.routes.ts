import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  ACCOUNT_PATHS,
  ConfirmPhoneBodySchema,
  maskPhone,
  PhoneVerificationIdSchema,
  PhoneVerificationStartedSchema,
  PhoneVerificationStatusSchema,
  StartAccountPhoneVerificationBodySchema,
  StartPhoneVerificationBodySchema,
} from '@portale/shared/accounts';
import { users } from '../../db/schema/index.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { authOf, requireAuth } from '../../plugins/authorization.ts';
import { CODE_TTL_MS, confirmPhoneCode, findPhoneVerification, RESEND_GAP_MS, resendPhoneCode, startPhoneVerification, type PhoneVerificationRow } from './phone-verification.service.ts';

const Params = z.object({ verificationId: PhoneVerificationIdSchema });
const started = (row: PhoneVerificationRow) => ({
  verificationId: row.id,
  phoneMasked: maskPhone(row.phone),
  expiresInSeconds: CODE_TTL_MS / 1000,
  resendAfterSeconds: RESEND_GAP_MS / 1000,
});

export async function phoneVerificationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const secret = app.env.APP_SECRET;
  const config = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } };
  const load = async (id: string) => {
    const row = await findPhoneVerification(app.db, id);
    if (!row) throw new HttpError(404, 'not_found', 'Verifica non trovata: chiedi un nuovo codice.');
    return row;
  };

  r.post(
    ACCOUNT_PATHS.phoneVerifications,
    { config, schema: { tags: ['accounts'], summary: 'Invia un codice SMS a un numero (es. prima dell’iscrizione della scuola)', body: StartPhoneVerificationBodySchema, response: { 201: PhoneVerificationStartedSchema } } },
    async (request, reply) => {
      const row = await startPhoneVerification(app.db, secret, { phone: request.body.phone, userId: null, now: app.clock.now(), ip: request.ip });
      return reply.status(201).send(started(row));
    },
  );

  r.post(
    ACCOUNT_PATHS.accountPhoneVerifications,
    {
      config,
      preHandler: requireAuth(),
      schema: { tags: ['accounts'], summary: 'Imposta e verifica il cellulare dell’utente connesso', body: StartAccountPhoneVerificationBodySchema, response: { 201: PhoneVerificationStartedSchema } },
    },
    async (request, reply) => {
      const { user } = authOf(request);
      const [row] = await app.db.select().from(users).where(eq(users.id, user.id));
      const changesVerified = row?.phoneVerifiedAt && row.phone !== request.body.phone;
      if (changesVerified && !(await verifyPassword(row.passwordHash, request.body.current_password ?? ''))) {
        throw fieldError('current_password', 'Per cambiare un numero già verificato inserisci la password attuale.');
      }
      const verification = await startPhoneVerification(app.db, secret, { phone: request.body.phone, userId: user.id, now: app.clock.now(), ip: request.ip });
      return reply.status(201).send(started(verification));
    },
  );

  r.get(
    ACCOUNT_PATHS.phoneVerification,
    { config, schema: { tags: ['accounts'], summary: 'Stato di una verifica (guardia must-have-verified-phone-on-query-param)', params: Params, response: { 200: PhoneVerificationStatusSchema } } },
    async (request) => {
      const row = await load(request.params.verificationId);
      return { verificationId: row.id, verified: row.verifiedAt !== null, phoneMasked: maskPhone(row.phone) };
    },
  );

  r.post(
    ACCOUNT_PATHS.phoneVerificationResend,
    { config, schema: { tags: ['accounts'], summary: 'Nuovo codice per la stessa verifica', params: Params, response: { 200: PhoneVerificationStartedSchema } } },
    async (request) => {
      const row = await load(request.params.verificationId);
      await resendPhoneCode(app.db, secret, row, app.clock.now(), request.ip);
      return started(row);
    },
  );

  r.post(
    ACCOUNT_PATHS.phoneVerificationConfirm,
    { config, schema: { tags: ['accounts'], summary: 'Conferma il codice ricevuto via SMS', params: Params, body: ConfirmPhoneBodySchema, response: { 200: PhoneVerificationStatusSchema } } },
    async (request) => {
      const row = await load(request.params.verificationId);
      await confirmPhoneCode(app.db, secret, row, request.body.code, app.clock.now(), request.ip);
      return { verificationId: row.id, verified: true, phoneMasked: maskPhone(row.phone) };
    },
  );
}
