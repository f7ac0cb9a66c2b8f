import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, mfaFactors } from '../../db/schema/index.ts';
import { DEMO_PASSWORD, DEMO_TOTP_SECRET } from '../../seed/seed.ts';
import { buildAccountsApp, call, login, messagesTo } from '../../../test/accounts-harness.ts';
import { authenticator } from '../../../test/totp-helper.ts';

let t: Awaited<ReturnType<typeof buildAccountsApp>>;
beforeAll(async () => {
  t = await buildAccountsApp();
});
afterAll(() => t.close());

const passwordStep = (email: string) =>
  call(t, { method: 'POST', url: '/api/auth/login', body: { email, password: DEMO_PASSWORD } });
const verify = (body: Record<string, string>) =>
  call(t, { method: 'POST', url: '/api/auth/mfa/verify', body });

describe('staff MFA', () => {
  it('gives a staff member no session after the password, and one after a valid TOTP code', async () => {
    const step = await passwordStep('sylla@demo.test');
    expect(step.statusCode).toBe(200);
    expect(step.json()).toMatchObject({ mfa_required: true, mfa_token: expect.any(String) });
    expect(step.json()).not.toHaveProperty('token');
    expect(step.cookies.find((c) => c.name === 'auth._refresh_token.local')).toBeUndefined();
    const code = await authenticator(t.clock.now());
    expect(
      (
        await verify({
          mfa_token: step.json().mfa_token,
          code: String((Number(code) + 1) % 1e6).padStart(6, '0'),
        })
      ).statusCode,
    ).toBe(422);
    const ok = await verify({ mfa_token: step.json().mfa_token, code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ token: expect.any(String), token_type: 'Bearer' });
    expect(ok.cookies.find((c) => c.name === 'auth._refresh_token.local')).toBeTruthy();
    expect((await verify({ mfa_token: step.json().mfa_token, code })).statusCode).toBe(401);
    const replay = await passwordStep('sylla@demo.test');
    expect((await verify({ mfa_token: replay.json().mfa_token, code })).statusCode).toBe(422);
  });

  it('keeps the plain token answer for users without an MFA role', async () => {
    const res = await passwordStep('insegnante@demo.test');
    expect(Object.keys(res.json()).sort()).toEqual(['expires_in', 'token', 'token_type']);
  });

  it('voids a challenge after 5 minutes or 5 wrong codes', async () => {
    const step = (await passwordStep('cromos@demo.test')).json();
    for (let i = 0; i < 5; i += 1) await verify({ mfa_token: step.mfa_token, code: '000000' });
    t.clock.advance(30_000);
    expect(
      (await verify({ mfa_token: step.mfa_token, code: await authenticator(t.clock.now()) })).statusCode,
    ).toBe(401);
    const late = (await passwordStep('cromos@demo.test')).json();
    t.clock.advance(5 * 60_000 + 1000);
    expect(
      (await verify({ mfa_token: late.mfa_token, code: await authenticator(t.clock.now()) })).statusCode,
    ).toBe(401);
  });

  it('enrols at first login after a reset by a user manager, with single-use recovery codes', async () => {
    const admin = await login(t, 'superadmin@demo.test');
    const [target] = await t.database.db.select().from(mfaFactors).limit(1);
    const cromos = await login(t, 'cromos@demo.test');
    // Resetting a second factor is `manage:user` (super-admin, cromos): Sylla staff may not.
    const sylla = await login(t, 'sylla@demo.test');
    const forbidden = await call(t, {
      method: 'POST',
      url: `/api/users/${target!.userId}/mfa/reset`,
      bearer: sylla,
    });
    expect(forbidden.statusCode).toBe(403);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${cromos}` },
    });
    const cromosId = me.json().user.id;
    // Nobody resets their own second factor through user management (issue 32): another administrator does.
    const own = await call(t, { method: 'POST', url: `/api/users/${cromosId}/mfa/reset`, bearer: cromos });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({
      code: 'self_access_change',
      message: 'Non puoi azzerare il tuo secondo fattore: deve farlo un altro amministratore.',
    });
    expect(await t.database.db.select().from(mfaFactors).where(eq(mfaFactors.userId, cromosId))).toHaveLength(
      1,
    );
    expect(await messagesTo(t, 'cromos@demo.test')).toHaveLength(0);
    const reset = await call(t, { method: 'POST', url: `/api/users/${cromosId}/mfa/reset`, bearer: admin });
    expect(reset.statusCode).toBe(200);
    expect((await messagesTo(t, 'cromos@demo.test'))[0]!.templateKey).toBe('email.mfa-reset');
    expect(
      await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'auth.mfa.reset')),
    ).toHaveLength(1);

    const enrol = (await passwordStep('cromos@demo.test')).json();
    expect(enrol).toMatchObject({ mfa_enrolment_required: true, secret: expect.any(String) });
    expect(enrol.secret).not.toBe(DEMO_TOTP_SECRET);
    expect(enrol.otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
    const done = await verify({
      mfa_token: enrol.mfa_token,
      code: await authenticator(t.clock.now(), enrol.secret),
    });
    expect(done.statusCode).toBe(200);
    const { recovery_codes: codes } = done.json();
    expect(codes).toHaveLength(10);
    const [stored] = await t.database.db.select().from(mfaFactors).where(eq(mfaFactors.userId, cromosId));
    expect(JSON.stringify(stored)).not.toContain(codes[0]);
    expect(JSON.stringify(stored)).not.toContain(enrol.secret);

    const next = (await passwordStep('cromos@demo.test')).json();
    expect(next.mfa_required).toBe(true);
    expect((await verify({ mfa_token: next.mfa_token, recovery_code: codes[0] })).statusCode).toBe(200);
    const again = (await passwordStep('cromos@demo.test')).json();
    expect((await verify({ mfa_token: again.mfa_token, recovery_code: codes[0] })).statusCode).toBe(422);
  });
});

describe('wrong second-factor codes across challenges (issue 32, defect 5)', () => {
  /** One request from `ip` with the XSRF pair, as an attacker spreading guesses over addresses would. */
  async function from(ip: string, url: string, body: unknown) {
    const csrf = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie', remoteAddress: ip });
    const xsrf = csrf.cookies.find((k) => k.name === 'XSRF-TOKEN')!.value;
    return t.app.inject({
      method: 'POST',
      url,
      remoteAddress: ip,
      headers: { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
      payload: body as object,
    });
  }

  it('60 wrong codes from 12 IPs, each after the right password: slowed, then locked, the user told; no session', async () => {
    const email = 'superadmin@demo.test';
    const answers: number[] = [];
    for (let i = 0; i < 60; i += 1) {
      const ip = `10.32.5.${(i % 12) + 1}`;
      const step = await from(ip, '/api/auth/login', { email, password: DEMO_PASSWORD });
      expect(step.statusCode).toBe(200);
      const valid = Number(await authenticator(t.clock.now()));
      // TOTP and recovery codes alike: both are second factors and count together.
      const guess =
        i % 2 === 0
          ? { code: String((valid + 500_000) % 1e6).padStart(6, '0') }
          : { recovery_code: `ABCDE-${String(10_000 + i)}` };
      answers.push(
        (await from(ip, '/api/auth/mfa/verify', { mfa_token: step.json().mfa_token, ...guess })).statusCode,
      );
      t.clock.advance(350); // 60 codes in 21 s
    }
    // LOGIN_SLOWDOWN_AFTER (5) codes, then one more per 1, 2, 4, 8… s: everything else refused unchecked.
    expect(answers.filter((s) => s === 422).length).toBeLessThanOrEqual(10);
    expect(answers.filter((s) => s === 429).length).toBeGreaterThanOrEqual(50);
    expect(answers).not.toContain(200);
    const retry = async (ip: string, guess: Record<string, string>) => {
      const step = await from(ip, '/api/auth/login', { email, password: DEMO_PASSWORD });
      expect(step.statusCode).toBe(200);
      return from(ip, '/api/auth/mfa/verify', { mfa_token: step.json().mfa_token, ...guess });
    };
    // Even the right code waits out the slowdown (no session while guesses are being made).
    const slowed = await retry('10.32.5.97', { code: await authenticator(t.clock.now()) });
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json()).toMatchObject({
      code: 'too_many_attempts',
      message: 'Troppi tentativi di accesso. Riprova tra qualche minuto.',
    });

    // The attacker keeps going, patiently: at LOGIN_LOCK_AFTER (10) wrong codes the account locks.
    for (
      let i = 0;
      i < 10 && !(await retry(`10.32.5.${20 + i}`, { code: '000000' })).json().message?.includes('bloccato');
      i += 1
    ) {
      t.clock.advance(61_000);
    }
    const locked = await retry('10.32.5.99', { code: await authenticator(t.clock.now()) });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({
      code: 'too_many_attempts',
      message: "Per troppi tentativi non riusciti l'accesso è bloccato per 15 minuti.",
    });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.json()).not.toHaveProperty('token');

    // The user hears of it once, in Italian, with the way to change the password; the audit keeps it.
    const mails = (await messagesTo(t, email)).filter((m) => m.templateKey === 'email.mfa-bloccato');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Accesso bloccato: troppi codici di verifica errati');
    expect(mails[0]!.textBody).toMatch(/password corretta.*bloccato l’accesso per 15 minuti/s);
    expect(
      await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'auth.mfa.locked')),
    ).toHaveLength(1);

    // The staff list shows the account locked; after the lock a right code opens a session again.
    t.clock.advance(15 * 60_000 + 1000);
    const later = await from('10.32.5.98', '/api/auth/login', { email, password: DEMO_PASSWORD });
    const ok = await from('10.32.5.98', '/api/auth/mfa/verify', {
      mfa_token: later.json().mfa_token,
      code: await authenticator(t.clock.now()),
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('the lock of the second factor shows on the user and a user manager lifts it', async () => {
    const email = 'sylla@demo.test';
    for (let i = 0; i < 10; i += 1) {
      const step = await from('10.32.6.1', '/api/auth/login', { email, password: DEMO_PASSWORD });
      await from('10.32.6.1', '/api/auth/mfa/verify', {
        mfa_token: step.json().mfa_token,
        recovery_code: 'ZZZZZ-ZZZZZ',
      });
      t.clock.advance(61_000);
    }
    const admin = await login(t, 'superadmin@demo.test');
    const me = await call(t, { method: 'GET', url: '/api/users?q=sylla%40demo.test', bearer: admin });
    const target = me.json().items.find((u: { email: string }) => u.email === email);
    expect(target).toMatchObject({ locked: true });
    expect(
      (await call(t, { method: 'POST', url: `/api/users/${target.id}/unlock`, bearer: admin })).statusCode,
    ).toBe(200);
    const step = await from('10.32.6.2', '/api/auth/login', { email, password: DEMO_PASSWORD });
    expect(
      (
        await from('10.32.6.2', '/api/auth/mfa/verify', {
          mfa_token: step.json().mfa_token,
          code: await authenticator(t.clock.now()),
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('MFA_ROLES', () => {
  it('decides which roles need the second factor', async () => {
    const other = await buildAccountsApp({ MFA_ROLES: 'detector' });
    try {
      const staff = await call(other, {
        method: 'POST',
        url: '/api/auth/login',
        body: { email: 'sylla@demo.test', password: DEMO_PASSWORD },
      });
      expect(staff.json().token).toBeTruthy();
      const detector = await call(other, {
        method: 'POST',
        url: '/api/auth/login',
        body: { email: 'rilevatore@demo.test', password: DEMO_PASSWORD },
      });
      expect(detector.json().mfa_enrolment_required).toBe(true);
    } finally {
      await other.close();
    }
  });
});
