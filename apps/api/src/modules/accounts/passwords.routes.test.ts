import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, passwordResets, users } from '../../db/schema/index.ts';
import { buildAccountsApp, call, linkToken, login, messagesTo, STRONG_PASSWORD } from '../../../test/accounts-harness.ts';

let t: Awaited<ReturnType<typeof buildAccountsApp>>;
beforeAll(async () => {
  t = await buildAccountsApp();
});
afterAll(() => t.close());

const forgot = (email: string) => call(t, { method: 'POST', url: '/api/auth/forgot-password', body: { email } });
const reset = (token: string, password = STRONG_PASSWORD) =>
  call(t, { method: 'POST', url: '/api/auth/reset-password', body: { token, password, password_confirmation: password } });
const me = (bearer: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${bearer}` } });

describe('forgot and reset password', () => {
  it('answers the same for known and unknown addresses', async () => {
    const known = await forgot('insegnante@demo.test');
    const unknown = await forgot('nessuno@demo.test');
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(await messagesTo(t, 'nessuno@demo.test')).toHaveLength(0);
  });

  it('resets once with a hashed token, revokes every session, sends a notice and does not log in', async () => {
    const bearer = await login(t, 'referente@demo.test');
    await forgot('referente@demo.test');
    const token = await linkToken(t, 'referente@demo.test', 'email.reset-password');
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await t.database.db.select().from(passwordResets);
    expect(JSON.stringify(stored)).not.toContain(token);
    const res = await reset(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('token');
    expect((await me(bearer)).statusCode).toBe(401);
    expect((await reset(token, 'Un-Altra-Password-99')).statusCode).toBe(400);
    const [notice] = await messagesTo(t, 'referente@demo.test');
    expect(notice!.templateKey).toBe('email.password-cambiata');
    expect(notice!.htmlBody).toContain('<html');
    expect(await login(t, 'referente@demo.test', STRONG_PASSWORD)).toBeTruthy();
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'auth.password.reset'));
    expect(audit).toHaveLength(1);
  });

  it('refuses an expired link and weak or common passwords', async () => {
    await forgot('rilevatore@demo.test');
    const token = await linkToken(t, 'rilevatore@demo.test', 'email.reset-password');
    for (const weak of ['password1234', 'qwertyuiop123', 'Roberto-Rilevatore-1', 'scuola']) {
      const res = await reset(token, weak);
      expect(res.statusCode, weak).toBe(422);
      expect(res.json().errors.password, weak).toBeTruthy();
    }
    const mismatch = await call(t, { method: 'POST', url: '/api/auth/reset-password', body: { token, password: STRONG_PASSWORD, password_confirmation: 'x' } });
    expect(mismatch.json().errors.password_confirmation).toBeTruthy();
    t.clock.advance(60 * 60_000 + 1000);
    expect((await reset(token)).json().code).toBe('reset_token_invalid');
  });
});

describe('POST /api/auth/change-password', () => {
  const change = (bearer: string, current: string, password = STRONG_PASSWORD) =>
    call(t, { method: 'POST', url: '/api/auth/change-password', bearer, body: { current_password: current, password, password_confirmation: password } });

  it('works for a user who must change the password, clears the flag and keeps only this session', async () => {
    const other = await login(t, 'cambio-password@demo.test');
    const bearer = await login(t, 'cambio-password@demo.test');
    const blocked = await t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: { authorization: `Bearer ${bearer}` } });
    expect(blocked.json().code).toBe('password_change_required');
    expect((await change(bearer, 'sbagliata')).json().errors.current_password).toBeTruthy();
    expect((await change(bearer, 'Portale.Demo.2026', 'Portale.Demo.2026')).statusCode).toBe(422);
    const res = await change(bearer, 'Portale.Demo.2026');
    expect(res.statusCode).toBe(200);
    expect((await me(bearer)).json().user.mustChangePassword).toBe(false);
    expect((await me(other)).statusCode).toBe(401);
    const [user] = await t.database.db.select().from(users).where(eq(users.email, 'cambio-password@demo.test'));
    expect(user!.mustChangePassword).toBe(false);
    expect((await messagesTo(t, 'cambio-password@demo.test'))[0]!.templateKey).toBe('email.password-cambiata');
  });
});
