import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { TokenResponseSchema } from '@portale/shared/auth';
import { AUTH_COOKIES } from '@portale/shared/http';
import { taxCodeCheckChar } from '@portale/shared/accounts';
import {
  cieStart,
  identityProviders,
  IDENTITY_RESULT_PATH,
  LinkedIdentitiesSchema,
  linkIdentity,
  myIdentities,
  pendingIdentity,
  PendingIdentitySchema,
  unlinkIdentity,
} from '@portale/shared/identity';
import { auditLog, identityLoginAttempts, userIdentities, users } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import {
  loginAtProvider,
  startOidcProvider,
  TEST_PEOPLE,
  type TestOidcProvider,
  type TestPerson,
} from '../../../test/support/oidc-provider.ts';

const REDIRECT_BASE = 'http://api.test';
const REDIRECT_URI = `${REDIRECT_BASE}/api/auth/cie/callback`;
const PASSWORD = 'Quaderno-Girasole-47';

let op: TestOidcProvider;
let t: TestApp;
beforeAll(async () => {
  op = await startOidcProvider(REDIRECT_URI);
  t = await buildTestApp({
    CIE_ISSUER: op.issuer,
    CIE_CLIENT_ID: op.clientId,
    CIE_PRIVATE_JWK: JSON.stringify(op.privateJwk),
    CIE_REDIRECT_BASE: REDIRECT_BASE,
  });
});
afterAll(async () => {
  await t?.close();
  await op?.close();
});

const cf = (first15: string) => first15 + taxCodeCheckChar(first15);
let serial = 0;
/** A person with a codice fiscale of their own (each test its own, so the rules never meet). */
function person(overrides: Partial<TestPerson> = {}): TestPerson & { taxCode: string } {
  serial += 1;
  const n = String(serial).padStart(3, '0');
  const taxCode = cf(`RSSLGU80A01H${n}`);
  return {
    sub: `cie-${serial}-${Math.random().toString(36).slice(2)}`,
    given_name: 'Luigi',
    family_name: 'Rossi',
    birthdate: '1980-01-01',
    fiscalNumber: `TINIT-${taxCode}`,
    taxCode,
    ...overrides,
  };
}

async function createAccount(input: {
  email: string;
  taxCode: string | null;
  verified?: boolean;
  firstName?: string;
  lastName?: string;
}): Promise<number> {
  const [row] = await t.database.db
    .insert(users)
    .values({
      email: input.email,
      passwordHash: await hashPassword(PASSWORD),
      firstName: input.firstName ?? 'Luigi',
      lastName: input.lastName ?? 'Rossi',
      taxCode: input.taxCode,
      emailVerifiedAt: t.clock.now(),
      ...(input.verified ? { taxCodeVerifiedAt: t.clock.now(), taxCodeVerifiedSource: 'cie' as const } : {}),
    })
    .returning({ id: users.id });
  return row!.id;
}

const browser = () => new ApiClient(t, nextIp());

/** Start at our API, log in at the provider as `who`: the callback URL the provider sends the browser to. */
async function startLogin(c: ApiClient, who: TestPerson, options?: { acr?: string; error?: string }) {
  const start = await c.get(cieStart.path);
  expect(start.statusCode).toBe(302);
  op.next(who, options);
  return loginAtProvider(start.headers.location!, REDIRECT_URI);
}

async function callback(c: ApiClient, url: URL) {
  const res = await c.get(`${url.pathname}${url.search}`);
  expect(res.statusCode).toBe(302);
  const location = new URL(res.headers.location!);
  expect(location.pathname).toBe(IDENTITY_RESULT_PATH);
  return {
    res,
    outcome: location.searchParams.get('esito'),
    failure: location.searchParams.get('codice'),
  };
}

async function fullLogin(c: ApiClient, who: TestPerson, options?: { acr?: string; error?: string }) {
  return callback(c, await startLogin(c, who, options));
}

const auditsOf = async (action: string) =>
  t.database.db.select().from(auditLog).where(eq(auditLog.action, action));

/** After a signed-in callback, the web renews its token from the refresh cookie: the session is real. */
async function sessionUserId(c: ApiClient): Promise<number | null> {
  if (!c.refreshCookie()) return null;
  const res = await c.refresh();
  if (res.statusCode !== 200) return null;
  const me = await c.get('/api/auth/me');
  return me.json<{ user: { id: number } }>().user.id;
}

describe('configuration', () => {
  it('says CIE is on, and without configuration the routes answer 404 and it says off', async () => {
    expect((await browser().get(identityProviders.path)).json()).toEqual({
      cie: true,
      spid: false,
      spidProviders: [],
      testProviders: false,
    });
    // Marked as test providers only when there is a provider to mark.
    const off = await buildTestApp({ IDENTITY_TEST_PROVIDERS: 'on' });
    try {
      const c = new ApiClient(off, nextIp());
      expect((await c.get(identityProviders.path)).json()).toEqual({
        cie: false,
        spid: false,
        spidProviders: [],
        testProviders: false,
      });
      expect((await c.get(cieStart.path)).statusCode).toBe(404);
      expect((await c.get('/api/auth/cie/callback?state=x')).statusCode).toBe(404);
      expect((await c.get(pendingIdentity.path)).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('starts with PKCE S256, a signed request object, acr level 2, and a browser cookie bound to the state', async () => {
    const c = browser();
    const res = await c.get(cieStart.path);
    expect(res.statusCode).toBe(302);
    const url = new URL(res.headers.location!);
    expect(url.origin).toBe(op.issuer);
    expect(url.searchParams.get('client_id')).toBe(op.clientId);
    const request = url.searchParams.get('request')!;
    const [header, payload] = request
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header.alg).toBe('RS256');
    expect(payload.code_challenge_method).toBe('S256');
    expect(payload.acr_values).toBe('https://www.spid.gov.it/SpidL2');
    expect(payload.state).toBeTruthy();
    expect(payload.nonce).toBeTruthy();
    // Neither the state nor the verifier is in the browser's cookie: the row keeps hashes and secrets.
    const cookie = c.cookie('identity.login')!;
    expect(cookie).toBeTruthy();
    expect(cookie).not.toBe(payload.state);
  });
});

describe('linking rules', () => {
  it('an account whose codice fiscale is verified: linked and signed in, the identity listed on the account', async () => {
    const who = person();
    const userId = await createAccount({
      email: `verified${serial}@scuola.it`,
      taxCode: who.taxCode,
      verified: true,
    });
    const c = browser();
    const { outcome } = await fullLogin(c, who);
    expect(outcome).toBe('accesso');
    expect(await sessionUserId(c)).toBe(userId);
    const list = LinkedIdentitiesSchema.parse((await c.get(myIdentities.path)).json());
    expect(list.identities).toEqual([
      expect.objectContaining({
        provider: 'cie',
        taxCode: who.taxCode,
        acr: 'https://www.spid.gov.it/SpidL2',
      }),
    ]);
    const [login] = (await auditsOf('auth.login')).filter((a) => a.actorUserId === userId);
    expect(login?.after).toEqual({ method: 'cie', acr: 'https://www.spid.gov.it/SpidL2' });
    // The second login finds the identity by its subject.
    const again = browser();
    expect((await fullLogin(again, who)).outcome).toBe('accesso');
    expect(await sessionUserId(again)).toBe(userId);
    const rows = await t.database.db.select().from(userIdentities).where(eq(userIdentities.userId, userId));
    expect(rows).toHaveLength(1);
  });

  it('a self-declared codice fiscale: no session until the account password is given, then verified and signed in', async () => {
    const who = person({ fiscalNumber: undefined, spidName: true });
    who.fiscalNumber = `TINIT-${who.taxCode.toLowerCase()}`;
    const userId = await createAccount({
      email: `declared${serial}@scuola.it`,
      taxCode: who.taxCode.toLowerCase(),
    });
    const c = browser();
    const { outcome } = await fullLogin(c, who);
    expect(outcome).toBe('collega');
    expect(c.refreshCookie()).toBeUndefined();
    const pending = PendingIdentitySchema.parse((await c.get(pendingIdentity.path)).json());
    expect(pending).toMatchObject({
      kind: 'link',
      taxCode: who.taxCode,
      firstName: 'Luigi',
      lastName: 'Rossi',
    });
    expect(pending.accountEmailHint).toBe('d***@scuola.it');

    await c.csrf();
    const wrong = await c.post(linkIdentity.path, { password: 'not-the-password' });
    expect(wrong.statusCode).toBe(401);
    expect((await auditsOf('identity.link.failed')).some((a) => a.actorUserId === userId)).toBe(true);
    expect(c.refreshCookie()).toBeUndefined();

    const empty = await c.post(linkIdentity.path, {});
    expect(empty.statusCode).toBe(422);

    const ok = await c.post(linkIdentity.path, { password: PASSWORD });
    expect(ok.statusCode).toBe(200);
    c.token = TokenResponseSchema.parse(ok.json()).token;
    expect(c.refreshCookie()).toBeTruthy();
    const [user] = await t.database.db.select().from(users).where(eq(users.id, userId));
    expect(user!.taxCodeVerifiedSource).toBe('cie');
    expect(user!.taxCodeVerifiedAt).toEqual(t.clock.now());
    expect(user!.taxCode).toBe(who.taxCode);
    const verified = (await auditsOf('account.tax_code.verified')).find((a) => a.actorUserId === userId);
    expect(verified?.after).toMatchObject({ taxCode: who.taxCode, source: 'cie' });
    // Verified: the account page no longer changes it.
    const retype = await c.send('PATCH', '/api/account/profile', {
      payload: { taxCode: 'RSSMRA85T10A562S', current_password: PASSWORD },
    });
    expect(retype.statusCode).toBe(422);
    expect(JSON.stringify(retype.json())).toContain('verificato');
    // Used once: the pending identity is gone.
    expect((await c.post(linkIdentity.path, { password: PASSWORD })).statusCode).toBe(404);
    // Next time the CF is verified: straight in.
    const next = browser();
    expect((await fullLogin(next, who)).outcome).toBe('accesso');
    expect(await sessionUserId(next)).toBe(userId);
  });

  it('another browser cannot use the pending link, and it expires', async () => {
    const who = person();
    await createAccount({ email: `expiry${serial}@scuola.it`, taxCode: who.taxCode });
    const c = browser();
    expect((await fullLogin(c, who)).outcome).toBe('collega');
    const other = browser();
    await other.csrf();
    expect((await other.post(linkIdentity.path, { password: PASSWORD })).statusCode).toBe(404);
    t.clock.advance(16 * 60_000);
    await c.csrf();
    expect((await c.get(pendingIdentity.path)).statusCode).toBe(404);
    expect((await c.post(linkIdentity.path, { password: PASSWORD })).statusCode).toBe(404);
  });

  it('no account with the codice fiscale: a pending registration, never a link by e-mail', async () => {
    const who = person({ email: `same${serial}@scuola.it` } as Partial<TestPerson>);
    // An account with the same e-mail and no codice fiscale is not touched.
    await createAccount({ email: `same${serial}@scuola.it`, taxCode: null });
    const c = browser();
    expect((await fullLogin(c, who)).outcome).toBe('registrazione');
    expect(c.refreshCookie()).toBeUndefined();
    const pending = PendingIdentitySchema.parse((await c.get(pendingIdentity.path)).json());
    expect(pending).toMatchObject({ kind: 'register', taxCode: who.taxCode, accountEmailHint: null });
    await c.csrf();
    expect((await c.post(linkIdentity.path, { password: PASSWORD })).statusCode).toBe(404);
  });

  it('the registration after CIE takes the verified name and codice fiscale, links the identity and verifies it', async () => {
    const who = person({ given_name: 'Lucia', family_name: 'D’Amico' });
    const c = browser();
    expect((await fullLogin(c, who)).outcome).toBe('registrazione');
    await c.csrf();
    const email = `registered${serial}@scuola.it`;
    const res = await c.post('/api/registrations', {
      kind: 'altro',
      firstName: 'Typed',
      lastName: 'Other',
      email,
      phone: '333 765 4321',
      password: PASSWORD,
      taxCode: 'RSSMRA85T10A562S',
      privacyAccepted: true,
    });
    expect(res.statusCode, res.body).toBe(202);
    const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({
      firstName: 'Lucia',
      lastName: 'D’Amico',
      taxCode: who.taxCode,
      taxCodeVerifiedSource: 'cie',
    });
    const identities = await t.database.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.userId, user!.id));
    expect(identities).toEqual([expect.objectContaining({ provider: 'cie', subject: who.sub })]);
    expect((await auditsOf('identity.linked')).some((a) => a.actorUserId === user!.id)).toBe(true);
    // Used once; the next login with CIE signs the new account in.
    expect((await c.get(pendingIdentity.path)).statusCode).toBe(404);
    const next = browser();
    expect((await fullLogin(next, who)).outcome).toBe('accesso');
    expect(await sessionUserId(next)).toBe(user!.id);
  });

  it('a name or a birth date that disagrees: refused, audited for staff, no session', async () => {
    const who = person({ given_name: 'Mario' });
    const userId = await createAccount({
      email: `mismatch${serial}@scuola.it`,
      taxCode: who.taxCode,
      verified: true,
    });
    const c = browser();
    expect(await fullLogin(c, who)).toMatchObject({ outcome: 'errore', failure: 'identity_mismatch' });
    expect(c.refreshCookie()).toBeUndefined();
    const [row] = (await auditsOf('identity.login.identity_mismatch')).filter(
      (a) => a.actorUserId === userId,
    );
    expect(row?.after).toMatchObject({ reason: 'name', provider: { firstName: 'Mario' } });

    const born = person({ birthdate: '1981-01-01' });
    const d = browser();
    expect(await fullLogin(d, born)).toMatchObject({ outcome: 'errore', failure: 'identity_mismatch' });
  });

  it('accents and case in names are not a disagreement', async () => {
    const who = person({ given_name: 'LUIGI', family_name: 'Rossì' });
    const userId = await createAccount({
      email: `accent${serial}@scuola.it`,
      taxCode: who.taxCode,
      verified: true,
    });
    const c = browser();
    expect((await fullLogin(c, who)).outcome).toBe('accesso');
    expect(await sessionUserId(c)).toBe(userId);
  });

  it('the test users: TINIT- under fiscalNumber accepted; an odd codice fiscale refused', async () => {
    const c = browser();
    expect((await fullLogin(c, TEST_PEOPLE.prefixed)).outcome).toBe('registrazione');
    expect(PendingIdentitySchema.parse((await c.get(pendingIdentity.path)).json()).taxCode).toBe(
      TEST_PEOPLE.prefixed.fiscalNumber.slice(6),
    );
    const d = browser();
    expect(await fullLogin(d, TEST_PEOPLE.odd)).toMatchObject({
      outcome: 'errore',
      failure: 'fiscal_number_invalid',
    });
    expect(await auditsOf('identity.login.fiscal_number_invalid')).not.toHaveLength(0);
  });

  it('a level below 2 is refused', async () => {
    const c = browser();
    expect(await fullLogin(c, person(), { acr: 'https://www.spid.gov.it/SpidL1' })).toMatchObject({
      outcome: 'errore',
      failure: 'level_insufficient',
    });
  });
});

describe('failures: each distinct, audited, without a session', () => {
  async function expectFailure(c: ApiClient, url: URL, failure: string) {
    const before = (await auditsOf(`identity.login.${failure}`)).length;
    expect(await callback(c, url)).toMatchObject({ outcome: 'errore', failure });
    expect(c.refreshCookie()).toBeUndefined();
    expect(await auditsOf(`identity.login.${failure}`)).toHaveLength(before + 1);
  }

  it('tampered state', async () => {
    const c = browser();
    const url = await startLogin(c, person());
    url.searchParams.set('state', `${url.searchParams.get('state')}x`);
    await expectFailure(c, url, 'state_unknown');
  });

  it('missing state', async () => {
    const c = browser();
    const url = await startLogin(c, person());
    url.searchParams.delete('state');
    await expectFailure(c, url, 'state_missing');
  });

  it('replayed state (the same answer twice)', async () => {
    const who = person();
    await createAccount({ email: `replay${serial}@scuola.it`, taxCode: who.taxCode, verified: true });
    const c = browser();
    const url = await startLogin(c, who);
    expect((await callback(c, url)).outcome).toBe('accesso');
    const thief = browser();
    await expectFailure(thief, url, 'state_replayed');
  });

  it('the answer brought to another browser', async () => {
    const c = browser();
    const url = await startLogin(c, person());
    await expectFailure(browser(), url, 'browser_mismatch');
  });

  it('expired login', async () => {
    const c = browser();
    const url = await startLogin(c, person());
    t.clock.advance(11 * 60_000);
    await expectFailure(c, url, 'state_expired');
  });

  it('missing iss', async () => {
    const c = browser();
    const url = await startLogin(c, person());
    url.searchParams.delete('iss');
    await expectFailure(c, url, 'issuer_missing');
  });

  it('wrong issuer', async () => {
    const c = browser();
    const url = await startLogin(c, person());
    url.searchParams.set('iss', 'https://attacker.example');
    await expectFailure(c, url, 'issuer_mismatch');
  });

  it('provider error (the user cancelled)', async () => {
    const c = browser();
    const url = await startLogin(c, person(), { error: 'access_denied' });
    expect(url.searchParams.get('error')).toBe('access_denied');
    await expectFailure(c, url, 'provider_error');
  });

  it('replayed nonce: the ID token does not carry the nonce this login stored', async () => {
    const c = browser();
    const url = await startLogin(c, person());
    await t.database.db.execute(
      sql`update ${identityLoginAttempts} set nonce = 'replayed-nonce' where used_at is null`,
    );
    await expectFailure(c, url, 'token_invalid');
  });

  it('a tampered code', async () => {
    const c = browser();
    const url = await startLogin(c, person());
    url.searchParams.set('code', 'forged');
    await expectFailure(c, url, 'token_invalid');
  });
});

describe('linked identities of the account', () => {
  it('the owner unlinks their identity (audited); the password still signs in; the next CIE login links again', async () => {
    const who = person();
    const email = `unlink${serial}@scuola.it`;
    const userId = await createAccount({ email, taxCode: who.taxCode, verified: true });
    const c = browser();
    expect((await fullLogin(c, who)).outcome).toBe('accesso');
    await sessionUserId(c);
    const path = `/api/account/identities/cie`;
    const guest = browser();
    await guest.csrf();
    expect((await guest.send('DELETE', path)).statusCode).toBe(401);
    // Someone else, signed in, has no CIE identity of their own: 404, and this user's stays.
    const other = browser();
    await other.login('insegnante@demo.test');
    expect((await other.send('DELETE', path)).statusCode).toBe(404);
    expect(
      await t.database.db.select().from(userIdentities).where(eq(userIdentities.userId, userId)),
    ).toHaveLength(1);
    // An unknown provider in the path is a resource that does not exist.
    expect((await c.send('DELETE', '/api/account/identities/facebook')).statusCode).toBe(404);
    expect((await c.send('DELETE', path)).statusCode).toBe(204);
    expect(
      await t.database.db.select().from(userIdentities).where(eq(userIdentities.userId, userId)),
    ).toHaveLength(0);
    expect((await auditsOf('identity.unlinked')).some((a) => a.actorUserId === userId)).toBe(true);
    expect((await c.send('DELETE', path)).statusCode).toBe(404);
    expect(unlinkIdentity.path).toBe('/api/account/identities/:provider');
    const byPassword = browser();
    expect((await byPassword.login(email, PASSWORD)).statusCode).toBe(200);
    // The codice fiscale stays verified: the next login with CIE links again at once.
    const again = browser();
    expect((await fullLogin(again, who)).outcome).toBe('accesso');
    expect(await sessionUserId(again)).toBe(userId);
  });

  it('a guest gets 401; an account without identities an empty list', async () => {
    expect((await browser().get(myIdentities.path)).statusCode).toBe(401);
    const c = browser();
    await c.login('insegnante@demo.test');
    expect(LinkedIdentitiesSchema.parse((await c.get(myIdentities.path)).json())).toEqual({
      identities: [],
      taxCodeVerifiedAt: null,
      taxCodeVerifiedSource: null,
    });
  });
});

// Users never see each other's identities: the list is the session user's own (no id in the path).
it('the pending identity answers only its own browser', async () => {
  const c = browser();
  expect((await c.get(pendingIdentity.path)).statusCode).toBe(404);
  c.setCookie('identity.pending', 'made-up', '/api/auth/identity');
  expect((await c.get(pendingIdentity.path)).statusCode).toBe(404);
  expect(AUTH_COOKIES.refreshToken).toBeTruthy();
});
