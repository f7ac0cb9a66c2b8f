import { and, eq, inArray, sql } from 'drizzle-orm';
import { PERMISSIONS, ROLES, type Permission, type Role, type SessionUser } from '@portale/shared/auth';
import type { Db } from '../../db/client.ts';
import {
  institutes,
  permissions,
  rolePermissions,
  roles,
  userPermissions,
  userRoles,
  users,
} from '../../db/schema/index.ts';

const UNSIGNED_STATES = ['nessuna', 'iscritto', 'da_correggere'] as const;

export interface AuthUser extends SessionUser {
  status: 'active' | 'suspended';
}

/** The signed-in user as the API and `GET /api/auth/me` see it; `undefined` when missing. */
export async function findAuthUser(db: Db, userId: number): Promise<AuthUser | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return undefined;
  const roleRows = await db
    .select({ name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, userId));
  const direct = db
    .select({ name: permissions.name })
    .from(userPermissions)
    .innerJoin(permissions, eq(permissions.id, userPermissions.permissionId))
    .where(eq(userPermissions.userId, userId));
  const viaRoles = db
    .select({ name: permissions.name })
    .from(userRoles)
    .innerJoin(rolePermissions, eq(rolePermissions.roleId, userRoles.roleId))
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(userRoles.userId, userId));
  const permissionRows = [...(await direct), ...(await viaRoles)];
  const roleNames = roleRows.map((r) => r.name).filter((n): n is Role => (ROLES as readonly string[]).includes(n));
  const permissionNames = [...new Set(permissionRows.map((p) => p.name))].filter((n): n is Permission =>
    (PERMISSIONS as readonly string[]).includes(n),
  );
  let mustSign = false;
  if (roleNames.includes('school.principal')) {
    const [pending] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(institutes)
      .where(and(eq(institutes.principalUserId, userId), inArray(institutes.adhesionState, [...UNSIGNED_STATES])));
    mustSign = (pending?.count ?? 0) > 0;
  }
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    roles: roleNames,
    permissions: permissionNames,
    scope: [...roleNames, ...permissionNames],
    emailVerified: user.emailVerifiedAt !== null,
    phoneVerified: user.phoneVerifiedAt !== null,
    mustChangePassword: user.mustChangePassword,
    mustSignPrincipalDocument: mustSign,
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    status: user.status,
  };
}
