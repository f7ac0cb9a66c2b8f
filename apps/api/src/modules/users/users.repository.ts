import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { PERMISSIONS, ROLES, type OwnedResource, type Permission, type Role } from '@portale/shared/auth';
import {
  LOGIN_METHODS,
  type LastLogin,
  type LoginMethodName,
  type UserDetail,
  type UserListQuery,
  type UserStatus,
  type UserSummary,
} from '@portale/shared/users';
import {
  auditLog,
  authSessions,
  loginThrottles,
  mfaFactors,
  permissions,
  roles,
  teacherProfiles,
  userPermissions,
  userRoles,
  users,
} from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import {
  aliased,
  asValue,
  closestFirst,
  countAll,
  listRows,
  listShape,
  orderByOf,
  paginate,
  rawCount,
  rowValue,
  searchCondition,
  shapedCappedCount,
  type Bind,
  type Page,
} from '../../lib/list.ts';
import { accountKey, secondFactorKey } from '../auth/index.ts';

type Filters = Omit<UserListQuery, 'page' | 'pageSize' | 'sort'> & { sort?: UserListQuery['sort'] };

const at = (now: Date, bind: Bind = asValue) => sql`${bind(now.toISOString())}::timestamptz`;

const roleNames = sql<
  string[]
>`coalesce((select json_agg(${roles.name}) from ${userRoles} join ${roles} on ${roles.id} = ${userRoles.roleId} where ${userRoles.userId} = ${users.id}), '[]'::json)`;
const permissionNames = sql<
  string[]
>`coalesce((select json_agg(${permissions.name}) from ${userPermissions} join ${permissions} on ${permissions.id} = ${userPermissions.permissionId} where ${userPermissions.userId} = ${users.id}), '[]'::json)`;
/** The later lock of the password and of the second factor (login-throttle.ts keys). */
const lockedUntilOf = sql`(select max(${loginThrottles.lockedUntil}) from ${loginThrottles} where ${loginThrottles.key} in ('account:' || lower(${users.email}), 'mfa:' || ${users.id}))`;
const lockedAt = (now: Date, bind: Bind = asValue) =>
  sql<boolean>`coalesce(${lockedUntilOf} > ${at(now, bind)}, false)`;
const mfaEnrolled = sql<boolean>`exists (select 1 from ${mfaFactors} where ${mfaFactors.userId} = ${users.id} and ${mfaFactors.enabledAt} is not null)`;

function summaryFields(now: Date, bind: Bind = asValue) {
  return aliased({
    id: users.id,
    email: users.email,
    firstName: users.firstName,
    lastName: users.lastName,
    roles: roleNames,
    permissions: permissionNames,
    status: users.status,
    locked: lockedAt(now, bind),
    mfaEnrolled,
    emailVerified: sql`${users.emailVerifiedAt} is not null`,
    phoneVerified: sql`${users.phoneVerifiedAt} is not null`,
    lastLoginAt: users.lastLoginAt,
    createdAt: users.createdAt,
  });
}

const SORT_COLUMNS = {
  name: sql`lower(${users.lastName} || ' ' || ${users.firstName})`,
  email: users.email,
  status: users.status,
  lastLoginAt: users.lastLoginAt,
  createdAt: users.createdAt,
};

const byDeclaredOrder = <T extends string>(list: readonly T[], values: unknown): T[] => {
  const names = Array.isArray(values)
    ? values.map(String)
    : typeof values === 'string'
      ? (JSON.parse(values) as string[])
      : [];
  return list.filter((name) => names.includes(name));
};

/** A raw row (list page or export cursor) as the shared DTO. */
export function toUserSummary(row: Record<string, unknown>): UserSummary {
  return {
    id: rowValue.int(row.id),
    email: rowValue.text(row.email),
    firstName: rowValue.text(row.firstName),
    lastName: rowValue.text(row.lastName),
    roles: byDeclaredOrder(ROLES, row.roles),
    permissions: byDeclaredOrder(PERMISSIONS, row.permissions),
    status: row.status as UserStatus,
    locked: rowValue.bool(row.locked),
    mfaEnrolled: rowValue.bool(row.mfaEnrolled),
    emailVerified: rowValue.bool(row.emailVerified),
    phoneVerified: rowValue.bool(row.phoneVerified),
    lastLoginAt: rowValue.iso(row.lastLoginAt),
    createdAt: rowValue.iso(row.createdAt)!,
  };
}

/** The filters' condition; `bind` puts each value in (a statement kept by its shape, decisions 028, 059). */
function whereOf(filters: Filters, now: Date, bind: Bind = asValue): SQL | undefined {
  return and(
    searchCondition(users.searchText, filters.q, bind),
    filters.role
      ? sql`exists (select 1 from ${userRoles} join ${roles} on ${roles.id} = ${userRoles.roleId} where ${userRoles.userId} = ${users.id} and ${roles.name} = ${bind(filters.role)})`
      : undefined,
    filters.permission
      ? sql`exists (select 1 from ${userPermissions} join ${permissions} on ${permissions.id} = ${userPermissions.permissionId} where ${userPermissions.userId} = ${users.id} and ${permissions.name} = ${bind(filters.permission)})`
      : undefined,
    filters.status ? eq(users.status, bind(filters.status)) : undefined,
    // One text for both values (the statement is kept by the filters' shape, which names `locked` only).
    filters.locked === undefined ? undefined : sql`${lockedAt(now, bind)} = ${bind(filters.locked)}`,
  );
}

function orderOf(filters: Filters, bind: Bind = asValue): SQL[] {
  if (!filters.sort && filters.q) {
    // Relevance: the exact address first, then the closest names.
    const exact = desc(sql`(lower(${users.email}) = ${bind(filters.q.trim().toLowerCase())})`);
    return [
      exact,
      ...closestFirst(users.searchText, filters.q, bind),
      ...orderByOf({ column: 'name', direction: 'asc' }, SORT_COLUMNS, users.id),
    ];
  }
  return orderByOf(filters.sort ?? { column: 'name', direction: 'asc' }, SORT_COLUMNS, users.id);
}

/** The filtered, sorted query of the list and of its export. */
export function userListQuery(db: DbOrTx, filters: Filters, now: Date, bind: Bind = asValue) {
  return db
    .select(summaryFields(now, bind))
    .from(users)
    .where(whereOf(filters, now, bind))
    .orderBy(...orderOf(filters, bind));
}

export async function countUsers(db: DbOrTx, filters: Filters, now: Date): Promise<number> {
  return rawCount(db, db.select({ n: countAll }).from(users).where(whereOf(filters, now)));
}

/**
 * A list page and its total (exact up to the cap or when asked, otherwise an estimate: decision 033),
 * their statements kept by the filters' shape and the estimate asked beside the count (decision 059,
 * as the teachers' list). The first page has no `offset` (Drizzle leaves out `offset 0`).
 */
export function listUsers(db: DbOrTx, query: UserListQuery, now: Date): Promise<Page<UserSummary>> {
  return paginate(
    async (limit, offset) => {
      const first = offset === 0;
      const rows = await listRows(db, listShape(first ? 'users' : 'users-past-first', query), (bind) => {
        const page = userListQuery(db, query, now, bind).limit(bind(limit));
        return first ? page : page.offset(bind(offset));
      });
      return rows.map(toUserSummary);
    },
    () =>
      shapedCappedCount(
        db,
        listShape('users-total', { ...query, sort: undefined }),
        (bind) =>
          db
            .select({ one: sql`1` })
            .from(users)
            .where(whereOf(query, now, bind)),
        query.exactTotal,
      ),
    query.page,
    query.pageSize,
  );
}

/** A user as a resource of a check (`undefined` when there is none): the user owns their own record. */
export async function findUserResource(db: DbOrTx, userId: number): Promise<OwnedResource | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return row && { ownerUserIds: [row.id] };
}

/**
 * How the user last logged in: the newest `auth.login` audit row (the actor index, newest first) and,
 * for CIE or SPID, the level (`acr`) that login's session was opened with (the audit row names it).
 */
async function findLastLogin(db: DbOrTx, userId: number): Promise<LastLogin | null> {
  const [row] = await db
    .select({
      method: sql<string | null>`${auditLog.after}->>'method'`,
      auditAcr: sql<string | null>`${auditLog.after}->>'acr'`,
      sessionAcr: authSessions.acr,
      at: auditLog.at,
    })
    .from(auditLog)
    .leftJoin(authSessions, sql`${auditLog.entityId} = ${authSessions.id}::text`)
    .where(and(eq(auditLog.actorUserId, userId), eq(auditLog.action, 'auth.login')))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(1);
  const method = row?.method as LoginMethodName | null | undefined;
  if (!row || !method || !LOGIN_METHODS.includes(method)) return null;
  const acr = method === 'cie' || method === 'spid' ? (row.sessionAcr ?? row.auditAcr) : null;
  return { method, acr, at: row.at.toISOString() };
}

/** The user's page: data, roles, direct permissions, status and the state of their login. */
export async function findUserDetail(db: DbOrTx, userId: number, now: Date): Promise<UserDetail | undefined> {
  const [row] = await db
    .select({
      ...summaryFields(now),
      ...aliased({
        phone: users.phone,
        emailVerifiedAt: users.emailVerifiedAt,
        phoneVerifiedAt: users.phoneVerifiedAt,
        mustChangePassword: users.mustChangePassword,
        lockedUntil: lockedUntilOf,
        activeSessions: sql`(select count(*)::int from ${authSessions} where ${authSessions.userId} = ${users.id} and ${authSessions.revokedAt} is null and ${authSessions.expiresAt} > ${at(now)})`,
        teacherProfileId: sql`(select ${teacherProfiles.id} from ${teacherProfiles} where ${teacherProfiles.userId} = ${users.id})`,
        updatedAt: users.updatedAt,
      }),
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return undefined;
  const summary = toUserSummary(row);
  return {
    ...summary,
    phone: rowValue.textOrNull(row.phone),
    emailVerifiedAt: rowValue.iso(row.emailVerifiedAt),
    phoneVerifiedAt: rowValue.iso(row.phoneVerifiedAt),
    mustChangePassword: rowValue.bool(row.mustChangePassword),
    lockedUntil: summary.locked ? rowValue.iso(row.lockedUntil) : null,
    activeSessions: rowValue.int(row.activeSessions),
    lastLogin: await findLastLogin(db, userId),
    teacherProfileId: row.teacherProfileId === null ? null : rowValue.int(row.teacherProfileId),
    updatedAt: rowValue.iso(row.updatedAt)!,
  };
}

/** What the writes of user management read first, with the row locked until the transaction ends. */
export interface UserForUpdate {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  status: UserStatus;
  mustChangePassword: boolean;
  emailVerified: boolean;
  phone: string | null;
  roles: Role[];
  permissions: Permission[];
}

export async function findUserForUpdate(db: DbOrTx, userId: number): Promise<UserForUpdate | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      status: users.status,
      mustChangePassword: users.mustChangePassword,
      emailVerifiedAt: users.emailVerifiedAt,
      phone: users.phone,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!row) return undefined;
  const [roleRows, permissionRows] = await Promise.all([
    db
      .select({ name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, userId)),
    db
      .select({ name: permissions.name })
      .from(userPermissions)
      .innerJoin(permissions, eq(permissions.id, userPermissions.permissionId))
      .where(eq(userPermissions.userId, userId)),
  ]);
  const { emailVerifiedAt, ...rest } = row;
  return {
    ...rest,
    emailVerified: emailVerifiedAt !== null,
    roles: byDeclaredOrder(
      ROLES,
      roleRows.map((r) => r.name),
    ),
    permissions: byDeclaredOrder(
      PERMISSIONS,
      permissionRows.map((p) => p.name),
    ),
  };
}

/** True when another account already uses this address (case-insensitive). */
export async function isEmailTaken(db: DbOrTx, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row !== undefined;
}

export async function insertUser(
  db: DbOrTx,
  input: { email: string; firstName: string; lastName: string; passwordHash: string },
  now: Date,
): Promise<{ id: number; email: string; firstName: string }> {
  const [row] = await db
    .insert(users)
    .values({ ...input, createdAt: now, updatedAt: now })
    .returning({ id: users.id, email: users.email, firstName: users.firstName });
  return row!;
}

/** Replaces the user's roles and direct permissions with these (by name). */
export async function replaceUserAccess(
  db: DbOrTx,
  userId: number,
  access: { roles?: readonly Role[]; permissions?: readonly Permission[] },
) {
  if (access.roles) {
    await db.delete(userRoles).where(eq(userRoles.userId, userId));
    if (access.roles.length) {
      const ids = await db
        .select({ id: roles.id })
        .from(roles)
        .where(inArray(roles.name, [...access.roles]));
      await db.insert(userRoles).values(ids.map((r) => ({ userId, roleId: r.id })));
    }
  }
  if (access.permissions) {
    await db.delete(userPermissions).where(eq(userPermissions.userId, userId));
    if (access.permissions.length) {
      const ids = await db
        .select({ id: permissions.id })
        .from(permissions)
        .where(inArray(permissions.name, [...access.permissions]));
      await db.insert(userPermissions).values(ids.map((p) => ({ userId, permissionId: p.id })));
    }
  }
}

/** A new mobile number: not verified until its owner confirms the SMS code (the portal asks for it). */
export async function changePhone(db: DbOrTx, userId: number, phone: string, now: Date): Promise<void> {
  await db.update(users).set({ phone, phoneVerifiedAt: null, updatedAt: now }).where(eq(users.id, userId));
}

/** A new e-mail address: not verified until its owner opens the link sent to it. */
export async function changeEmail(db: DbOrTx, userId: number, email: string, now: Date): Promise<void> {
  await db.update(users).set({ email, emailVerifiedAt: null, updatedAt: now }).where(eq(users.id, userId));
}

export async function updateUserFields(
  db: DbOrTx,
  userId: number,
  changes: Partial<{ firstName: string; lastName: string; status: UserStatus; mustChangePassword: boolean }>,
  now: Date,
): Promise<void> {
  await db
    .update(users)
    .set({ ...changes, updatedAt: now })
    .where(eq(users.id, userId));
}

/**
 * When the user's login is locked for too many failures (of the password or of the second factor),
 * until when; `null` when it is not.
 */
export async function findLoginLock(
  db: DbOrTx,
  user: { id: number; email: string },
  now: Date,
): Promise<Date | null> {
  const rows = await db
    .select({ until: loginThrottles.lockedUntil })
    .from(loginThrottles)
    .where(inArray(loginThrottles.key, [accountKey(user.email), secondFactorKey(user.id)]));
  const until = rows.map((r) => r.until).filter((d): d is Date => Boolean(d && d > now));
  return until.length ? new Date(Math.max(...until.map((d) => d.getTime()))) : null;
}

/** Removes the user's second factor; false when there was none. */
export async function deleteMfaFactor(db: DbOrTx, userId: number): Promise<boolean> {
  const deleted = await db
    .delete(mfaFactors)
    .where(eq(mfaFactors.userId, userId))
    .returning({ userId: mfaFactors.userId });
  return deleted.length > 0;
}
