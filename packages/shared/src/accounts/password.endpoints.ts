import { defineEndpoint } from '../http/endpoint.ts';
import { StatusMessageSchema } from './forgot-password.schemas.ts';
import { ChangePasswordBodySchema, ResetPasswordBodySchema } from './password.schemas.ts';

/** The endpoints that take a new password (zxcvbn policy), so part of `accounts/password`. */
export const resetPassword = defineEndpoint({
  method: 'POST',
  path: '/api/auth/reset-password',
  permission: 'public',
  tag: 'auth',
  summary: 'Nuova password con il token del collegamento (nessun accesso automatico)',
  body: ResetPasswordBodySchema,
  response: StatusMessageSchema,
});

/** Also while a password change is pending: it is how that change is made. */
export const changePassword = defineEndpoint({
  method: 'POST',
  path: '/api/auth/change-password',
  permission: 'signed-in-pending-password',
  tag: 'auth',
  summary: 'Cambia la password (anche quella da aggiornare obbligatoriamente)',
  body: ChangePasswordBodySchema,
  response: StatusMessageSchema,
});
