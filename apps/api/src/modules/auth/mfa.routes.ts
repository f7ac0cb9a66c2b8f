import type { FastifyInstance } from 'fastify';
import { verifyMfa } from '@portale/shared/accounts/mfa';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { HttpError } from '../../lib/http-error.ts';
import { openLoginSession } from './login-session.ts';
import { loginDepsOf } from './login.service.ts';
import { checkSecondFactor } from './mfa-verify.ts';

const invalidChallenge = () =>
  new HttpError(
    401,
    'mfa_challenge_invalid',
    'La verifica è scaduta o non è valida: accedi di nuovo con e-mail e password.',
  );

export async function mfaRoutes(app: FastifyInstance) {
  const config = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } };

  registerEndpoint(app, verifyMfa, { config }, async (request, reply) => {
    const outcome = await checkSecondFactor(loginDepsOf(app), request.body, request.ip);
    if (outcome.kind === 'invalid_challenge') throw invalidChallenge();
    // Too many wrong codes of this account (any challenge): the password's 429 with Retry-After.
    if (outcome.kind === 'throttled') throw outcome.error;
    if (outcome.kind === 'wrong_code') {
      throw new HttpError(
        422,
        'mfa_code_invalid',
        'Il codice non è corretto o è scaduto. Riprova con il codice attuale.',
      );
    }
    const tokens = await openLoginSession(app, request, reply, outcome.userId, 'mfa');
    return outcome.recoveryCodes ? { ...tokens, recovery_codes: outcome.recoveryCodes } : tokens;
  });
}
