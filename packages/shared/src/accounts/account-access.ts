import type { AccessRule } from '../auth/roles.ts';

/** Who may reset another user's second factor (lost device). */
export const MFA_RESET_RULE: AccessRule = { roles: ['super-admin'], permissions: [] };
