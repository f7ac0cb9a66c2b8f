import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  UserActionResultSchema,
  UserCreateSchema,
  UserDetailSchema,
  UserFiltersSchema,
  UserListQuerySchema,
  UserListResponseSchema,
  UserUpdateSchema,
  type UserAction,
} from './users.schemas.ts';

const UserParams = z.object({ userId: IdParamSchema });

export const listUsers = defineEndpoint({
  method: 'GET',
  path: '/api/users',
  permission: 'read:user',
  tag: 'users',
  summary: 'Utenti del portale: ricerca, filtri, ordinamento e pagine',
  query: UserListQuerySchema,
  response: UserListResponseSchema,
});

export const exportUsers = defineEndpoint({
  method: 'GET',
  path: '/api/users/export',
  permission: 'export:user',
  tag: 'users',
  summary: 'Esporta gli utenti filtrati (CSV o XLSX)',
  query: UserFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const getUser = defineEndpoint({
  method: 'GET',
  path: '/api/users/:userId',
  permission: 'read:user',
  tag: 'users',
  summary: "Scheda dell'utente: dati, ruoli, permessi, stato e sicurezza dell'accesso",
  params: UserParams,
  response: UserDetailSchema,
});

export const createUser = defineEndpoint({
  method: 'POST',
  path: '/api/users',
  permission: 'create:user',
  tag: 'users',
  summary: 'Crea un utente con ruoli e permessi; un’e-mail lo invita a scegliere la password',
  body: UserCreateSchema,
  response: UserDetailSchema,
  status: 201,
});

export const updateUser = defineEndpoint({
  method: 'PATCH',
  path: '/api/users/:userId',
  permission: 'update:user',
  tag: 'users',
  summary: "Modifica nome, cognome, ruoli e permessi diretti dell'utente",
  params: UserParams,
  body: UserUpdateSchema,
  response: UserDetailSchema,
});

const action = (segment: string, summary: string) =>
  defineEndpoint({
    method: 'POST',
    path: `/api/users/:userId/${segment}`,
    permission: 'manage:user',
    tag: 'users',
    summary,
    params: UserParams,
    response: UserActionResultSchema,
  });

export const suspendUser = action('suspend', "Sospende l'utente e chiude tutte le sue sessioni");
export const reactivateUser = action('reactivate', 'Riattiva un utente sospeso');
export const unlockUser = action('unlock', "Sblocca l'accesso di un utente bloccato per troppi tentativi");
export const resetUserMfa = action(
  'mfa/reset',
  "Azzera il secondo fattore dell'utente (lo configurerà al prossimo accesso)",
);
export const forceUserPasswordChange = action(
  'force-password-change',
  "Obbliga l'utente a cambiare la password al prossimo accesso",
);
export const resendUserVerification = action(
  'resend-verification',
  "Invia di nuovo all'utente il collegamento di verifica dell'e-mail",
);

/** The action endpoints by the name the web uses. */
export const USER_ACTION_ENDPOINTS = {
  suspend: suspendUser,
  reactivate: reactivateUser,
  unlock: unlockUser,
  'mfa-reset': resetUserMfa,
  'force-password-change': forceUserPasswordChange,
  'resend-verification': resendUserVerification,
} as const satisfies Record<UserAction, unknown>;
