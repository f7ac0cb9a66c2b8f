import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { taxCodeCheckChar } from '@portale/shared/accounts';
import { auditLog, deletionRequests, loginThrottles } from '../../db/schema/index.ts';
import { DEMO_PASSWORD } from '../../seed/seed.ts';
import { romeDateStamp } from '../../lib/export.ts';
import {
  buildAccountsApp,
  call,
  linkToken,
  login,
  messagesTo,
  STRONG_PASSWORD,
} from '../../../test/accounts-harness.ts';

let t: Awaited<ReturnType<typeof buildAccountsApp>>;
beforeAll(async () => {
  t = await buildAccountsApp();
});
afterAll(() => t.close());

const get = (url: string, bearer: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${bearer}`, 'user-agent': 'vitest' },
  });

describe('sessions', () => {
  it('lists the active sessions, revokes one and then all the others', async () => {
    const a = await login(t, 'insegnante@demo.test');
    const b = await login(t, 'insegnante@demo.test');
    const c = await login(t, 'insegnante@demo.test');
    const list = (await get('/api/auth/sessions', a)).json().items;
    expect(list).toHaveLength(3);
    expect(list.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(list[0]).toMatchObject({
      device: 'vitest',
      lastUsedAt: expect.any(String),
      createdAt: expect.any(String),
    });
    const sessionOfB = (await get('/api/auth/sessions', b))
      .json()
      .items.find((s: { current: boolean }) => s.current).id;
    expect(
      (await call(t, { method: 'DELETE', url: `/api/auth/sessions/${sessionOfB}`, bearer: a })).statusCode,
    ).toBe(204);
    expect((await get('/api/auth/me', b)).statusCode).toBe(401);
    expect((await get('/api/auth/me', c)).statusCode).toBe(200);
    const others = await call(t, { method: 'POST', url: '/api/auth/sessions/revoke-others', bearer: a });
    expect(others.json()).toEqual({ revoked: 1 });
    expect((await get('/api/auth/me', c)).statusCode).toBe(401);
    expect((await get('/api/auth/me', a)).statusCode).toBe(200);
    const stranger = await login(t, 'rilevatore@demo.test');
    const mine = (await get('/api/auth/sessions', a)).json().items[0].id;
    expect(
      (await call(t, { method: 'DELETE', url: `/api/auth/sessions/${mine}`, bearer: stranger })).statusCode,
    ).toBe(404);
    expect(
      await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'auth.session.revoked')),
    ).toHaveLength(1);
  });
});

describe('profile, export and deletion', () => {
  it('tells what is missing and completes the profile', async () => {
    await call(t, {
      method: 'POST',
      url: '/api/registrations',
      body: {
        kind: 'educatore',
        firstName: 'Elena',
        lastName: 'Bianchi',
        email: 'elena@example.com',
        phone: '3471112222',
        password: STRONG_PASSWORD,
        taxCode: 'BNCLNE80A41H501T',
        schoolSiteId: t.siteId,
        subjects: [],
        privacyAccepted: true,
      },
    });
    const bearer = await login(t, 'elena@example.com', STRONG_PASSWORD);
    const profile = (await get('/api/account/profile', bearer)).json();
    expect(profile.missing).toEqual(['phoneVerification', 'emailVerification']);
    expect(profile.teacherProfile).toMatchObject({
      kind: 'educatore',
      reviewState: 'in_attesa',
      schoolSite: { id: t.siteId },
    });
    const patched = await call(t, {
      method: 'PATCH',
      url: '/api/account/profile',
      bearer,
      body: { subjects: ['Sostegno'] },
    });
    expect(patched.json().teacherProfile.subjects).toEqual(['Sostegno']);
    const bad = await call(t, {
      method: 'PATCH',
      url: '/api/account/profile',
      bearer,
      body: { taxCode: 'XXXXXX00X00X000X' },
    });
    expect(bad.statusCode).toBe(422);
  });

  it('changes a codice fiscale already on the account only with the current password, counted like a login (issue 32)', async () => {
    const first = 'RFRRNT70A01H501' + taxCodeCheckChar('RFRRNT70A01H501');
    const second = 'BNCLNE80A41H501T';
    const bearer = await login(t, 'referente@demo.test');
    const patch = (body: Record<string, unknown>) =>
      call(t, { method: 'PATCH', url: '/api/account/profile', bearer, body });
    const stored = async () => (await get('/api/account/profile', bearer)).json().taxCode;
    // The first codice fiscale completes the profile: no password asked.
    expect((await patch({ taxCode: first.toLowerCase() })).statusCode).toBe(200);
    expect(await stored()).toBe(first);
    // The same one again changes nothing and needs nothing.
    expect((await patch({ taxCode: first })).statusCode).toBe(200);

    const missing = await patch({ taxCode: second });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.current_password).toEqual([
      'Per cambiare il codice fiscale inserisci la password attuale.',
    ]);
    const wrong = await patch({ taxCode: second, current_password: 'Sbagliata-123!' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.current_password).toEqual(['La password attuale non è corretta.']);
    expect(await stored()).toBe(first);
    const [counted] = await t.database.db
      .select()
      .from(loginThrottles)
      .where(eq(loginThrottles.key, 'account:referente@demo.test'));
    expect(counted!.failures).toBe(1);
    expect(
      await t.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'account.tax_code.change_failed')),
    ).toHaveLength(1);

    const right = await patch({ taxCode: second, current_password: DEMO_PASSWORD });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().taxCode).toBe(second);
    expect(
      await t.database.db
        .select()
        .from(loginThrottles)
        .where(eq(loginThrottles.key, 'account:referente@demo.test')),
    ).toEqual([]);

    // Wrong passwords slow the account down as failed logins do.
    for (let i = 0; i < 5; i += 1) await patch({ taxCode: first, current_password: `Sbagliata-${i}!` });
    const slowed = await patch({ taxCode: first, current_password: DEMO_PASSWORD });
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().message).toMatch(/[Tt]roppi tentativi|riprova/);
    expect(await stored()).toBe(second);
  });

  it('exports the user’s data without secrets and records one deletion request', async () => {
    const bearer = await login(t, 'elena@example.com', STRONG_PASSWORD);
    const res = await get('/api/account/export', bearer);
    expect(res.statusCode).toBe(200);
    // Named with the day in Rome (the export helper's stamp), not the UTC date.
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="portale-scuole-dati-${romeDateStamp(t.clock.now())}.json"`,
    );
    const data = res.json();
    expect(data.account.email).toBe('elena@example.com');
    expect(data.teacherProfile.kind).toBe('educatore');
    expect(data.messages.length).toBeGreaterThan(0);
    expect(res.body).not.toMatch(/argon2|token_hash|tokenHash|passwordHash/);
    const first = await call(t, {
      method: 'POST',
      url: '/api/account/deletion-request',
      bearer,
      body: { reason: 'Non partecipo più' },
    });
    expect(first.statusCode).toBe(202);
    const second = await call(t, { method: 'POST', url: '/api/account/deletion-request', bearer, body: {} });
    expect(second.json().requestedAt).toBe(first.json().requestedAt);
    expect(await t.database.db.select().from(deletionRequests)).toHaveLength(1);
    expect((await messagesTo(t, 'elena@example.com'))[0]!.templateKey).toBe('email.cancellazione-richiesta');
    expect(
      await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'account.deletion_requested')),
    ).toHaveLength(1);
  });
});

describe('POST /api/account/email-change (decision 041)', () => {
  it('needs the password and a free new address; the link to the new address moves the account and tells the old one', async () => {
    const guest = await call(t, {
      method: 'POST',
      url: '/api/account/email-change',
      body: { email: 'nuovo@esempio.it', current_password: DEMO_PASSWORD },
    });
    expect(guest.statusCode).toBe(401);
    const bearer = await login(t, 'rilevatore@demo.test');
    const wrong = await call(t, {
      method: 'POST',
      url: '/api/account/email-change',
      bearer,
      body: { email: 'rilevatore.nuovo@esempio.it', current_password: 'sbagliata' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.current_password).toBeDefined();
    const taken = await call(t, {
      method: 'POST',
      url: '/api/account/email-change',
      bearer,
      body: { email: 'Insegnante@demo.test', current_password: DEMO_PASSWORD },
    });
    expect(taken.json().errors.email).toEqual(['Questo indirizzo e-mail è già usato da un altro account.']);
    const same = await call(t, {
      method: 'POST',
      url: '/api/account/email-change',
      bearer,
      body: { email: 'rilevatore@demo.test', current_password: DEMO_PASSWORD },
    });
    expect(same.json().errors.email).toEqual(['È già il tuo indirizzo e-mail.']);
    expect(
      (
        await call(t, {
          method: 'POST',
          url: '/api/account/email-change',
          bearer,
          body: { email: 'non-valido', current_password: DEMO_PASSWORD },
        })
      ).statusCode,
    ).toBe(422);

    const res = await call(t, {
      method: 'POST',
      url: '/api/account/email-change',
      bearer,
      body: { email: 'Rilevatore.Nuovo@Esempio.it', current_password: DEMO_PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    // Until the link is opened the account keeps its address.
    expect((await get('/api/account/profile', bearer)).json().email).toBe('rilevatore@demo.test');
    const token = await linkToken(t, 'rilevatore.nuovo@esempio.it', 'email.verifica');
    const confirmed = await call(t, {
      method: 'POST',
      url: '/api/email-verifications/confirm',
      body: { token },
    });
    expect(confirmed.json()).toMatchObject({ status: 'verified' });
    expect((await get('/api/account/profile', bearer)).json()).toMatchObject({
      email: 'rilevatore.nuovo@esempio.it',
      emailVerified: true,
    });
    const notice = (await messagesTo(t, 'rilevatore@demo.test')).find(
      (m) => m.templateKey === 'email.indirizzo-cambiato',
    );
    expect(notice!.textBody).toContain('rilevatore.nuovo@esempio.it');
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'account.email.changed'));
    expect(audit).toMatchObject({
      before: { email: 'rilevatore@demo.test' },
      after: { email: 'rilevatore.nuovo@esempio.it' },
    });
    // The same link again changes nothing.
    expect(
      (await call(t, { method: 'POST', url: '/api/email-verifications/confirm', body: { token } })).json()
        .status,
    ).not.toBe('verified');
  });
});
