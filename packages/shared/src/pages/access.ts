import type { AccessRule } from '../auth/roles.ts';
import { hasScope } from '../auth/scope.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { assertGuardName } from './guards.ts';
import { REDIRECTS, type PageDef } from './routes.ts';

/** Italian messages of the guards, shown on the error screen and returned by the API. */
export const ACCESS_MESSAGES = {
  unauthenticated: 'Per continuare devi accedere al portale.',
  forbidden: 'Non hai i permessi necessari per accedere a questa pagina.',
  passwordChangeRequired: 'Prima di continuare devi cambiare la password.',
  contactsUnverified:
    'Prima di continuare devi verificare il tuo indirizzo e-mail e il tuo numero di telefono.',
  principalDocumentUnsigned:
    "Prima di continuare devi firmare il documento di adesione formale dell'istituto.",
} as const;

export type AccessDecision =
  | { kind: 'allow' }
  | { kind: 'redirect'; to: string; reason: AccessReason; keepReturnPath: boolean }
  | { kind: 'forbidden'; reason: AccessReason; message: string };

export type AccessReason =
  | 'unauthenticated'
  | 'already-authenticated'
  | 'password-change-required'
  | 'contacts-unverified'
  | 'principal-document-unsigned'
  | 'forbidden';

type AccessUser = Pick<
  SessionUser,
  'scope' | 'mustChangePassword' | 'emailVerified' | 'phoneVerified' | 'mustSignPrincipalDocument'
>;

/** True when the user holds any role or permission of the rule. */
export function satisfiesRule(
  user: Pick<SessionUser, 'scope'> | null,
  rule: AccessRule | undefined,
): boolean {
  if (!rule) return true;
  if (!user) return false;
  return [...rule.roles, ...rule.permissions].some((name) => hasScope(user.scope, name));
}

/**
 * Applies a page's guards in order and returns the first refusal. The guard
 * `must-have-verified-phone-on-query-param` needs the API and is left to the caller.
 * An unknown guard name throws.
 */
export function evaluateAccess(
  page: Pick<PageDef, 'guards' | 'access'>,
  user: AccessUser | null,
): AccessDecision {
  for (const name of page.guards) {
    switch (assertGuardName(name)) {
      case 'auth':
        if (!user)
          return { kind: 'redirect', to: REDIRECTS.login, reason: 'unauthenticated', keepReturnPath: true };
        break;
      case 'unauth':
        if (user)
          return {
            kind: 'redirect',
            to: REDIRECTS.home,
            reason: 'already-authenticated',
            keepReturnPath: false,
          };
        break;
      case 'update-password':
        if (user?.mustChangePassword) {
          return {
            kind: 'redirect',
            to: REDIRECTS.changePassword,
            reason: 'password-change-required',
            keepReturnPath: false,
          };
        }
        break;
      case 'has-verified-all-contacts':
        if (user && (!user.emailVerified || !user.phoneVerified)) {
          return {
            kind: 'redirect',
            to: REDIRECTS.completeRegistration,
            reason: 'contacts-unverified',
            keepReturnPath: false,
          };
        }
        break;
      case 'sign-principal-document':
        if (user?.mustSignPrincipalDocument) {
          return {
            kind: 'redirect',
            to: REDIRECTS.signPrincipalDocument,
            reason: 'principal-document-unsigned',
            keepReturnPath: false,
          };
        }
        break;
      case 'has-role-or-permission':
        if (!satisfiesRule(user, page.access)) {
          return { kind: 'forbidden', reason: 'forbidden', message: ACCESS_MESSAGES.forbidden };
        }
        break;
      case 'must-have-verified-phone-on-query-param':
        break;
    }
  }
  return { kind: 'allow' };
}
