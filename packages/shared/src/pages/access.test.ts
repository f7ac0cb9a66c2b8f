import { describe, expect, it } from 'vitest';
import { ACCESS_MESSAGES, evaluateAccess, satisfiesRule } from './access.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { REDIRECTS, getPage, type PageDef } from './routes.ts';
import type { GuardName } from './guards.ts';

type AccessUser = Pick<
  SessionUser,
  'scope' | 'mustChangePassword' | 'emailVerified' | 'phoneVerified' | 'mustSignPrincipalDocument'
>;

const user = (overrides: Partial<AccessUser> = {}): AccessUser => ({
  scope: [],
  mustChangePassword: false,
  emailVerified: true,
  phoneVerified: true,
  mustSignPrincipalDocument: false,
  ...overrides,
});
const page = (guards: string[], access?: PageDef['access']) => ({ guards: guards as GuardName[], access });

describe('evaluateAccess', () => {
  it('allows a page without guards to anyone', () => {
    expect(evaluateAccess(page([]), null)).toEqual({ kind: 'allow' });
    expect(evaluateAccess(page([]), user())).toEqual({ kind: 'allow' });
  });

  it('auth: sends a guest to login keeping the return path', () => {
    expect(evaluateAccess(page(['auth']), null)).toEqual({
      kind: 'redirect',
      to: REDIRECTS.login,
      reason: 'unauthenticated',
      keepReturnPath: true,
    });
    expect(evaluateAccess(page(['auth']), user())).toEqual({ kind: 'allow' });
  });

  it('unauth: sends a signed-in user to /portale', () => {
    expect(evaluateAccess(page(['unauth']), user())).toMatchObject({
      kind: 'redirect',
      to: '/portale',
      reason: 'already-authenticated',
    });
    expect(evaluateAccess(page(['unauth']), null)).toEqual({ kind: 'allow' });
  });

  it('update-password: sends a user who must change the password to the change form', () => {
    expect(
      evaluateAccess(page(['auth', 'update-password']), user({ mustChangePassword: true })),
    ).toMatchObject({
      kind: 'redirect',
      to: REDIRECTS.changePassword,
      reason: 'password-change-required',
      keepReturnPath: false,
    });
    expect(evaluateAccess(page(['auth', 'update-password']), user())).toEqual({ kind: 'allow' });
  });

  it('has-verified-all-contacts: needs both e-mail and phone verified', () => {
    const guarded = page(['auth', 'has-verified-all-contacts']);
    for (const pending of [{ emailVerified: false }, { phoneVerified: false }]) {
      expect(evaluateAccess(guarded, user(pending))).toMatchObject({
        kind: 'redirect',
        to: REDIRECTS.completeRegistration,
        reason: 'contacts-unverified',
      });
    }
    expect(evaluateAccess(guarded, user())).toEqual({ kind: 'allow' });
  });

  it('sign-principal-document: sends a principal with an unsigned adhesion to the adhesion page', () => {
    expect(
      evaluateAccess(page(['auth', 'sign-principal-document']), user({ mustSignPrincipalDocument: true })),
    ).toMatchObject({
      kind: 'redirect',
      to: REDIRECTS.signPrincipalDocument,
      reason: 'principal-document-unsigned',
    });
  });

  it('has-role-or-permission: forbids a user holding none of the rule, with the Italian message', () => {
    const guarded = page(['auth', 'has-role-or-permission'], {
      roles: ['sylla'],
      permissions: ['user.index'],
    });
    expect(evaluateAccess(guarded, user({ scope: ['detector'] }))).toEqual({
      kind: 'forbidden',
      reason: 'forbidden',
      message: ACCESS_MESSAGES.forbidden,
    });
    expect(evaluateAccess(guarded, user({ scope: ['sylla'] }))).toEqual({ kind: 'allow' });
    expect(evaluateAccess(guarded, user({ scope: ['user.index'] }))).toEqual({ kind: 'allow' });
  });

  it('must-have-verified-phone-on-query-param: is left to the caller and never refuses', () => {
    expect(evaluateAccess(page(['must-have-verified-phone-on-query-param']), null)).toEqual({
      kind: 'allow',
    });
  });

  it('throws on an unknown guard name', () => {
    expect(() => evaluateAccess(page(['auth', 'is-admin']), user())).toThrow(
      "Unknown route middleware: 'is-admin'",
    );
  });

  it('returns the first refusal in guard order', () => {
    const everything = user({
      mustChangePassword: true,
      phoneVerified: false,
      mustSignPrincipalDocument: true,
    });
    expect(evaluateAccess(getPage('portal.home'), everything)).toMatchObject({
      reason: 'password-change-required',
    });
    expect(
      evaluateAccess(getPage('portal.home'), user({ phoneVerified: false, mustSignPrincipalDocument: true })),
    ).toMatchObject({
      reason: 'contacts-unverified',
    });
    expect(evaluateAccess(getPage('portal.users'), null)).toMatchObject({ reason: 'unauthenticated' });
  });

  it('lets a principal with an unsigned adhesion open the adhesion page itself', () => {
    expect(
      evaluateAccess(
        getPage('adhesion'),
        user({ scope: ['school.principal'], mustSignPrincipalDocument: true }),
      ),
    ).toEqual({
      kind: 'allow',
    });
  });
});

describe('satisfiesRule', () => {
  it('is true without a rule, false for a guest with a rule', () => {
    expect(satisfiesRule(null, undefined)).toBe(true);
    expect(satisfiesRule(null, { roles: ['super-admin'], permissions: [] })).toBe(false);
  });

  it('accepts a scope given as a keyed object', () => {
    expect(satisfiesRule({ scope: { cromos: true } } as never, { roles: ['cromos'], permissions: [] })).toBe(
      true,
    );
  });
});
