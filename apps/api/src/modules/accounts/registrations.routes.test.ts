import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditLog, emailVerifications, teacherProfiles, users } from '../../db/schema/index.ts';
import {
  buildAccountsApp,
  call,
  linkToken,
  messagesTo,
  STRONG_PASSWORD,
} from '../../../test/accounts-harness.ts';

let t: Awaited<ReturnType<typeof buildAccountsApp>>;
beforeAll(async () => {
  t = await buildAccountsApp();
});
afterAll(() => t.close());

const body = (overrides: Record<string, unknown> = {}) => ({
  kind: 'insegnante',
  firstName: 'Maria',
  lastName: 'Rossi',
  email: 'maria.rossi@example.com',
  phone: '333 765 4321',
  password: STRONG_PASSWORD,
  taxCode: 'RSSMRA85T10A562S',
  schoolSiteId: t.siteId,
  subjects: ['Matematica', 'Scienze'],
  privacyAccepted: true,
  ...overrides,
});
const register = (overrides: Record<string, unknown> = {}) =>
  call(t, { method: 'POST', url: '/api/registrations', body: body(overrides) });

describe('POST /api/registrations', () => {
  it('creates the user, the pending teacher profile, the verification link and the welcome e-mail', async () => {
    const res = await register();
    expect(res.statusCode).toBe(202);
    expect(res.json().status).toBe('accepted');
    const [user] = await t.database.db.select().from(users).where(eq(users.email, 'maria.rossi@example.com'));
    expect(user).toMatchObject({
      phone: '+393337654321',
      taxCode: 'RSSMRA85T10A562S',
      emailVerifiedAt: null,
    });
    expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const [profile] = await t.database.db
      .select()
      .from(teacherProfiles)
      .where(eq(teacherProfiles.userId, user!.id));
    expect(profile).toMatchObject({
      kind: 'insegnante',
      reviewState: 'in_attesa',
      schoolSiteId: t.siteId,
      subjects: ['Matematica', 'Scienze'],
    });
    const keys = (await messagesTo(t, 'maria.rossi@example.com')).map((m) => m.templateKey).sort();
    expect(keys).toEqual(['email.benvenuto', 'email.verifica']);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'account.registered'));
    expect(audit).toHaveLength(1);
    const me = await call(t, {
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'maria.rossi@example.com', password: STRONG_PASSWORD },
    });
    expect(me.json().token).toBeTruthy();
  });

  it('answers a duplicate address exactly as a new one and warns the owner by e-mail', async () => {
    const fresh = await register({ email: 'nuova.persona@example.com' });
    const duplicate = await register({ email: 'MARIA.ROSSI@example.com', firstName: 'Altra' });
    expect(duplicate.statusCode).toBe(fresh.statusCode);
    expect(duplicate.body).toBe(fresh.body);
    const mails = await messagesTo(t, 'maria.rossi@example.com');
    expect(mails[0]!.templateKey).toBe('email.registrazione-esistente');
    const owners = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = 'maria.rossi@example.com'`);
    expect(owners).toHaveLength(1);
  });

  it('refuses PEC addresses with an explanation and gives per-field errors', async () => {
    const res = await register({
      email: 'maria@pec.it',
      password: 'corto',
      taxCode: 'RSSMRA85T10A562A',
      phone: '06 1234 5678',
    });
    expect(res.statusCode).toBe(422);
    const { errors } = res.json();
    expect(errors.email[0]).toMatch(/PEC/);
    expect(errors.password[0]).toMatch(/almeno 12/);
    expect(errors.taxCode[0]).toMatch(/codice fiscale/);
    expect(errors.phone[0]).toMatch(/cellulare/);
  });

  it('refuses common passwords, context words and the user’s own name', async () => {
    for (const password of [
      'portalescuole2026',
      'iloveyou12345',
      'Rossi-Girasole-47',
      'maria.rossi.lavagna',
    ]) {
      const res = await register({ email: 'altro@example.com', password });
      expect(res.statusCode, password).toBe(422);
      expect(res.json().errors.password).toBeTruthy();
    }
  });

  it("makes the tax code optional for 'altro' and the plesso must exist", async () => {
    const ok = await register({
      kind: 'altro',
      email: 'altro.ruolo@example.com',
      taxCode: null,
      schoolSiteId: null,
      subjects: [],
    });
    expect(ok.statusCode).toBe(202);
    const bad = await register({ email: 'plesso@example.com', schoolSiteId: 999999 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.schoolSiteId).toBeTruthy();
  });
});

describe('e-mail verification', () => {
  it('verifies once, then answers already verified; unknown tokens are invalid', async () => {
    await register({ email: 'verifica@example.com' });
    const token = await linkToken(t, 'verifica@example.com', 'email.verifica');
    const first = await call(t, { method: 'POST', url: '/api/email-verifications/confirm', body: { token } });
    expect(first.json().status).toBe('verified');
    const again = await call(t, { method: 'POST', url: '/api/email-verifications/confirm', body: { token } });
    expect(again.json().status).toBe('already_verified');
    const unknown = await call(t, {
      method: 'POST',
      url: '/api/email-verifications/confirm',
      body: { token: 'x'.repeat(43) },
    });
    expect(unknown.json().status).toBe('invalid');
    const rows = await t.database.db.select().from(emailVerifications);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('expires after 24 hours and throttles the resend', async () => {
    await register({ email: 'scaduta@example.com' });
    const token = await linkToken(t, 'scaduta@example.com', 'email.verifica');
    t.clock.advance(24 * 3600_000 + 1000);
    const expired = await call(t, {
      method: 'POST',
      url: '/api/email-verifications/confirm',
      body: { token },
    });
    expect(expired.json().status).toBe('expired');
    const resend = () =>
      call(t, {
        method: 'POST',
        url: '/api/email-verifications/resend',
        body: { email: 'scaduta@example.com' },
      });
    const unknown = await call(t, {
      method: 'POST',
      url: '/api/email-verifications/resend',
      body: { email: 'nessuno@example.com' },
    });
    const first = await resend();
    expect(first.statusCode).toBe(202);
    expect(first.body).toBe(unknown.body);
    await resend();
    const links = (await messagesTo(t, 'scaduta@example.com')).filter(
      (m) => m.templateKey === 'email.verifica',
    );
    expect(links).toHaveLength(2);
    const fresh = await linkToken(t, 'scaduta@example.com', 'email.verifica');
    expect(
      (
        await call(t, { method: 'POST', url: '/api/email-verifications/confirm', body: { token: fresh } })
      ).json().status,
    ).toBe('verified');
  });
});

describe('GET /api/school-sites/search', () => {
  it('finds a plesso by name, comune or codice meccanografico', async () => {
    for (const q of ['garibaldi', 'Roma', 'RMEE8AB01A', 'garibaldy']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/school-sites/search?q=${encodeURIComponent(q)}`,
      });
      expect(res.statusCode, q).toBe(200);
      expect(res.json().items[0], q).toMatchObject({
        ministryCode: 'RMEE8AB01A',
        instituteName: expect.any(String),
      });
    }
    const short = await t.app.inject({ method: 'GET', url: '/api/school-sites/search?q=a' });
    expect(short.statusCode).toBe(422);
  });
});
