import { sql, type SQL } from 'drizzle-orm';
import { PERMISSIONS, ROLES, type Permission, type Role } from '@portale/shared/auth';
import type { Db } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/session/authentication.ts';

export type { AuthUser };

/**
 * Every field of an AuthUser for the row `u` of `users`, as columns of one SELECT: roles and
 * permissions (direct or through a role) are aggregated in subqueries on their primary keys, and the
 * principal's pending adhesion is an EXISTS. Used by `findAuthUser` and by the bearer-token lookup
 * that authenticates every request, so both read the user the same way in a single statement.
 */
export const AUTH_USER_COLUMNS: SQL = sql`
  u.id::text as user_id,
  u.email,
  u.first_name,
  u.last_name,
  u.status,
  u.email_verified_at is not null as email_verified,
  u.phone_verified_at is not null as phone_verified,
  u.must_change_password,
  to_char(u.last_login_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_login_at,
  coalesce((select json_agg(r.name) from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id), '[]'::json) as roles,
  coalesce(
    (select json_agg(p.name) from permissions p where p.id in (
      select up.permission_id from user_permissions up where up.user_id = u.id
      union
      select rp.permission_id from user_roles ur join role_permissions rp on rp.role_id = ur.role_id where ur.user_id = u.id)),
    '[]'::json) as permissions,
  (exists (select 1 from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id and r.name = 'school.principal')
    and exists (select 1 from institutes i where i.principal_user_id = u.id and i.adhesion_state in ('nessuna', 'iscritto', 'da_correggere'))
  ) as must_sign_principal_document`;

/** A row selected with AUTH_USER_COLUMNS, as both drivers return it. */
export interface AuthUserRow {
  user_id: string | number;
  email: string;
  first_name: string;
  last_name: string;
  status: 'active' | 'suspended';
  email_verified: boolean;
  phone_verified: boolean;
  must_change_password: boolean;
  last_login_at: string | null;
  roles: string[];
  permissions: string[];
  must_sign_principal_document: boolean;
}

const byOrderIn =
  <T extends string>(list: readonly T[]) =>
  (a: T, b: T) =>
    list.indexOf(a) - list.indexOf(b);

/** The AuthUser of a row read with AUTH_USER_COLUMNS; roles and permissions in their declared order. */
export function authUserOf(row: AuthUserRow): AuthUser {
  const roles = row.roles
    .filter((n): n is Role => (ROLES as readonly string[]).includes(n))
    .sort(byOrderIn(ROLES));
  const permissions = [...new Set(row.permissions)]
    .filter((n): n is Permission => (PERMISSIONS as readonly string[]).includes(n))
    .sort(byOrderIn(PERMISSIONS));
  return {
    id: Number(row.user_id),
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    roles,
    permissions,
    scope: [...roles, ...permissions],
    emailVerified: row.email_verified,
    phoneVerified: row.phone_verified,
    mustChangePassword: row.must_change_password,
    mustSignPrincipalDocument: row.must_sign_principal_document,
    lastLoginAt: row.last_login_at,
    status: row.status,
  };
}

/** The signed-in user as the API and `GET /api/auth/me` see it (one query); `undefined` when missing. */
export async function findAuthUser(db: Db, userId: number): Promise<AuthUser | undefined> {
  const result = await db.execute(sql`select ${AUTH_USER_COLUMNS} from users u where u.id = ${userId}`);
  const [row] = (result as unknown as { rows: AuthUserRow[] }).rows;
  return row ? authUserOf(row) : undefined;
}
