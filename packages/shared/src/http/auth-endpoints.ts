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
