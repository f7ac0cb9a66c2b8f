import type { FastifyInstance } from 'fastify';
import {
  confirmPhoneVerification,
  createAccountPhoneVerification,
  createPhoneVerification,
  getPhoneVerification,
  maskPhone,
  resendPhoneVerificationCode,
} from '@portale/shared/accounts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { authOf } from '../../plugins/authorization.ts';
import {
  findPhoneVerification,
  findUserPhone,
  type PhoneVerificationRow,
} from './phone-verification.repository.ts';
import {
  CODE_TTL_MS,
  confirmPhoneCode,
  RESEND_GAP_MS,
  resendPhoneCode,
  startPhoneVerification,
} from './phone-verification.service.ts';

const started = (row: PhoneVerificationRow) => ({
  verificationId: row.id,
  phoneMasked: maskPhone(row.phone),
  expiresInSeconds: CODE_TTL_MS / 1000,
  resendAfterSeconds: RESEND_GAP_MS / 1000,
});

export async function phoneVerificationRoutes(app: FastifyInstance) {
  const secret = app.env.APP_SECRET;
  const config = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } };
  const load = async (id: string) => {
    const row = await findPhoneVerification(app.db, id);
    if (!row) throw new HttpError(404, 'not_found', 'Verifica non trovata: chiedi un nuovo codice.');
    return row;
  };

  registerEndpoint(app, createPhoneVerification, { config }, async (request) =>
    started(
      await startPhoneVerification(app.db, secret, {
        phone: request.body.phone,
        userId: null,
        now: app.clock.now(),
        ip: request.ip,
      }),
    ),
  );

  // The signed-in user's own phone (any role, also before the registration is complete).
  registerEndpoint(app, createAccountPhoneVerification, { config }, async (request) => {
    const { user } = authOf(request);
    const current = await findUserPhone(app.db, user.id);
    const changesVerified = current?.phoneVerifiedAt && current.phone !== request.body.phone;
    if (
      changesVerified &&
      !(await verifyPassword(current.passwordHash, request.body.current_password ?? ''))
    ) {
      throw fieldError(
        'current_password',
        'Per cambiare un numero già verificato inserisci la password attuale.',
      );
    }
    return started(
      await startPhoneVerification(app.db, secret, {
        phone: request.body.phone,
        userId: user.id,
        now: app.clock.now(),
        ip: request.ip,
      }),
    );
  });

  registerEndpoint(app, getPhoneVerification, { config }, async (request) => {
    const row = await load(request.params.verificationId);
    return { verificationId: row.id, verified: row.verifiedAt !== null, phoneMasked: maskPhone(row.phone) };
  });

  registerEndpoint(app, resendPhoneVerificationCode, { config }, async (request) => {
    const row = await load(request.params.verificationId);
    await resendPhoneCode(app.db, secret, row, app.clock.now(), request.ip);
    return started(row);
  });

  registerEndpoint(app, confirmPhoneVerification, { config }, async (request) => {
    const row = await load(request.params.verificationId);
    await confirmPhoneCode(
      app.db,
      secret,
      row,
      request.body.code,
      app.clock.now(),
      request.ip,
      app.env.publicWebUrl,
    );
    return { verificationId: row.id, verified: true, phoneMasked: maskPhone(row.phone) };
  });
}
