// The face of modules/accounts: what other modules may import from it (decision 044). Nothing else leaves it.
export { ACCOUNTS_TEMPLATES } from './accounts.templates.ts';
export { mayResendEmailLink, sendEmailVerification } from './email-verification.service.ts';
export { issuePasswordLink } from './password.service.ts';
