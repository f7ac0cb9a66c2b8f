// The second factor of a staff login, without the rest of the accounts module (the session code of
// every page imports it).
export * from './mfa.schemas.ts';
export * from './mfa.endpoints.ts';
