import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { eq } from 'drizzle-orm';
import { SignedXml } from 'xml-crypto';
import { taxCodeCheckChar } from '@portale/shared/accounts';
import {
  identityProviders,
  IDENTITY_RESULT_PATH,
  IdentityProvidersSchema,
  pendingIdentity,
  PendingIdentitySchema,
  spidAcs,
  spidMetadata,
  spidStart,
} from '@portale/shared/identity';
import { auditLog, userIdentities, users } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { SPID_BASE, SPID_SP_ENTITY_ID, startSpidTestApp } from '../../../test/support/spid-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import {
  loginAtIdp,
  SAML_PEOPLE,
  type SamlFault,
  type SamlTestPerson,
  type TestSamlIdp,
} from '../../../test/support/saml-idp-fixtures.ts';

const BASE = SPID_BASE;
const SP_ENTITY_ID = SPID_SP_ENTITY_ID;
const ACS = `${BASE}${spidAcs.path}`;
const L2 = 'https://www.spid.gov.it/SpidL2';

let idp: TestSamlIdp;
let t: TestApp;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ idp, t, close } = await startSpidTestApp());
});
afterAll(() => close?.());

const cf = (first15: string) => first15 + taxCodeCheckChar(first15);
let serial = 0;
/** A person of their own (each test its own codice fiscale and spidCode, so the rules never meet). */
function person(overrides: Partial<SamlTestPerson> = {}): SamlTestPerson & { taxCode: string } {
  serial += 1;
  const taxCode = cf(`BRNSFN84M12F${String(serial).padStart(3, '0')}`);
  return {
    spidCode: `SPID-T${serial}-${Math.random().toString(36).slice(2)}`,
    name: 'Stefano',
    familyName: 'Bruno',
    dateOfBirth: '1984-08-12',
    fiscalNumber: `TINIT-${taxCode}`,
    taxCode,
    ...overrides,
  };
}

async function createAccount(taxCode: string, verified: boolean): Promise<number> {
  const [row] = await t.database.db
    .insert(users)
    .values({
      email: `spid${serial}-${verified ? 'v' : 'd'}@scuola.it`,
      passwordHash: await hashPassword('Quaderno-Girasole-47'),
      firstName: 'Stefano',
      lastName: 'Bruno',
      taxCode,
      emailVerifiedAt: t.clock.now(),
      ...(verified ? { taxCodeVerifiedAt: t.clock.now(), taxCodeVerifiedSource: 'cie' as const } : {}),
    })
    .returning({ id: users.id });
  return row!.id;
}

const browser = () => new ApiClient(t, nextIp());

/** Our start, then the provider's form: what the browser would post to our ACS. */
async function startLogin(c: ApiClient, who: SamlTestPerson, fault?: SamlFault) {
  const start = await c.get(`${spidStart.path}?idp=${encodeURIComponent(idp.entityId)}`);
  expect(start.statusCode).toBe(302);
  idp.next(who, fault);
  return loginAtIdp(start.headers.location!);
}

/** The provider's form posted from its own site (no XSRF pair, a foreign Origin), as a browser does. */
async function post(c: ApiClient, samlResponse: string) {
  const res = await c.post(spidAcs.path, `SAMLResponse=${encodeURIComponent(samlResponse)}`, {
    xsrf: false,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'cross-site',
      origin: idp.entityId,
    },
  });
  expect(res.statusCode).toBe(302);
  const location = new URL(res.headers.location!);
  expect(location.pathname).toBe(IDENTITY_RESULT_PATH);
  return { outcome: location.searchParams.get('esito'), failure: location.searchParams.get('codice') };
}

async function fullLogin(c: ApiClient, who: SamlTestPerson, fault?: SamlFault) {
  const { action, samlResponse } = await startLogin(c, who, fault);
  expect(action).toBe(ACS);
  return post(c, samlResponse);
}

const auditsOf = async (action: string) =>
  t.database.db.select().from(auditLog).where(eq(auditLog.action, action));

async function sessionUserId(c: ApiClient): Promise<number | null> {
  if (!c.refreshCookie()) return null;
  if ((await c.refresh()).statusCode !== 200) return null;
  return (await c.get('/api/auth/me')).json<{ user: { id: number } }>().user.id;
}

describe('configuration and metadata', () => {
  it('lists the configured provider for the chooser', async () => {
    const body = IdentityProvidersSchema.parse((await browser().get(identityProviders.path)).json());
    expect(body).toEqual({
      cie: false,
      spid: true,
      spidProviders: [{ id: idp.entityId, name: idp.name }],
      testProviders: false,
    });
  });

  it('publishes signed metadata with the AgID extensions, the ACS and the attribute set', async () => {
    const res = await browser().get(spidMetadata.path);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/samlmetadata+xml');
    const xml = res.body;
    const doc = new DOMParser().parseFromString(xml, 'text/xml');
    const root = doc.documentElement!;
    expect(root.getAttribute('entityID')).toBe(SP_ENTITY_ID);
    // The signature is the first child, and it verifies with our certificate.
    expect(root.firstChild?.nodeName).toBe('ds:Signature');
    const verifier = new SignedXml({ publicCert: idp.sp.certificatePem });
    verifier.loadSignature(root.firstChild as unknown as Node);
    expect(verifier.checkSignature(xml)).toBe(true);
    expect(xml).toContain('AuthnRequestsSigned="true"');
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect(xml).toContain(`<md:AssertionConsumerService index="0" isDefault="true"`);
    expect(xml).toContain(`Location="${ACS}"`);
    for (const name of ['fiscalNumber', 'name', 'familyName', 'dateOfBirth', 'email', 'mobilePhone'])
      expect(xml).toContain(`<md:RequestedAttribute Name="${name}"/>`);
    expect(xml).toContain('<md:ContactPerson contactType="other">');
    expect(xml).toContain('<spid:IPACode>c_h501</spid:IPACode><spid:Public/>');
  });

  it('without configuration the SPID routes answer 404', async () => {
    const off = await buildTestApp();
    try {
      const c = new ApiClient(off, nextIp());
      expect((await c.get(spidMetadata.path)).statusCode).toBe(404);
      expect((await c.get(`${spidStart.path}?idp=x`)).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('refuses an unknown provider with an Italian message', async () => {
    const res = await browser().get(`${spidStart.path}?idp=${encodeURIComponent('https://idp.example')}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.idp[0]).toContain('Gestore dell’identità SPID sconosciuto');
  });

  it('sends a signed AuthnRequest: ForceAuthn, SpidL2 minimum, the attribute service, the Issuer as SPID wants it', async () => {
    await startLogin(browser(), person());
    const request = idp.lastRequest()!;
    expect(request.signatureValid).toBe(true);
    expect(request.sigAlg).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    const root = request.doc.documentElement;
    expect(root.getAttribute('ForceAuthn')).toBe('true');
    expect(root.getAttribute('AttributeConsumingServiceIndex')).toBe('0');
    expect(root.getAttribute('Destination')).toBe(`${idp.entityId}/sso`);
    expect(request.xml).toContain('Comparison="minimum"');
    expect(request.xml).toContain(`>${L2}</saml:AuthnContextClassRef></samlp:RequestedAuthnContext>`);
    expect(request.xml).toContain(
      `NameQualifier="${SP_ENTITY_ID}" Format="urn:oasis:names:tc:SAML:2.0:nameid-format:entity">`,
    );
  });
});

describe('linking rules through SPID', () => {
  it('a verified codice fiscale (TINIT- stripped): linked and signed in; the next login finds the identity', async () => {
    const who = person();
    const userId = await createAccount(who.taxCode, true);
    const c = browser();
    expect(await fullLogin(c, who)).toEqual({ outcome: 'accesso', failure: null });
    expect(await sessionUserId(c)).toBe(userId);
    const [row] = await t.database.db.select().from(userIdentities).where(eq(userIdentities.userId, userId));
    expect(row).toMatchObject({ provider: 'spid', taxCode: who.taxCode, acr: L2 });
    const [login] = (await auditsOf('auth.login')).filter((a) => a.actorUserId === userId);
    expect(login?.after).toEqual({ method: 'spid', acr: 'https://www.spid.gov.it/SpidL2' });
    const again = browser();
    expect((await fullLogin(again, who)).outcome).toBe('accesso');
    expect(await sessionUserId(again)).toBe(userId);
  });

  it('a self-declared codice fiscale: no session, a pending link with the password', async () => {
    const who = person({ fiscalNumberName: 'https://attributes.eid.gov.it/fiscal_number' });
    await createAccount(who.taxCode, false);
    const c = browser();
    expect((await fullLogin(c, who)).outcome).toBe('collega');
    expect(c.refreshCookie()).toBeUndefined();
    const pending = PendingIdentitySchema.parse((await c.get(pendingIdentity.path)).json());
    expect(pending).toMatchObject({ provider: 'spid', kind: 'link', taxCode: who.taxCode });
  });

  it('a new person (no e-mail from the provider): a pending registration with the verified data', async () => {
    const who = { ...SAML_PEOPLE.noEmail, spidCode: `SPID-new-${Math.random()}` };
    const c = browser();
    expect((await fullLogin(c, who)).outcome).toBe('registrazione');
    const pending = PendingIdentitySchema.parse((await c.get(pendingIdentity.path)).json());
    expect(pending).toMatchObject({
      provider: 'spid',
      kind: 'register',
      firstName: 'Elena',
      lastName: 'Conti',
      taxCode: who.fiscalNumber.replace('TINIT-', ''),
    });
  });
});

describe('refusals: each audited, no session, nothing linked', () => {
  const refused = async (failure: string, who: SamlTestPerson & { taxCode?: string }, fault?: SamlFault) => {
    const userId = who.taxCode ? await createAccount(who.taxCode, true) : null;
    const c = browser();
    expect(await fullLogin(c, who, fault)).toEqual({ outcome: 'errore', failure });
    expect(c.refreshCookie()).toBeUndefined();
    expect((await auditsOf(`identity.login.${failure}`)).length).toBeGreaterThan(0);
    if (userId) {
      const rows = await t.database.db.select().from(userIdentities).where(eq(userIdentities.userId, userId));
      expect(rows).toHaveLength(0);
    }
  };

  it('an unsigned Response', () => refused('signature_invalid', person(), { sign: 'none' }));
  it('a wrong audience', () => refused('audience_invalid', person(), { audience: 'https://other.example' }));
  it('an expired assertion', () => refused('assertion_expired', person(), { validForMs: -300_000 }));
  it('another issuer', () => refused('issuer_mismatch', person(), { issuer: 'https://idp.evil.example' }));
  it('level 1', () => refused('level_insufficient', person(), { acr: 'https://www.spid.gov.it/SpidL1' }));
  it('another Destination', () => refused('destination_invalid', person(), { destination: `${BASE}/x` }));
  it('a failed status', () =>
    refused('provider_error', person(), { status: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }));
  it('a codice fiscale with a wrong check character', () =>
    refused('fiscal_number_invalid', { ...SAML_PEOPLE.odd, spidCode: `odd-${Math.random()}` }));

  it('a signed Response and assertion is accepted too', async () => {
    const who = person();
    await createAccount(who.taxCode, true);
    expect((await fullLogin(browser(), who, { sign: 'both' })).outcome).toBe('accesso');
  });

  it('a replayed Response (same InResponseTo) is refused and changes nothing', async () => {
    const who = person();
    const userId = await createAccount(who.taxCode, true);
    const c = browser();
    const { samlResponse } = await startLogin(c, who);
    expect((await post(c, samlResponse)).outcome).toBe('accesso');
    const replay = browser();
    replay.setCookie('identity.spid', c.cookie('identity.spid') ?? 'x', '/api/auth/spid/');
    expect(await post(replay, samlResponse)).toEqual({ outcome: 'errore', failure: 'state_replayed' });
    expect(replay.refreshCookie()).toBeUndefined();
    const rows = await t.database.db.select().from(userIdentities).where(eq(userIdentities.userId, userId));
    expect(rows).toHaveLength(1);
  });

  it('a Response posted by another browser, a tampered assertion, and garbage', async () => {
    const who = person();
    const { samlResponse } = await startLogin(browser(), who);
    expect((await post(browser(), samlResponse)).failure).toBe('browser_mismatch');

    const c = browser();
    const second = await startLogin(c, who);
    const xml = Buffer.from(second.samlResponse, 'base64').toString('utf8').replace('Stefano', 'Mallory');
    expect((await post(c, Buffer.from(xml).toString('base64'))).failure).toBe('signature_invalid');

    expect((await post(browser(), 'bm90IHhtbA==')).failure).toBe('saml_invalid');
  });
});
