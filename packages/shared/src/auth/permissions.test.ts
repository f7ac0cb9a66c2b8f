import { describe, expect, it } from 'vitest';
import { getPage, type PageId } from '../pages/routes.ts';
import { satisfiesRule } from '../pages/access.ts';
import { can, canSome, ROLE_GRANTS, type PermissionCheck } from './permissions.ts';
import { PERMISSIONS, ROLES } from './roles.ts';

const subject = (roles: string[], permissions: string[] = [], id = 7) => ({
  id,
  roles,
  permissions,
  scope: [...roles, ...permissions],
});

/** Every role alone, and the direct permission alone: the subjects of seed-spec §6. */
const SUBJECTS = [...ROLES.map((r) => subject([r])), ...PERMISSIONS.map((p) => subject([], [p]))];

describe('can', () => {
  it('answers no for a guest and for a grant nobody holds', () => {
    expect(can(null, 'read:institute')).toBe(false);
    expect(can(subject(['teacher']), 'read:institute')).toBe(false);
  });

  it('an :own grant allows only a record the subject owns, and never without the record', () => {
    const principal = subject(['school.principal'], [], 42);
    expect(can(principal, 'read:institute')).toBe(false);
    expect(can(principal, 'read:institute', { ownerUserIds: [41, 42] })).toBe(true);
    expect(can(principal, 'read:institute', { ownerUserIds: [41, null] })).toBe(false);
    expect(canSome(principal, 'read:institute')).toBe(true);
    expect(can(principal, 'update:institute', { ownerUserIds: [42] })).toBe(false);
  });

  it('an :any grant allows every record', () => {
    expect(can(subject(['sylla']), 'update:institute', { ownerUserIds: [1] })).toBe(true);
  });

  it('user.index reads users and the audit and changes nothing', () => {
    const reader = subject([], ['user.index']);
    expect(can(reader, 'read:user')).toBe(true);
    expect(can(reader, 'read:audit')).toBe(true);
    for (const check of [
      'manage:user',
      'update:user',
      'create:user',
      'update:institute',
      'read:institute',
    ] as PermissionCheck[]) {
      expect(can(reader, check), check).toBe(false);
    }
  });

  it('names only known roles', () => {
    expect(Object.keys(ROLE_GRANTS).sort()).toEqual([...ROLES].sort());
  });
});

describe('the seed page table agrees with the grants (one source of truth, checked)', () => {
  const pairs: [PageId, PermissionCheck][] = [
    ['portal.institutes', 'read:institute'],
    ['portal.institute', 'read:institute'],
    ['portal.sites', 'read:school-site'],
    ['portal.site', 'read:school-site'],
    ['portal.teachers', 'read:teacher'],
    ['portal.users', 'read:user'],
    ['portal.detectors', 'read:detector'],
  ];
  for (const [pageId, check] of pairs) {
    it(`${pageId} ⇔ ${check}:any`, () => {
      const page = getPage(pageId);
      for (const s of SUBJECTS) {
        expect(can(s, check), `${s.roles.join()}${s.permissions.join()}`).toBe(satisfiesRule(s, page.access));
      }
    });
  }
});
