// Issue 38: an account whose codice fiscale was typed by hand is proved before a verified SPID/CIE
// identity is linked to it — by its password, or by a code sent to its confirmed e-mail (this file).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { taxCodeCheckChar } from '@portale/shared/accounts';
import {
  linkIdentityWithCode,
  pendingIdentity,
  PendingIdentitySchema,
  requestIdentityLinkCode,
} from '@portale/shared/identity';
import { auditLog, userIdentities, users } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { messagesTo } from '../../../test/accounts-harness.ts';
import type { TestOidcProvider } from '../../../test/support/oidc-provider.ts';
import { loginWithCie, startCieTestApp } from '../../../test/support/cie-test-app.ts';

let op: TestOidcProvider;
let t: TestApp;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ op, t, close } = await startCieTestApp());
});
afterAll(() => close?.());

let serial = 0;
/** An account with a self-declared codice fiscale, and a browser at the link step as its person. */
async function atLinkStep(options: { emailConfirmed?: boolean } = {}) {
  serial += 1;
  const taxCode = `RSSLGU80A01H${String(700 + serial)}`;
  const cf = taxCode + taxCodeCheckChar(taxCode);
  const email = `codice${serial}@scuola.it`;
  const [row] = await t.database.db
    .insert(users)
    .values({
      email,
      passwordHash: await hashPassword('Quaderno-Girasole-47'),
      firstName: 'Luigi',
      lastName: 'Rossi',
      taxCode: cf,
      emailVerifiedAt: options.emailConfirmed === false ? null : t.clock.now(),
    })
    .returning({ id: users.id });
  const c = new ApiClient(t, nextIp());
  const who = {
    sub: `code-${serial}-${Date.now()}`,
    given_name: 'Luigi',
    family_name: 'Rossi',
    fiscalNumber: `TINIT-${cf}`,
  };
  expect((await loginWithCie(c, op, who)).searchParams.get('esito')).toBe('collega');
  await c.csrf();
  return { c, email, userId: row!.id };
}

async function codeSentTo(email: string): Promise<string> {
  const [message] = (await messagesTo(t, email)).filter((m) => m.templateKey === 'email.codice-collegamento');
  const code = /\b(\d{6})\b/.exec(message?.textBody ?? '')?.[1];
  expect(code, 'a 6-digit code in the e-mail').toBeDefined();
  return code!;
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const auditsOf = async (action: string, userId: number) =>
  (await t.database.db.select().from(auditLog).where(eq(auditLog.action, action))).filter(
    (a) => a.actorUserId === userId,
  );

describe('linking with a code to the account’s confirmed e-mail', () => {
  it('sends a code, refuses a wrong one, links with the right one and signs in', async () => {
    const { c, email, userId } = await atLinkStep();
    const pending = PendingIdentitySchema.parse((await c.get(pendingIdentity.path)).json());
    expect(pending).toMatchObject({ kind: 'link', codeAvailable: true, accountEmailHint: `c***@scuola.it` });

    const sent = await c.post(requestIdentityLinkCode.path, {});
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ sentTo: 'c***@scuola.it', validMinutes: 10 });
    const code = await codeSentTo(email);
    const [message] = await messagesTo(t, email);
    expect(message!.subject).toBe('Codice per collegare CIE al tuo account');
    expect((await auditsOf('identity.link.code_sent', userId)).length).toBe(1);

    // A second code only after a minute.
    const soon = await c.post(requestIdentityLinkCode.path, {});
    expect(soon.statusCode).toBe(429);
    expect(soon.json().message).toMatch(/puoi chiederne un altro tra \d+ secondi/);

    const bad = await c.post(linkIdentityWithCode.path, { code: wrong(code) });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('Il codice non è corretto. Tentativi rimasti: 4.');
    expect((await auditsOf('identity.link.code_wrong', userId)).length).toBe(1);
    const malformed = await c.post(linkIdentityWithCode.path, { code: '12ab' });
    expect(malformed.statusCode).toBe(422);
    expect(c.refreshCookie()).toBeUndefined();

    const ok = await c.post(linkIdentityWithCode.path, { code });
    expect(ok.statusCode).toBe(200);
    expect(c.refreshCookie()).toBeDefined();
    const [linked] = await auditsOf('identity.linked', userId);
    expect(linked!.after).toMatchObject({ provider: 'cie', proof: 'email_code' });
    const [account] = await t.database.db.select().from(users).where(eq(users.id, userId));
    expect(account!.taxCodeVerifiedSource).toBe('cie');
    expect(
      await t.database.db.select().from(userIdentities).where(eq(userIdentities.userId, userId)),
    ).toHaveLength(1);

    // Used up: the same code, or a new request, finds nothing pending.
    expect((await c.post(linkIdentityWithCode.path, { code })).statusCode).toBe(404);
    expect((await c.post(requestIdentityLinkCode.path, {})).statusCode).toBe(404);
  });

  it('is not offered, and refused, when the account’s e-mail is not confirmed', async () => {
    const { c, email } = await atLinkStep({ emailConfirmed: false });
    expect((await c.get(pendingIdentity.path)).json()).toMatchObject({ codeAvailable: false });
    const refused = await c.post(requestIdentityLinkCode.path, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('non è confermato');
    expect(await messagesTo(t, email)).toHaveLength(0);
    expect((await c.post(linkIdentityWithCode.path, { code: '123456' })).statusCode).toBe(404);
  });

  it('a code holds 10 minutes; asking first is required', async () => {
    const { c, email } = await atLinkStep();
    const early = await c.post(linkIdentityWithCode.path, { code: '123456' });
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe('Chiedi prima il codice: lo invieremo all’e-mail dell’account.');
    expect((await c.post(requestIdentityLinkCode.path, {})).statusCode).toBe(200);
    const code = await codeSentTo(email);
    t.clock.advance(10 * 60_000 + 1_000);
    const late = await c.post(linkIdentityWithCode.path, { code });
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe('Il codice è scaduto: chiedi un nuovo codice.');
  });

  it('five wrong codes use the login up; a code is bound to its own login', async () => {
    const a = await atLinkStep();
    const b = await atLinkStep();
    await a.c.post(requestIdentityLinkCode.path, {});
    await b.c.post(requestIdentityLinkCode.path, {});
    const codeOfA = await codeSentTo(a.email);
    const codeOfB = await codeSentTo(b.email);
    // A's code typed at B's login (someone else's) is just a wrong code there.
    if (codeOfA !== codeOfB)
      expect((await b.c.post(linkIdentityWithCode.path, { code: codeOfA })).statusCode).toBe(422);
    for (let i = 0; i < 5; i += 1) await a.c.post(linkIdentityWithCode.path, { code: wrong(codeOfA) });
    expect((await a.c.post(linkIdentityWithCode.path, { code: codeOfA })).statusCode).toBe(404);
    expect(a.c.refreshCookie()).toBeUndefined();
    // B's login is untouched: its own code still links it.
    expect((await b.c.post(linkIdentityWithCode.path, { code: codeOfB })).statusCode).toBe(200);
  });

  it('a browser with no pending identity gets 404 from both', async () => {
    const c = new ApiClient(t, nextIp());
    await c.csrf();
    expect((await c.post(requestIdentityLinkCode.path, {})).statusCode).toBe(404);
    expect((await c.post(linkIdentityWithCode.path, { code: '123456' })).statusCode).toBe(404);
  });
});
