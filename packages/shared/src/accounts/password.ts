// The password policy (zxcvbn) and the schemas that take a new password; see index.ts.
export * from './password-policy.ts';
export * from './password.schemas.ts';
export * from './registration-body.schemas.ts';
export * from './registration.endpoints.ts';
export * from './password.endpoints.ts';
