import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { phoneVerifications, users } from '../../db/schema/index.ts';
import { DEMO_PASSWORD } from '../../seed/seed.ts';
import { buildAccountsApp, call, login, messagesTo } from '../../../test/accounts-harness.ts';

let t: Awaited<ReturnType<typeof buildAccountsApp>>;
beforeAll(async () => {
  t = await buildAccountsApp();
});
afterAll(() => t.close());

const start = (phone: string) =>
  call(t, { method: 'POST', url: '/api/phone-verifications', body: { phone } });
const confirm = (id: string, code: string) =>
  call(t, { method: 'POST', url: `/api/phone-verifications/${id}/confirm`, body: { code } });
async function lastCode(phone: string): Promise<string> {
  const [sms] = await messagesTo(t, phone);
  return /(\d{6})/.exec(sms!.textBody)![1]!;
}
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('phone verification', () => {
  it('sends a 6-digit code by SMS, verifies it once and shows the masked number', async () => {
    const res = await start('+39 320 111 2233');
    expect(res.statusCode).toBe(201);
    const { verificationId, phoneMasked } = res.json();
    expect(phoneMasked).toBe('+39 ••• ••• •233');
    const code = await lastCode('+393201112233');
    const [row] = await t.database.db
      .select()
      .from(phoneVerifications)
      .where(eq(phoneVerifications.id, verificationId));
    expect(row!.codeHash).not.toContain(code);
    const before = await t.app.inject({ method: 'GET', url: `/api/phone-verifications/${verificationId}` });
    expect(before.json()).toEqual({ verificationId, verified: false, phoneMasked });
    expect((await confirm(verificationId, code)).statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: `/api/phone-verifications/${verificationId}` });
    expect(after.json().verified).toBe(true);
    expect((await confirm(verificationId, code)).statusCode).toBe(409);
    // A path param that names no record is a 404 (decision 009).
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/phone-verifications/not-a-uuid' })).statusCode,
    ).toBe(404);
  });

  it('voids a code after 5 wrong tries and after 10 minutes', async () => {
    const { verificationId } = (await start('+393201112244')).json();
    const code = await lastCode('+393201112244');
    for (let i = 0; i < 5; i += 1) expect((await confirm(verificationId, wrong(code))).statusCode).toBe(422);
    const exhausted = await confirm(verificationId, code);
    expect(exhausted.json().code).toBe('code_exhausted');

    const other = (await start('+393201112255')).json().verificationId;
    const otherCode = await lastCode('+393201112255');
    t.clock.advance(10 * 60_000 + 1000);
    expect((await confirm(other, otherCode)).json().code).toBe('code_expired');
  });

  it('binds a code to its own number', async () => {
    const a = (await start('+393201110001')).json().verificationId;
    const b = (await start('+393201110002')).json().verificationId;
    const codeA = await lastCode('+393201110001');
    const codeB = await lastCode('+393201110002');
    if (codeA !== codeB) expect((await confirm(b, codeA)).statusCode).toBe(422);
    expect((await confirm(a, codeA)).statusCode).toBe(200);
  });

  it('resends after 60 seconds, at most 5 codes a day per number', async () => {
    const phone = '+393201119999';
    const { verificationId } = (await start(phone)).json();
    const tooSoon = await call(t, {
      method: 'POST',
      url: `/api/phone-verifications/${verificationId}/resend`,
    });
    expect(tooSoon.statusCode).toBe(429);
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);
    for (let i = 0; i < 4; i += 1) {
      t.clock.advance(61_000);
      expect(
        (await call(t, { method: 'POST', url: `/api/phone-verifications/${verificationId}/resend` }))
          .statusCode,
      ).toBe(200);
    }
    t.clock.advance(61_000);
    const sixth = await start(phone);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().code).toBe('daily_code_limit');
    t.clock.advance(24 * 3600_000);
    expect((await start(phone)).statusCode).toBe(201);
  });

  it('verifies the phone of the logged-in user, who needs the password to replace a verified number', async () => {
    const bearer = await login(t, 'da-verificare@demo.test');
    const res = await call(t, {
      method: 'POST',
      url: '/api/account/phone-verifications',
      bearer,
      body: { phone: '3405556677' },
    });
    expect(res.statusCode).toBe(201);
    expect((await confirm(res.json().verificationId, await lastCode('+393405556677'))).statusCode).toBe(200);
    const [user] = await t.database.db.select().from(users).where(eq(users.email, 'da-verificare@demo.test'));
    expect(user).toMatchObject({ phone: '+393405556677', phoneVerifiedAt: expect.any(Date) });
    t.clock.advance(61_000);
    const change = await call(t, {
      method: 'POST',
      url: '/api/account/phone-verifications',
      bearer,
      body: { phone: '3405556688' },
    });
    expect(change.statusCode).toBe(422);
    expect(change.json().errors.current_password).toBeTruthy();
    // With the password: the new number gets the code; once confirmed, the old one is told by SMS (decision 047).
    const withPassword = await call(t, {
      method: 'POST',
      url: '/api/account/phone-verifications',
      bearer,
      body: { phone: '3405556688', current_password: DEMO_PASSWORD },
    });
    expect(withPassword.statusCode, withPassword.body).toBe(201);
    const before = (await messagesTo(t, '+393405556677')).length;
    expect(
      (await confirm(withPassword.json().verificationId, await lastCode('+393405556688'))).statusCode,
    ).toBe(200);
    const [notice, ...older] = await messagesTo(t, '+393405556677');
    expect(older).toHaveLength(before);
    expect(notice).toMatchObject({ channel: 'sms', templateKey: 'sms.cellulare-cambiato' });
    expect(notice!.textBody).toContain('cambiato dal tuo profilo in +39 ••• ••• •688');
  });
});
