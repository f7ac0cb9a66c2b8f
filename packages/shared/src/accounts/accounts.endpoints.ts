import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  AccountProfileSchema,
  DeletionRequestBodySchema,
  DeletionRequestResponseSchema,
  RevokeOthersResponseSchema,
  SessionListSchema,
  UpdateProfileBodySchema,
  EmailChangeBodySchema,
  EmailChangeResponseSchema,
} from './account.schemas.ts';
import { ForgotPasswordBodySchema, StatusMessageSchema } from './forgot-password.schemas.ts';
import { SchoolSiteSearchQuerySchema, SchoolSiteSearchResponseSchema } from './registration.schemas.ts';
import {
  ConfirmEmailBodySchema,
  ConfirmEmailResponseSchema,
  ConfirmPhoneBodySchema,
  PhoneVerificationIdSchema,
  PhoneVerificationStartedSchema,
  PhoneVerificationStatusSchema,
  ResendEmailVerificationBodySchema,
  StartAccountPhoneVerificationBodySchema,
  StartPhoneVerificationBodySchema,
} from './verification.schemas.ts';

/**
 * Contracts of the accounts API (issue 4). The registration itself takes a new password, so its
 * contract lives with the password policy (`registration.endpoints.ts`, entry `accounts/password`).
 *
 * Permissions: the anonymous steps are `'public'`. The endpoints of the signed-in user's own account
 * (profile, phone, export, deletion, sessions) are `'signed-in'`: every role may use them, before the
 * portal conditions are met (they are how a registration is completed), but not while a password
 * change is pending.
 */

const PhoneVerificationParams = z.object({ verificationId: PhoneVerificationIdSchema });

export const searchSchoolSiteOptions = defineEndpoint({
  method: 'GET',
  path: '/api/school-sites/search',
  permission: 'public',
  tag: 'accounts',
  summary: 'Cerca un plesso per nome, comune o codice meccanografico',
  query: SchoolSiteSearchQuerySchema,
  response: SchoolSiteSearchResponseSchema,
});

export const confirmEmailVerification = defineEndpoint({
  method: 'POST',
  path: '/api/email-verifications/confirm',
  permission: 'public',
  tag: 'accounts',
  summary: 'Conferma l’indirizzo e-mail con il token del collegamento',
  body: ConfirmEmailBodySchema,
  response: ConfirmEmailResponseSchema,
});

export const resendEmailVerification = defineEndpoint({
  method: 'POST',
  path: '/api/email-verifications/resend',
  permission: 'public',
  tag: 'accounts',
  summary: 'Invia di nuovo il collegamento di verifica (utente connesso, oppure e-mail indicata)',
  body: ResendEmailVerificationBodySchema,
  response: StatusMessageSchema,
  status: 202,
});

export const createPhoneVerification = defineEndpoint({
  method: 'POST',
  path: '/api/phone-verifications',
  permission: 'public',
  tag: 'accounts',
  summary: 'Invia un codice SMS a un numero (es. prima dell’iscrizione della scuola)',
  body: StartPhoneVerificationBodySchema,
  response: PhoneVerificationStartedSchema,
  status: 201,
});

export const getPhoneVerification = defineEndpoint({
  method: 'GET',
  path: '/api/phone-verifications/:verificationId',
  permission: 'public',
  tag: 'accounts',
  summary: 'Stato di una verifica (guardia must-have-verified-phone-on-query-param)',
  params: PhoneVerificationParams,
  response: PhoneVerificationStatusSchema,
});

export const resendPhoneVerificationCode = defineEndpoint({
  method: 'POST',
  path: '/api/phone-verifications/:verificationId/resend',
  permission: 'public',
  tag: 'accounts',
  summary: 'Nuovo codice per la stessa verifica',
  params: PhoneVerificationParams,
  response: PhoneVerificationStartedSchema,
});

export const confirmPhoneVerification = defineEndpoint({
  method: 'POST',
  path: '/api/phone-verifications/:verificationId/confirm',
  permission: 'public',
  tag: 'accounts',
  summary: 'Conferma il codice ricevuto via SMS',
  params: PhoneVerificationParams,
  body: ConfirmPhoneBodySchema,
  response: PhoneVerificationStatusSchema,
});

export const createAccountPhoneVerification = defineEndpoint({
  method: 'POST',
  path: '/api/account/phone-verifications',
  permission: 'signed-in',
  tag: 'accounts',
  summary: 'Imposta e verifica il cellulare dell’utente connesso',
  body: StartAccountPhoneVerificationBodySchema,
  response: PhoneVerificationStartedSchema,
  status: 201,
});

export const getAccountProfile = defineEndpoint({
  method: 'GET',
  path: '/api/account/profile',
  permission: 'signed-in',
  tag: 'accounts',
  summary: 'Il profilo dell’utente e cosa manca per completare la registrazione',
  response: AccountProfileSchema,
});

export const requestEmailChange = defineEndpoint({
  method: 'POST',
  path: '/api/account/email-change',
  permission: 'signed-in',
  tag: 'accounts',
  summary:
    'Chiede di cambiare il proprio indirizzo e-mail: un collegamento al nuovo indirizzo conferma il cambio',
  body: EmailChangeBodySchema,
  response: EmailChangeResponseSchema,
});

export const updateAccountProfile = defineEndpoint({
  method: 'PATCH',
  path: '/api/account/profile',
  permission: 'signed-in',
  tag: 'accounts',
  summary: 'Completa i dati mancanti (codice fiscale, plesso, materie)',
  body: UpdateProfileBodySchema,
  response: AccountProfileSchema,
});

/** Everything stored about the user (GDPR art. 15/20): a JSON attachment; its sections are free-form. */
export const AccountExportSchema = z.looseObject({ exportedAt: z.string() });

export const exportAccount = defineEndpoint({
  method: 'GET',
  path: '/api/account/export',
  permission: 'signed-in',
  tag: 'accounts',
  summary: 'Scarica tutti i tuoi dati (JSON)',
  response: AccountExportSchema,
});

export const requestAccountDeletion = defineEndpoint({
  method: 'POST',
  path: '/api/account/deletion-request',
  permission: 'signed-in',
  tag: 'accounts',
  summary: 'Chiede la cancellazione dell’account (completata dallo staff)',
  body: DeletionRequestBodySchema,
  response: DeletionRequestResponseSchema,
  status: 202,
});

export const listSessions = defineEndpoint({
  method: 'GET',
  path: '/api/auth/sessions',
  permission: 'signed-in',
  tag: 'auth',
  summary: 'Le sessioni attive dell’utente',
  response: SessionListSchema,
});

export const deleteSession = defineEndpoint({
  method: 'DELETE',
  path: '/api/auth/sessions/:sessionId',
  permission: 'signed-in',
  tag: 'auth',
  summary: 'Chiude una sessione',
  params: z.object({ sessionId: IdParamSchema }),
  response: z.undefined(),
  status: 204,
});

export const revokeOtherSessions = defineEndpoint({
  method: 'POST',
  path: '/api/auth/sessions/revoke-others',
  permission: 'signed-in',
  tag: 'auth',
  summary: 'Chiude tutte le altre sessioni',
  response: RevokeOthersResponseSchema,
});

/** The reset and change of a password take a new one (zxcvbn): `password.endpoints.ts`. */
export const forgotPassword = defineEndpoint({
  method: 'POST',
  path: '/api/auth/forgot-password',
  permission: 'public',
  tag: 'auth',
  summary: 'Chiede il collegamento per una nuova password (stessa risposta per ogni indirizzo)',
  body: ForgotPasswordBodySchema,
  response: StatusMessageSchema,
  status: 202,
});
