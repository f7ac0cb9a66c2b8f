import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AUTH_PATHS } from '@portale/shared/http';
import { accessTokens, authSessions, institutes, schoolSites, users } from '../src/db/schema/index.ts';
import { SESSION_CACHE_TTL_MS } from '../src/plugins/session/session.ts';
import { buildTestApp, queriesOf, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';
import { REFRESH_REUSE_GRACE_MS } from '../src/modules/auth/tokens.repository.ts';

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

const tokenRow = async (bearer: string) =>
  (
    await t.database.db
      .select()
      .from(accessTokens)
      .where(eq(accessTokens.id, Number(bearer.split('|')[0])))
  )[0]!;
const sessionRow = async (sessionId: number) =>
  (await t.database.db.select().from(authSessions).where(eq(authSessions.id, sessionId)))[0]!;
const userId = async (email: string) =>
  (await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;

const me = (bearer: string) =>
  t.app.inject({ method: 'GET', url: AUTH_PATHS.me, headers: { authorization: `Bearer ${bearer}` } });

/** The client's token is in the session cache: a request sends no statement at all. */
async function expectCached(c: ApiClient) {
  const queries = await queriesOf(t.database, async () =>
    expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(200),
  );
  expect(queries).toEqual([]);
}

describe('authentication costs at most one database round trip', () => {
  it('the first request of a token sends a single statement (also when it records the last use), the next ones none', async () => {
    const c = await signedIn('insegnante@demo.test');
    t.clock.advance(61_000); // the last use is stale: this request records it, in the same statement
    const touching = await queriesOf(t.database, async () =>
      expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(200),
    );
    expect(touching).toHaveLength(1);
    await expectCached(c);
    // After the cache's time to live, one statement again.
    t.clock.advance(SESSION_CACHE_TTL_MS);
    const again = await queriesOf(t.database, async () =>
      expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(200),
    );
    expect(again).toHaveLength(1);
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

  it('a wrong secret for a real token id is refused and records nothing, also while the token is cached', async () => {
    const c = await signedIn('referente@demo.test');
    const before = await tokenRow(c.token!);
    const sessionBefore = await sessionRow(before.sessionId);
    t.clock.advance(120_000);
    const forged = `${c.token!.split('|')[0]}|${'A'.repeat(43)}`;
    expect((await me(forged)).statusCode).toBe(401);
    expect((await tokenRow(c.token!)).lastUsedAt).toEqual(before.lastUsedAt);
    expect((await sessionRow(before.sessionId)).lastUsedAt).toEqual(sessionBefore.lastUsedAt);
    await c.get(AUTH_PATHS.me);
    await expectCached(c);
    expect((await me(forged)).statusCode).toBe(401);
  });

  it('a cached token ends exactly when it expires', async () => {
    const c = new ApiClient(t, nextIp());
    const login = await c.login('referente@demo.test');
    const expiresIn = login.json<{ expires_in: number }>().expires_in;
    t.clock.advance((expiresIn - 2) * 1000);
    await c.get(AUTH_PATHS.me);
    await expectCached(c);
    t.clock.advance(2000);
    expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(401);
  });
});

describe('a cached session never outlives a change made through the API', () => {
  // Each test first proves the session is cached (a request sends no statement); the next request
  // after the change is then right only because the change invalidated the cache.
  it('logout', async () => {
    const c = await signedIn('insegnante@demo.test');
    const token = c.token!;
    await c.get(AUTH_PATHS.me);
    await expectCached(c);
    expect((await c.post(AUTH_PATHS.logout)).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('suspension by staff, and reactivation', async () => {
    const admin = await signedIn('superadmin@demo.test');
    const c = await signedIn('da-verificare@demo.test');
    const id = await userId('da-verificare@demo.test');
    await c.get(AUTH_PATHS.me);
    await expectCached(c);
    expect((await admin.post(`/api/users/${id}/suspend`)).statusCode).toBe(200);
    expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(401);
    expect((await admin.post(`/api/users/${id}/reactivate`)).statusCode).toBe(200);
    expect((await (await signedIn('da-verificare@demo.test')).get(AUTH_PATHS.me)).statusCode).toBe(200);
  });

  it('a session revoked from another session of the same user', async () => {
    const other = await signedIn('sylla@demo.test');
    const c = await signedIn('sylla@demo.test');
    const { sessionId } = await tokenRow(other.token!);
    await other.get(AUTH_PATHS.me);
    await expectCached(other);
    expect((await c.send('DELETE', `/api/auth/sessions/${sessionId}`)).statusCode).toBe(204);
    expect((await other.get(AUTH_PATHS.me)).statusCode).toBe(401);
  });

  it('roles and permissions changed by staff', async () => {
    const admin = await signedIn('superadmin@demo.test');
    const c = await signedIn('insegnante@demo.test');
    const id = await userId('insegnante@demo.test');
    expect((await c.get(AUTH_PATHS.me)).json().user.roles).toEqual(['teacher']);
    await expectCached(c);
    const changed = await admin.send('PATCH', `/api/users/${id}`, {
      payload: { roles: ['teacher', 'educator'], permissions: ['user.index'] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await c.get(AUTH_PATHS.me)).json().user).toMatchObject({
      roles: ['teacher', 'educator'],
      permissions: ['user.index'],
    });
    await expectCached(c);
    expect(
      (await admin.send('PATCH', `/api/users/${id}`, { payload: { roles: ['teacher'], permissions: [] } }))
        .statusCode,
    ).toBe(200);
    expect((await c.get(AUTH_PATHS.me)).json().user).toMatchObject({ roles: ['teacher'], permissions: [] });
  });

  it('a password change: the flag clears at once for this session, the other sessions end', async () => {
    const other = await signedIn('cambio-password@demo.test');
    const c = await signedIn('cambio-password@demo.test');
    for (const session of [other, c]) {
      expect((await session.get(AUTH_PATHS.me)).json().user.mustChangePassword).toBe(true);
      await expectCached(session);
    }
    const changed = await c.post('/api/auth/change-password', {
      current_password: 'Portale.Demo.2026',
      password: 'Girasole.Blu.Ottobre-48!',
      password_confirmation: 'Girasole.Blu.Ottobre-48!',
    });
    expect(changed.statusCode, changed.body).toBeLessThan(300);
    expect((await c.get(AUTH_PATHS.me)).json().user.mustChangePassword).toBe(false);
    expect((await other.get(AUTH_PATHS.me)).statusCode).toBe(401);
  });

  it('the reuse of a rotated refresh token ends the session of the token in use', async () => {
    const victim = await signedIn('rilevatore@demo.test');
    const stolen = new ApiClient(t, nextIp());
    for (const { name, value, path } of victim.jar.values()) stolen.setCookie(name, value, path);
    expect((await victim.refresh()).statusCode).toBe(200);
    t.clock.advance(REFRESH_REUSE_GRACE_MS + 1000);
    await victim.get(AUTH_PATHS.me);
    await expectCached(victim);
    expect((await stolen.refresh()).statusCode).toBe(401);
    expect((await victim.get(AUTH_PATHS.me)).statusCode).toBe(401);
  });

  it('a staff edit of a plesso keeps every cached session: it changes nothing a session is made of', async () => {
    const teacher = await signedIn('insegnante@demo.test');
    const staff = await signedIn('sylla@demo.test');
    await teacher.get(AUTH_PATHS.me);
    await staff.get(AUTH_PATHS.me);
    const place = { region: 'Lazio', province: 'RM', municipalityCode: 'H501', municipalityName: 'Roma' };
    const [institute] = await t.database.db
      .insert(institutes)
      .values({
        ministryCode: 'RMIC0CACHE',
        name: 'IC Cache',
        type: 'Istituto comprensivo',
        isStateSchool: true,
        ...place,
      })
      .returning();
    const [site] = await t.database.db
      .insert(schoolSites)
      .values({
        ministryCode: 'RMEE0CACHE',
        instituteId: institute!.id,
        name: 'Plesso Cache',
        schoolLevel: 'primaria',
        typeLabel: 'Scuola primaria',
        ...place,
      })
      .returning();
    const res = await staff.send('PATCH', `/api/school-sites/${site!.id}`, {
      payload: { participating: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectCached(teacher);
    await expectCached(staff);
  });

  it('a lookup in flight when a write is signalled is not kept', async () => {
    const c = await signedIn('dirigente@demo.test');
    const { cache } = t.app.sessions;
    // A request reads the session from the database, a write commits and is signalled, then the
    // request finishes: its (possibly older) answer must not be stored.
    const mark = cache.mark();
    await t.app.sessions.invalidate({ kind: 'all' });
    const tokenId = Number(c.token!.split('|')[0]);
    const stale = { user: { id: 1 } as never, sessionId: 1, tokenId };
    cache.store(mark, 'x', stale, new Date(t.clock.now().getTime() + 60_000), t.clock.now().getTime());
    expect(cache.lookup(tokenId, 'x', t.clock.now().getTime())).toBeUndefined();
  });
});

describe('changes made outside the API (an operator’s SQL)', () => {
  it('are seen once the entry’s time to live has passed', async () => {
    const c = await signedIn('referente@demo.test');
    const id = await userId('referente@demo.test');
    await c.get(AUTH_PATHS.me);
    await expectCached(c);
    await t.database.db.update(users).set({ status: 'suspended' }).where(eq(users.id, id));
    try {
      // Documented bound (decision 021): at most SESSION_CACHE_TTL_MS.
      t.clock.advance(SESSION_CACHE_TTL_MS);
      expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(401);
    } finally {
      await t.database.db.update(users).set({ status: 'active' }).where(eq(users.id, id));
    }
    await t.database.db
      .update(authSessions)
      .set({ revokedAt: t.clock.now(), revokedReason: 'admin' })
      .where(eq(authSessions.id, (await tokenRow(c.token!)).sessionId));
    t.clock.advance(SESSION_CACHE_TTL_MS);
    expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(401);
  });
});
