import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TokenResponseSchema } from '@portale/shared/auth';
import { AUTH_COOKIES, AUTH_PATHS, ERROR_MESSAGES } from '@portale/shared/http';
import { accessTokens, auditLog, authSessions } from '../src/db/schema/index.ts';
import { REFRESH_REUSE_GRACE_MS } from '../src/modules/auth/tokens.repository.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp, setCookieLine } from './http-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function signedIn(email = 'superadmin@demo.test') {
  const c = new ApiClient(t, nextIp());
  expect((await c.login(email)).statusCode).toBe(200);
  return c;
}

describe('POST /api/auth/refresh', () => {
  it('rotates the refresh cookie and issues a new access token that works', async () => {
    const c = await signedIn();
    const firstToken = c.token;
    const firstRefresh = c.refreshCookie();
    const res = await c.refresh();
    expect(res.statusCode).toBe(200);
    TokenResponseSchema.parse(res.json());
    expect(c.token).not.toBe(firstToken);
    expect(c.refreshCookie()).toBeDefined();
    expect(c.refreshCookie()).not.toBe(firstRefresh);
    expect(setCookieLine(res, AUTH_COOKIES.refreshToken)).toMatch(/HttpOnly/i);
    expect((await c.get(AUTH_PATHS.me)).json().user.email).toBe('superadmin@demo.test');
  });

  // Issue 32: the refresh replaces the access token issued with the refresh token it used.
  it('ends the access token a refresh replaced', async () => {
    const c = await signedIn();
    const firstToken = c.token!;
    await c.refresh();
    const res = await t.app.inject({
      method: 'GET',
      url: AUTH_PATHS.me,
      headers: { authorization: `Bearer ${firstToken}` },
    });
    expect(res.statusCode).toBe(401);
    expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(200);
  });

  it('revokes the whole family when an already used refresh token comes back', async () => {
    const c = await signedIn('cromos@demo.test');
    const stolen = c.refreshCookie()!;
    const firstToken = c.token!;
    expect((await c.refresh()).statusCode).toBe(200);
    const rotatedToken = c.token!;
    const rotatedRefresh = c.refreshCookie()!;

    const attacker = new ApiClient(t, nextIp());
    for (const { name, value, path } of c.jar.values()) attacker.setCookie(name, value, path);
    attacker.setCookie(AUTH_COOKIES.refreshToken, stolen, '/');
    t.clock.advance(REFRESH_REUSE_GRACE_MS + 1000); // past the window that lets concurrent refreshes through
    const reuse = await attacker.refresh();
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({
      statusCode: 401,
      code: 'unauthenticated',
      message: ERROR_MESSAGES.unauthenticated,
    });
    expect(attacker.refreshCookie()).toBeUndefined();

    for (const token of [firstToken, rotatedToken]) {
      const me = await t.app.inject({
        method: 'GET',
        url: AUTH_PATHS.me,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.statusCode).toBe(401);
    }
    expect(c.refreshCookie()).toBe(rotatedRefresh);
    expect((await c.refresh()).statusCode).toBe(401);

    const [token] = await t.database.db
      .select()
      .from(accessTokens)
      .where(eq(accessTokens.id, Number(firstToken.split('|')[0])));
    const [session] = await t.database.db
      .select()
      .from(authSessions)
      .where(eq(authSessions.id, token!.sessionId));
    expect(session!.revokedAt).not.toBeNull();
    expect(session!.revokedReason).toBe('refresh_token_reuse');
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.refresh.reuse'));
    expect(audit.map((row) => row.entityId)).toContain(String(session!.id));
  });

  it('answers 401 without a refresh cookie', async () => {
    const c = new ApiClient(t, nextIp());
    await c.csrf();
    const res = await c.refresh();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('answers 401 for an unknown refresh token and clears the cookie', async () => {
    const c = new ApiClient(t, nextIp());
    await c.csrf();
    c.setCookie(AUTH_COOKIES.refreshToken, 'x'.repeat(43), '/');
    const res = await c.refresh();
    expect(res.statusCode).toBe(401);
    expect(c.refreshCookie()).toBeUndefined();
  });

  it('answers 401 once the family has reached its absolute lifetime', async () => {
    const c = await signedIn('sylla@demo.test');
    t.clock.advance(t.env.REFRESH_TOKEN_TTL * 1000 + 1000);
    try {
      expect((await c.refresh()).statusCode).toBe(401);
      expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(401);
    } finally {
      t.clock.advance(-(t.env.REFRESH_TOKEN_TTL * 1000 + 1000));
    }
  });

  it('never lets a refreshed access token outlive the absolute lifetime of its family', async () => {
    const c = await signedIn('insegnante@demo.test');
    const day = 24 * 3600 * 1000;
    const lifetime = t.env.REFRESH_TOKEN_TTL * 1000;
    t.clock.advance(lifetime - day);
    try {
      const res = await c.refresh();
      expect(res.statusCode).toBe(200);
      expect(res.json().expires_in).toBeLessThanOrEqual(day / 1000);
      t.clock.advance(day + 1000);
      expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(401);
    } finally {
      t.clock.advance(-lifetime - 1000);
    }
  });

  it('restores a session on a fresh page load: csrf cookie, then refresh, then me', async () => {
    const c = await signedIn('rilevatore@demo.test');
    c.token = undefined; // the access token lives in memory only
    expect((await c.csrf()).statusCode).toBe(204);
    const res = await c.refresh();
    expect(res.statusCode).toBe(200);
    expect((await c.get(AUTH_PATHS.me)).json().user.email).toBe('rilevatore@demo.test');
  });

  it('lets a user holding a leftover refresh cookie log in again after a fresh csrf cookie', async () => {
    const c = await signedIn('cromos@demo.test');
    c.token = undefined;
    expect((await c.csrf()).statusCode).toBe(204);
    expect((await c.login('cromos@demo.test')).statusCode).toBe(200);
  });

  it('sends the refresh cookie with path / so that /sanctum/csrf-cookie sees it', async () => {
    const c = new ApiClient(t, nextIp());
    await c.csrf();
    const res = await c.post(AUTH_PATHS.login, {
      email: 'rilevatore@demo.test',
      password: 'Portale.Demo.2026',
    });
    expect(setCookieLine(res, AUTH_COOKIES.refreshToken)).toMatch(/; Path=\/(;|$)/);
  });

  it('needs X-XSRF-TOKEN', async () => {
    const c = await signedIn();
    const res = await c.post(AUTH_PATHS.refresh, undefined, { xsrf: false, bearer: false });
    expect(res.statusCode).toBe(419);
  });
});

describe('POST /api/auth/logout', () => {
  it('answers 200, then the bearer and the refresh token are refused', async () => {
    const c = await signedIn('dirigente@demo.test');
    const token = c.token!;
    const refresh = c.refreshCookie()!;
    const res = await c.post(AUTH_PATHS.logout);
    expect(res.statusCode).toBe(200);
    // A password session has no identity provider to leave (SPID single logout: spid-logout.routes.test.ts).
    expect(res.json()).toEqual({ providerLogoutUrl: null });
    expect(c.refreshCookie()).toBeUndefined();
    expect(setCookieLine(res, AUTH_COOKIES.refreshToken)).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);

    const me = await t.app.inject({
      method: 'GET',
      url: AUTH_PATHS.me,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(401);
    c.token = undefined;
    c.setCookie(AUTH_COOKIES.refreshToken, refresh, '/');
    await c.csrf();
    expect((await c.refresh()).statusCode).toBe(401);
  });

  it('revokes the session from the refresh cookie alone', async () => {
    const c = await signedIn('referente@demo.test');
    const token = c.token!;
    c.token = undefined;
    expect((await c.post(AUTH_PATHS.logout)).statusCode).toBe(200);
    const me = await t.app.inject({
      method: 'GET',
      url: AUTH_PATHS.me,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(401);
  });

  it("asks the browser to clear the API origin's cache and storage, with or without a session", async () => {
    const c = await signedIn('insegnante@demo.test');
    const res = await c.post(AUTH_PATHS.logout);
    expect(res.statusCode).toBe(200);
    expect(res.headers['clear-site-data']).toBe('"cache", "storage"');
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect((await guest.post(AUTH_PATHS.logout)).headers['clear-site-data']).toBe('"cache", "storage"');
    expect((await guest.get(AUTH_PATHS.me)).headers['clear-site-data']).toBeUndefined();
  });

  it('answers 200 without any session, and twice in a row', async () => {
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect((await guest.post(AUTH_PATHS.logout)).statusCode).toBe(200);
    const c = await signedIn('insegnante@demo.test');
    expect((await c.post(AUTH_PATHS.logout)).statusCode).toBe(200);
    expect((await c.post(AUTH_PATHS.logout)).statusCode).toBe(200);
  });

  it('leaves the other sessions of the same user alive', async () => {
    const laptop = await signedIn('sylla@demo.test');
    const phone = await signedIn('sylla@demo.test');
    expect((await laptop.post(AUTH_PATHS.logout)).statusCode).toBe(200);
    expect((await phone.get(AUTH_PATHS.me)).statusCode).toBe(200);
  });
});
