import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, isNull, sql } from 'drizzle-orm';
import {
  ACCOUNT_PATHS,
  ConfirmEmailBodySchema,
  ConfirmEmailResponseSchema,
  EMAIL_VERIFICATION_MESSAGES,
  REGISTRATION_MESSAGES,
  RegistrationAcceptedSchema,
  RESEND_EMAIL_ANSWER,
  ResendEmailVerificationBodySchema,
  StatusMessageSchema,
} from '@portale/shared/accounts';
import { RegistrationBodySchema } from '@portale/shared/accounts/password';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { HttpError } from '../../lib/http-error.ts';
import { confirmEmailToken, mayResendEmailLink, sendEmailVerification } from './email-verification.service.ts';
import { registerParticipant } from './registration.service.ts';

export async function registrationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const rateLimit = { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' };

  r.post(
    ACCOUNT_PATHS.registrations,
    {
      config: { rateLimit },
      schema: {
        tags: ['accounts'],
        summary: 'Registrazione di insegnanti, educatori e altri partecipanti (stessa risposta se l’e-mail esiste già)',
        body: RegistrationBodySchema,
        response: { 202: RegistrationAcceptedSchema },
      },
    },
    async (request, reply) => {
      await registerParticipant(app.db, request.body, { now: app.clock.now(), ip: request.ip, webUrl: app.env.publicWebUrl });
      return reply.status(202).send({ status: 'accepted' as const, message: REGISTRATION_MESSAGES.accepted });
    },
  );

  r.post(
    ACCOUNT_PATHS.emailVerificationConfirm,
    {
      config: { rateLimit },
      schema: {
        tags: ['accounts'],
        summary: 'Conferma l’indirizzo e-mail con il token del collegamento',
        body: ConfirmEmailBodySchema,
        response: { 200: ConfirmEmailResponseSchema },
      },
    },
    async (request) => {
      const status = await confirmEmailToken(app.db, request.body.token, app.clock.now(), request.ip);
      return { status, message: EMAIL_VERIFICATION_MESSAGES[status] };
    },
  );

  r.post(
    ACCOUNT_PATHS.emailVerificationResend,
    {
      config: { rateLimit },
      schema: {
        tags: ['accounts'],
        summary: 'Invia di nuovo il collegamento di verifica (utente connesso, oppure e-mail indicata)',
        body: ResendEmailVerificationBodySchema,
        response: { 202: StatusMessageSchema },
      },
    },
    async (request, reply) => {
      const now = app.clock.now();
      const email = request.auth?.user.email.toLowerCase() ?? request.body.email;
      if (!email) throw new HttpError(422, 'validation_failed', 'Indica l’indirizzo e-mail da verificare.');
      const [user] = await app.db
        .select()
        .from(users)
        .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.emailVerifiedAt)));
      const allowed = user ? await mayResendEmailLink(app.db, user.id, now) : false;
      if (user && allowed) {
        await app.db.transaction(async (tx) => {
          await sendEmailVerification(tx as unknown as Db, user, now, app.env.publicWebUrl);
        });
        await app.audit({ action: 'account.email.verification_resent', actorUserId: user.id, entity: 'user', entityId: user.id, ip: request.ip });
      } else if (user && request.auth) {
        throw new HttpError(429, 'too_many_requests', 'Ti abbiamo appena inviato un collegamento: attendi un minuto prima di chiederne un altro (al massimo 5 al giorno).', { 'retry-after': '60' });
      }
      return reply.status(202).send({ status: 'accepted', message: RESEND_EMAIL_ANSWER });
    },
  );
}
