// Account schemas and rules without the password policy. The policy needs the zxcvbn dictionaries
// (about 275 KiB gzip in the browser), so it has its own entry, `@portale/shared/accounts/password`,
// imported only by the pages that take a new password.
export * from './forgot-password.schemas.ts';
export * from './tax-code.ts';
export * from './contacts.ts';
export * from './registration.schemas.ts';
export * from './verification.schemas.ts';
export * from './mfa.ts';
export * from './account.schemas.ts';
export * from './accounts.endpoints.ts';
