import type { FastifyInstance } from 'fastify';
import {
  confirmEmailVerification,
  EMAIL_VERIFICATION_MESSAGES,
  REGISTRATION_MESSAGES,
  RESEND_EMAIL_ANSWER,
  resendEmailVerification,
} from '@portale/shared/accounts';
import { createRegistration } from '@portale/shared/accounts/password';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { HttpError } from '../../lib/http-error.ts';
import { rateLimitKey } from '../../plugins/rate-limits.ts';
import * as emailLinks from './email-verification.service.ts';
import { registerParticipant } from './registration.service.ts';
import { pendingRegistrationOf } from '../identity/index.ts';

export async function registrationRoutes(app: FastifyInstance) {
  const config = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } };
  const ctx = (ip: string) => ({ now: app.clock.now(), ip, webUrl: app.env.publicWebUrl });

  registerEndpoint(app, createRegistration, { config }, async (request) => {
    // Registering after a login with CIE: the verified name, surname and codice fiscale win (decision 048).
    const verified = await pendingRegistrationOf(app, request);
    await registerParticipant(app.db, verified ? verified.body(request.body) : request.body, {
      ...ctx(request.ip),
      ...(verified ? { onCreated: verified.link } : {}),
    });
    return { status: 'accepted' as const, message: REGISTRATION_MESSAGES.accepted };
  });

  registerEndpoint(app, confirmEmailVerification, { config }, async (request) => {
    const status = await emailLinks.confirmEmailToken(
      app.db,
      request.body.token,
      app.clock.now(),
      request.ip,
      app.env.publicWebUrl,
    );
    return { status, message: EMAIL_VERIFICATION_MESSAGES[status] };
  });

  registerEndpoint(app, resendEmailVerification, { config }, async (request) => {
    const email = request.auth?.user.email.toLowerCase() ?? request.body.email;
    if (!email) throw new HttpError(422, 'validation_failed', 'Indica l’indirizzo e-mail da verificare.');
    const charge = async () => (await app.ceilings.take('emails', rateLimitKey(request), request.log)).ok;
    const outcome = await emailLinks.resendEmailVerification(app.db, email, { ...ctx(request.ip), charge });
    // Only the signed-in owner learns that the link was refused: anyone else gets the same answer.
    if (outcome === 'throttled' && request.auth) {
      throw new HttpError(
        429,
        'too_many_requests',
        'Ti abbiamo appena inviato un collegamento: attendi un minuto prima di chiederne un altro (al massimo 5 al giorno).',
        { 'retry-after': '60' },
      );
    }
    return { status: 'accepted', message: RESEND_EMAIL_ANSWER };
  });
}
