import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { AUTH_PATHS } from '@portale/shared/http';
import { accessTokens, authSessions, permissions, roles, userPermissions, userRoles, users } from '../src/db/schema/index.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function signedIn(email: string) {
  const c = new ApiClient(t, nextIp());
  expect((await c.login(email)).statusCode).toBe(200);
  return c;
}

/** The SQL statements a request sends to the database. */
async function queriesOf(send: () => Promise<unknown>): Promise<string[]> {
  const queries: string[] = [];
  const stop = t.database.observeQueries((query) => queries.push(query));
  try {
    await send();
  } finally {
    stop();
  }
  return queries;
}

const tokenRow = async (bearer: string) =>
  (await t.database.db.select().from(accessTokens).where(eq(accessTokens.id, Number(bearer.split('|')[0]))))[0]!;
const sessionRow = async (sessionId: number) => (await t.database.db.select().from(authSessions).where(eq(authSessions.id, sessionId)))[0]!;
const userId = async (email: string) => (await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;

describe('authentication costs one database round trip', () => {
  it('an authenticated GET /api/auth/me sends a single statement, also when it records the last use', async () => {
    const c = await signedIn('insegnante@demo.test');
    t.clock.advance(61_000); // the last use is stale: this request records it, in the same statement
    const touching = await queriesOf(async () => expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(200));
    expect(touching).toHaveLength(1);
    const fresh = await queriesOf(async () => expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(200));
    expect(fresh).toHaveLength(1);
  });

  it('returns the whole session user: roles, direct permissions and the principal flags', async () => {
    const principal = await signedIn('dirigente-senza-firma@demo.test');
    expect((await principal.get(AUTH_PATHS.me)).json().user).toMatchObject({
      email: 'dirigente-senza-firma@demo.test',
      roles: ['school.principal'],
      permissions: [],
      scope: ['school.principal'],
      emailVerified: true,
      phoneVerified: true,
      mustChangePassword: false,
      mustSignPrincipalDocument: true,
    });
    const signed = await signedIn('dirigente@demo.test');
    expect((await signed.get(AUTH_PATHS.me)).json().user).toMatchObject({ mustSignPrincipalDocument: false });
    const direct = await signedIn('utenti@demo.test');
    const user = (await direct.get(AUTH_PATHS.me)).json().user;
    expect(user).toMatchObject({ roles: [], permissions: ['user.index'], scope: ['user.index'] });
    expect(user.lastLoginAt).toBe(t.clock.now().toISOString());
  });

  it('records the last use at most once a minute, for the token and its session', async () => {
    const c = await signedIn('rilevatore@demo.test');
    await c.get(AUTH_PATHS.me);
    const first = await tokenRow(c.token!);
    expect(first.lastUsedAt?.toISOString()).toBe(t.clock.now().toISOString());
    t.clock.advance(30_000);
    await c.get(AUTH_PATHS.me);
    expect((await tokenRow(c.token!)).lastUsedAt).toEqual(first.lastUsedAt);
    t.clock.advance(31_000);
    await c.get(AUTH_PATHS.me);
    expect((await tokenRow(c.token!)).lastUsedAt?.toISOString()).toBe(t.clock.now().toISOString());
    expect((await sessionRow(first.sessionId)).lastUsedAt.toISOString()).toBe(t.clock.now().toISOString());
  });

  it('a wrong secret for a real token id is refused and records nothing', async () => {
    const c = await signedIn('referente@demo.test');
    const before = await tokenRow(c.token!);
    const sessionBefore = await sessionRow(before.sessionId);
    t.clock.advance(120_000);
    const forged = `${c.token!.split('|')[0]}|${'A'.repeat(43)}`;
    const res = await t.app.inject({ method: 'GET', url: AUTH_PATHS.me, headers: { authorization: `Bearer ${forged}` } });
    expect(res.statusCode).toBe(401);
    expect((await tokenRow(c.token!)).lastUsedAt).toEqual(before.lastUsedAt);
    expect((await sessionRow(before.sessionId)).lastUsedAt).toEqual(sessionBefore.lastUsedAt);
  });
});

describe('no stale authentication: every change applies to the next request', () => {
  it('logout', async () => {
    const c = await signedIn('insegnante@demo.test');
    const token = c.token!;
    expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(200);
    expect((await c.post(AUTH_PATHS.logout)).statusCode).toBe(204);
    const me = await t.app.inject({ method: 'GET', url: AUTH_PATHS.me, headers: { authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(401);
  });

  it('suspension, and reactivation', async () => {
    const c = await signedIn('da-verificare@demo.test');
    expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(200);
    const id = await userId('da-verificare@demo.test');
    await t.database.db.update(users).set({ status: 'suspended' }).where(eq(users.id, id));
    try {
      expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(401);
    } finally {
      await t.database.db.update(users).set({ status: 'active' }).where(eq(users.id, id));
    }
    expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(200);
  });

  it('a revoked session', async () => {
    const c = await signedIn('sylla@demo.test');
    const { sessionId } = await tokenRow(c.token!);
    await t.database.db.update(authSessions).set({ revokedAt: t.clock.now(), revokedReason: 'admin' }).where(eq(authSessions.id, sessionId));
    expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(401);
  });

  it('a role or a permission taken away or given', async () => {
    const c = await signedIn('insegnante@demo.test');
    const id = await userId('insegnante@demo.test');
    const [teacher] = await t.database.db.select().from(roles).where(eq(roles.name, 'teacher'));
    const [educator] = await t.database.db.select().from(roles).where(eq(roles.name, 'educator'));
    const [userIndex] = await t.database.db.select().from(permissions).where(eq(permissions.name, 'user.index'));
    expect((await c.get(AUTH_PATHS.me)).json().user.roles).toEqual(['teacher']);

    await t.database.db.delete(userRoles).where(and(eq(userRoles.userId, id), eq(userRoles.roleId, teacher!.id)));
    await t.database.db.insert(userRoles).values({ userId: id, roleId: educator!.id });
    await t.database.db.insert(userPermissions).values({ userId: id, permissionId: userIndex!.id });
    const changed = (await c.get(AUTH_PATHS.me)).json().user;
    expect(changed).toMatchObject({ roles: ['educator'], permissions: ['user.index'], scope: ['educator', 'user.index'] });

    await t.database.db.delete(userRoles).where(eq(userRoles.userId, id));
    await t.database.db.delete(userPermissions).where(eq(userPermissions.userId, id));
    await t.database.db.insert(userRoles).values({ userId: id, roleId: teacher!.id });
    expect((await c.get(AUTH_PATHS.me)).json().user).toMatchObject({ roles: ['teacher'], permissions: [] });
  });
});
