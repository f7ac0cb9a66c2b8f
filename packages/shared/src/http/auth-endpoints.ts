import { z } from 'zod';
import { LoginResponseSchema } from './login-response.ts';
import { LoginBodySchema, MeResponseSchema, TokenResponseSchema } from '../auth/session-user.ts';
import { defineEndpoint } from './endpoint.ts';

/** Paths of the authentication contract (seed-spec §7). */
export const AUTH_PATHS = {
  csrf: '/sanctum/csrf-cookie',
  login: '/api/auth/login',
  logout: '/api/auth/logout',
  me: '/api/auth/me',
  refresh: '/api/auth/refresh',
} as const;

/** Cookie names and lifetimes of seed-spec §9. */
export const AUTH_COOKIES = {
  prefix: 'auth.',
  strategy: 'auth.strategy',
  tokenExpiration: 'auth._token_expiration.local',
  refreshToken: 'auth._refresh_token.local',
  redirect: 'auth.redirect',
  maxAgeSeconds: 2_592_000,
  defaultStrategy: 'local',
} as const;

// The authentication endpoints (seed-spec §7). Login, refresh, logout and the XSRF cookie are
// 'public': they are how a session starts and ends (refresh is authenticated by its own HttpOnly
// cookie, logout by whatever session the request carries, and answers without one too).

/** Sets the XSRF-TOKEN cookie (also answers HEAD). */
export const authCsrf = defineEndpoint({
  method: 'GET',
  path: AUTH_PATHS.csrf,
  permission: 'public',
  tag: 'auth',
  summary: 'Imposta il cookie XSRF-TOKEN',
  response: z.undefined(),
  status: 204,
});

export const authLogin = defineEndpoint({
  method: 'POST',
  path: AUTH_PATHS.login,
  permission: 'public',
  tag: 'auth',
  summary: 'Accesso con e-mail e password',
  body: LoginBodySchema,
  response: LoginResponseSchema,
  errors: [401],
});

/** Also while a password change is pending: the web needs the user to send them to change it. */
export const authMe = defineEndpoint({
  method: 'GET',
  path: AUTH_PATHS.me,
  permission: 'signed-in-pending-password',
  tag: 'auth',
  summary: "L'utente della sessione",
  response: MeResponseSchema,
});

export const authRefresh = defineEndpoint({
  method: 'POST',
  path: AUTH_PATHS.refresh,
  permission: 'public',
  tag: 'auth',
  summary: 'Rinnova il token (rotazione del refresh token)',
  response: TokenResponseSchema,
  errors: [401],
});

/**
 * The logout's answer: a session opened by SPID also ends at the identity provider (SAML single
 * logout, decision 052): the browser goes to `providerLogoutUrl` (our signed LogoutRequest) and comes
 * back to the home page. Null for any other session, or without one.
 */
export const LogoutResultSchema = z.object({ providerLogoutUrl: z.string().nullable() });
export type LogoutResult = z.infer<typeof LogoutResultSchema>;

export const authLogout = defineEndpoint({
  method: 'POST',
  path: AUTH_PATHS.logout,
  permission: 'public',
  tag: 'auth',
  summary:
    'Esci: revoca la sessione e cancella i cookie; per una sessione SPID, l’indirizzo dell’uscita dal gestore',
  response: LogoutResultSchema,
});
