import { defineEndpoint } from '../http/endpoint.ts';
import { MfaVerifyBodySchema, MfaVerifyResponseSchema } from './mfa.schemas.ts';

/** Second step of a staff login: no session yet, the challenge token of the login is the credential. */
export const verifyMfa = defineEndpoint({
  method: 'POST',
  path: '/api/auth/mfa/verify',
  permission: 'public',
  tag: 'auth',
  summary: 'Secondo fattore: codice TOTP o codice di recupero; risponde come il login',
  body: MfaVerifyBodySchema,
  response: MfaVerifyResponseSchema,
  errors: [401],
});
