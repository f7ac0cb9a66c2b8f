import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { AUTH_PATHS, ERROR_MESSAGES } from '@portale/shared/http';
import { auditLog, loginThrottles } from '../src/db/schema/index.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

let t: TestApp;
beforeAll(async () => {
  // A lower per-IP limit keeps the IP flood test short; every other test uses its own IP.
  t = await buildTestApp({ LOGIN_IP_MAX_FAILURES: '20' });
});
afterAll(() => t.close());

const WRONG = 'Sbagliata.2026';
const SECOND = 1000;

/** Fails `times` logins, waiting out the slow-down before each attempt as a patient attacker would. */
async function failLogins(c: ApiClient, email: string, times: number) {
  for (let i = 0; i < times; i += 1) {
    let res = await c.login(email, WRONG);
    while (res.statusCode === 429) {
      t.clock.advance(Number(res.headers['retry-after']) * SECOND);
      res = await c.login(email, WRONG);
    }
    expect(res.statusCode).toBe(401);
  }
}

describe('login slow-down and lock-out', () => {
  it('slows down after 5 failures with 429 and Retry-After, even for the right password', async () => {
    const c = new ApiClient(t, nextIp());
    await failLogins(c, 'sylla@demo.test', 5);
    const slowed = await c.login('sylla@demo.test');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('1');
    expect(slowed.json()).toEqual({
      statusCode: 429,
      code: 'too_many_attempts',
      message: ERROR_MESSAGES.tooManyAttempts,
    });
    t.clock.advance(SECOND);
    expect((await c.login('sylla@demo.test')).statusCode).toBe(200);
  });

  it('doubles the wait after each further failure', async () => {
    const c = new ApiClient(t, nextIp());
    await failLogins(c, 'cromos@demo.test', 5);
    const waits: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await c.login('cromos@demo.test', WRONG);
      waits.push(String(res.headers['retry-after']));
      t.clock.advance(Number(res.headers['retry-after']) * SECOND);
      expect((await c.login('cromos@demo.test', WRONG)).statusCode).toBe(401);
    }
    expect(waits).toEqual(['1', '2', '4']);
    t.clock.advance(8 * SECOND);
    expect((await c.login('cromos@demo.test')).statusCode).toBe(200);
  });

  it('locks the account for 15 minutes after 10 failures, then lets the right password in', async () => {
    const c = new ApiClient(t, nextIp());
    await failLogins(c, 'rilevatore@demo.test', 10);
    const locked = await c.login('rilevatore@demo.test');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'too_many_attempts', message: ERROR_MESSAGES.accountLocked });
    expect(Number(locked.headers['retry-after'])).toBe(15 * 60);

    const elsewhere = new ApiClient(t, nextIp());
    expect((await elsewhere.login('rilevatore@demo.test')).statusCode).toBe(429);
    expect((await elsewhere.login('RILEVATORE@demo.test')).statusCode).toBe(429);
    expect((await c.login('dirigente@demo.test')).statusCode).toBe(200);

    t.clock.advance(15 * 60 * SECOND - 5 * SECOND);
    expect((await c.login('rilevatore@demo.test')).statusCode).toBe(429);
    t.clock.advance(5 * SECOND);
    const ok = await c.login('rilevatore@demo.test');
    expect(ok.statusCode).toBe(200);
  });

  it('counts parallel guesses one by one: only 5 are checked before the slow-down applies', async () => {
    const c = new ApiClient(t, nextIp());
    await c.csrf();
    const attempts = Array.from({ length: 12 }, () =>
      c.post(AUTH_PATHS.login, { email: 'sylla@demo.test', password: WRONG }),
    );
    const codes = (await Promise.all(attempts)).map((res) => res.statusCode).sort();
    expect(codes.filter((code) => code === 401)).toHaveLength(5);
    expect(codes.filter((code) => code === 429)).toHaveLength(7);
    const [row] = await t.database.db
      .select()
      .from(loginThrottles)
      .where(eq(loginThrottles.key, 'account:sylla@demo.test'));
    expect(row!.failures).toBe(5);
    t.clock.advance(SECOND);
    expect((await c.login('sylla@demo.test')).statusCode).toBe(200);
  });

  it('never loses a failure of concurrent attempts on different accounts from one IP', async () => {
    const c = new ApiClient(t, nextIp());
    await c.csrf();
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        c.post(AUTH_PATHS.login, { email: `parallelo${i}@demo.test`, password: WRONG }),
      ),
    );
    const [row] = await t.database.db
      .select()
      .from(loginThrottles)
      .where(eq(loginThrottles.key, `ip:${c.remoteAddress}`));
    expect(row!.failures).toBe(8);
  });

  it('resets the failure count after a successful login', async () => {
    const c = new ApiClient(t, nextIp());
    await failLogins(c, 'referente@demo.test', 4);
    expect((await c.login('referente@demo.test')).statusCode).toBe(200);
    await failLogins(c, 'referente@demo.test', 4);
    expect((await c.login('referente@demo.test')).statusCode).toBe(200);
  });

  it('refuses an IP that failed too often, whatever the account, and only that IP', async () => {
    const c = new ApiClient(t, nextIp());
    for (let i = 0; i < t.env.LOGIN_IP_MAX_FAILURES / 5; i += 1)
      await failLogins(c, `sconosciuto${i}@demo.test`, 5);
    const res = await c.login('insegnante@demo.test');
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ message: ERROR_MESSAGES.tooManyAttempts });
    expect((await new ApiClient(t, nextIp()).login('insegnante@demo.test')).statusCode).toBe(200);
  });

  it('writes failures, locks, logins and logouts to the audit log', async () => {
    const c = new ApiClient(t, nextIp());
    await failLogins(c, 'utenti@demo.test', 10);
    t.clock.advance(15 * 60 * SECOND);
    expect((await c.login('utenti@demo.test')).statusCode).toBe(200);
    expect((await c.post(AUTH_PATHS.logout)).statusCode).toBe(200);

    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(
        inArray(auditLog.action, ['auth.login.failed', 'auth.login.locked', 'auth.login', 'auth.logout']),
      );
    const mine = rows.filter((r) => r.ip === c.remoteAddress);
    const count = (action: string) => mine.filter((r) => r.action === action).length;
    expect(count('auth.login.failed')).toBe(10);
    expect(count('auth.login.locked')).toBe(1);
    expect(count('auth.login')).toBe(1);
    expect(count('auth.logout')).toBe(1);
    const failed = mine.find((r) => r.action === 'auth.login.failed')!;
    expect(failed.entityId).toBe('utenti@demo.test');
    expect(failed.actorUserId).toEqual(expect.any(Number));
    const logout = mine.find((r) => r.action === 'auth.logout')!;
    expect(logout.actorUserId).toBe(failed.actorUserId);

    const throttled = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.login.throttled'));
    expect(throttled.length).toBeGreaterThan(0);
  });
});
