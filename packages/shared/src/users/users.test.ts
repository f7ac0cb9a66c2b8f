import { describe, expect, it } from 'vitest';
import { coversGrants, managesUsers } from './user-admin.ts';
import { UserCreateSchema, UserFiltersSchema, UserUpdateSchema } from './users.schemas.ts';

const who = (roles: string[], permissions: string[] = []) => ({ roles, permissions });

describe('coversGrants (no escalation)', () => {
  it.each([
    [who(['super-admin']), who(['cromos', 'sylla', 'teacher']), true],
    [who(['cromos']), who(['sylla']), true],
    [who(['cromos']), who([], ['user.index']), true],
    [who(['sylla']), who(['cromos']), false],
    // `user.index` manages nobody: a teacher's own grants (answering, access codes) are not its own.
    [who([], ['user.index']), who(['teacher']), false],
    [who([], ['user.index']), who(['sylla']), false],
    [who(['teacher']), who(['school.principal']), false],
    // Record-bound (`:own`) grants: a user manager may create detectors and principals; sylla manages no users.
    [who(['cromos']), who(['detector']), true],
    [who(['cromos']), who(['school.principal', 'institute.first-contact']), true],
    [who(['sylla']), who(['detector']), false],
    // Sylla's duty (deciding substitutions) is delegable by a user manager; a super-admin's templates are not.
    [who(['cromos']), who(['super-admin']), false],
    [who([], ['user.index']), who(['detector']), false],
  ])('%j covers %j: %s', (actor, other, expected) => {
    expect(coversGrants(actor, other)).toBe(expected);
  });
});

describe('managesUsers', () => {
  it('holds for super-admin and cromos only, not for user.index', () => {
    expect(managesUsers(who(['super-admin']))).toBe(true);
    expect(managesUsers(who(['cromos', 'teacher']))).toBe(true);
    expect(managesUsers(who(['sylla'], ['user.index']))).toBe(false);
    expect(managesUsers(who([]))).toBe(false);
  });
});

describe('user schemas', () => {
  it('normalises a new user: trimmed names, lower-case e-mail, roles once in declared order', () => {
    expect(
      UserCreateSchema.parse({
        firstName: '  Anna  Maria ',
        lastName: 'Rossi',
        email: ' Anna@Esempio.IT ',
        roles: ['teacher', 'sylla', 'teacher'],
      }),
    ).toEqual({
      firstName: 'Anna Maria',
      lastName: 'Rossi',
      email: 'anna@esempio.it',
      roles: ['sylla', 'teacher'],
      permissions: [],
    });
  });

  it('needs a role or a permission, and refuses unknown fields', () => {
    const none = UserCreateSchema.safeParse({ firstName: 'A', lastName: 'B', email: 'a@b.it' });
    expect(none.success).toBe(false);
    expect(none.error?.issues[0]).toMatchObject({
      path: ['roles'],
      message: 'Scegli almeno un ruolo o un permesso.',
    });
    // The e-mail and the phone are correctable by staff (decision 041); other fields are refused.
    expect(UserUpdateSchema.parse({ email: ' X@Y.it ' })).toEqual({ email: 'x@y.it' });
    expect(UserUpdateSchema.safeParse({ email: 'non-un-indirizzo' }).success).toBe(false);
    expect(UserUpdateSchema.safeParse({ status: 'attivo' }).success).toBe(false);
    expect(UserUpdateSchema.parse({ permissions: ['user.index'] })).toEqual({ permissions: ['user.index'] });
  });

  it('reads list filters from a query string', () => {
    expect(
      UserFiltersSchema.parse({
        q: '  rossi ',
        role: 'cromos',
        locked: 'true',
        status: '',
        sort: '-lastLoginAt',
      }),
    ).toEqual({
      q: 'rossi',
      role: 'cromos',
      locked: true,
      sort: { column: 'lastLoginAt', direction: 'desc' },
    });
    expect(UserFiltersSchema.safeParse({ role: 'imperatore' }).success).toBe(false);
  });
});
