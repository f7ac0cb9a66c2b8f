import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AUTH_COOKIES, AUTH_PATHS } from '@portale/shared/http';
import { accessTokens, auditLog, authSessions } from '../src/db/schema/index.ts';
import { REFRESH_REUSE_GRACE_MS } from '../src/modules/auth/tokens.repository.ts';
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

/** A second browser tab: the same cookies (refresh and XSRF), its own access token in memory. */
function tabOf(c: ApiClient): ApiClient {
  const tab = new ApiClient(t, c.remoteAddress);
  for (const { name, value, path } of c.jar.values()) tab.setCookie(name, value, path);
  return tab;
}

const sessionOf = async (bearer: string) =>
  (
    await t.database.db
      .select()
      .from(accessTokens)
      .where(eq(accessTokens.id, Number(bearer.split('|')[0])))
  )[0]!.sessionId;
const session = async (id: number) =>
  (await t.database.db.select().from(authSessions).where(eq(authSessions.id, id)))[0]!;
const me = (bearer: string) =>
  t.app.inject({ method: 'GET', url: AUTH_PATHS.me, headers: { authorization: `Bearer ${bearer}` } });

describe('two refreshes with the same refresh cookie at the same moment', () => {
  it('both succeed with working tokens of the same family, and nobody is logged out', async () => {
    const c = await signedIn('insegnante@demo.test');
    const sessionId = await sessionOf(c.token!);
    const other = tabOf(c);
    const [a, b] = await Promise.all([c.refresh(), other.refresh()]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(c.token).not.toBe(other.token);
    expect(c.refreshCookie()).toBeDefined();
    expect(other.refreshCookie()).toBeDefined();
    expect(c.refreshCookie()).not.toBe(other.refreshCookie());
    for (const client of [c, other]) {
      expect(await sessionOf(client.token!)).toBe(sessionId);
      expect((await client.get(AUTH_PATHS.me)).statusCode).toBe(200);
    }
    expect((await session(sessionId)).revokedAt).toBeNull();

    // Each tab goes on with its own successor, long after the window.
    t.clock.advance(REFRESH_REUSE_GRACE_MS * 6);
    expect((await c.refresh()).statusCode).toBe(200);
    expect((await other.refresh()).statusCode).toBe(200);
    expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(200);
    expect((await other.get(AUTH_PATHS.me)).statusCode).toBe(200);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.refresh.concurrent'));
    expect(audit.map((row) => row.entityId)).toContain(String(sessionId));
  });

  it('a retry a few seconds later (the first answer was lost) gets a fresh pair of the same family', async () => {
    const c = await signedIn('rilevatore@demo.test');
    const sessionId = await sessionOf(c.token!);
    const lost = tabOf(c);
    expect((await lost.refresh()).statusCode).toBe(200); // its answer never reached the browser
    t.clock.advance(REFRESH_REUSE_GRACE_MS - 2000);
    const retry = await c.refresh();
    expect(retry.statusCode).toBe(200);
    expect(await sessionOf(c.token!)).toBe(sessionId);
    expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(200);
    expect((await session(sessionId)).revokedAt).toBeNull();
  });
});

describe('reuse after the grace window is still theft', () => {
  it('revokes the whole family, including the tokens handed out in the window', async () => {
    const c = await signedIn('insegnante@demo.test');
    const stolen = c.refreshCookie()!;
    const sessionId = await sessionOf(c.token!);
    const [a, b] = await Promise.all([c.refresh(), tabOf(c).refresh()]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const concurrentToken = b.json<{ token: string }>().token;

    t.clock.advance(REFRESH_REUSE_GRACE_MS + 1);
    const thief = new ApiClient(t, nextIp());
    for (const { name, value, path } of c.jar.values()) thief.setCookie(name, value, path);
    thief.setCookie(AUTH_COOKIES.refreshToken, stolen, '/');
    expect((await thief.refresh()).statusCode).toBe(401);

    expect((await session(sessionId)).revokedReason).toBe('refresh_token_reuse');
    expect((await me(c.token!)).statusCode).toBe(401);
    expect((await me(concurrentToken)).statusCode).toBe(401);
    expect((await c.refresh()).statusCode).toBe(401);
  });

  it('the window never revives a family that was logged out', async () => {
    const c = await signedIn('referente@demo.test');
    const refresh = c.refreshCookie()!;
    expect((await c.refresh()).statusCode).toBe(200);
    expect((await c.post(AUTH_PATHS.logout)).statusCode).toBe(200);
    const late = new ApiClient(t, c.remoteAddress);
    late.setCookie(AUTH_COOKIES.refreshToken, refresh, '/');
    await late.csrf();
    expect((await late.refresh()).statusCode).toBe(401);
  });
});

describe('a refresh replaces the access token it was issued with (issue 32)', () => {
  it('the old access token stops working at once, on a cached session too; the new one works', async () => {
    const c = await signedIn('sylla@demo.test');
    const old = c.token!;
    // Answered (and cached) before the refresh.
    expect((await me(old)).statusCode).toBe(200);
    expect((await me(old)).statusCode).toBe(200);
    expect((await c.refresh()).statusCode).toBe(200);
    expect(c.token).not.toBe(old);
    const refused = await me(old);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'unauthenticated' });
    expect((await me(c.token!)).statusCode).toBe(200);
    // And the next refresh replaces that one in turn.
    const second = c.token!;
    expect((await c.refresh()).statusCode).toBe(200);
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(c.token!)).statusCode).toBe(200);
  });

  it('two refreshes at once (the grace window) keep both new tokens working; only the replaced one ends', async () => {
    const c = await signedIn('cromos@demo.test');
    const old = c.token!;
    const other = tabOf(c);
    const [a, b] = await Promise.all([c.refresh(), other.refresh()]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((await me(old)).statusCode).toBe(401);
    expect((await me(c.token!)).statusCode).toBe(200);
    expect((await me(other.token!)).statusCode).toBe(200);
  });
});
