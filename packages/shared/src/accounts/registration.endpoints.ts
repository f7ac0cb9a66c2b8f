import { defineEndpoint } from '../http/endpoint.ts';
import { RegistrationBodySchema } from './registration-body.schemas.ts';
import { RegistrationAcceptedSchema } from './registration.schemas.ts';

/** The registration takes a new password (zxcvbn policy), so its contract is part of `accounts/password`. */
export const createRegistration = defineEndpoint({
  method: 'POST',
  path: '/api/registrations',
  permission: 'public',
  tag: 'accounts',
  summary:
    'Registrazione di insegnanti, educatori e altri partecipanti (stessa risposta se l’e-mail esiste già)',
  body: RegistrationBodySchema,
  response: RegistrationAcceptedSchema,
  status: 202,
});
