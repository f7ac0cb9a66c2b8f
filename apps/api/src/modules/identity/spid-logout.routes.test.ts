import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { taxCodeCheckChar } from '@portale/shared/accounts';
import { AUTH_PATHS, LogoutResultSchema } from '@portale/shared/http';
import { IDENTITY_RESULT_PATH, spidAcs, spidLogout, spidStart } from '@portale/shared/identity';
import { UserDetailSchema } from '@portale/shared/users';
import { auditLog, authSessions, spidSessions, users } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { SPID_BASE, SPID_SP_ENTITY_ID, startSpidTestApp } from '../../../test/support/spid-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { loginAtIdp, type LogoutFault, type TestSamlIdp } from '../../../test/support/saml-idp-fixtures.ts';

const BASE = SPID_BASE;
const SP_ENTITY_ID = SPID_SP_ENTITY_ID;
const SLO = `${BASE}${spidLogout.path}`;
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

let idp: TestSamlIdp;
let t: TestApp;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ idp, t, close } = await startSpidTestApp({ spSloUrl: SLO }));
});
afterAll(() => close?.());

const cf = (first15: string) => first15 + taxCodeCheckChar(first15);
let serial = 0;
const browser = () => new ApiClient(t, nextIp());

/** A verified account signed in through SPID: its browser, user, session and what the provider issued. */
async function spidSignedIn() {
  serial += 1;
  const taxCode = cf(`RSSMRA80A01H${String(500 + serial).padStart(3, '0')}`);
  const [user] = await t.database.db
    .insert(users)
    .values({
      email: `slo${serial}@scuola.it`,
      passwordHash: await hashPassword('Quaderno-Girasole-47'),
      firstName: 'Mario',
      lastName: 'Rossi',
      taxCode,
      emailVerifiedAt: t.clock.now(),
      taxCodeVerifiedAt: t.clock.now(),
      taxCodeVerifiedSource: 'cie',
    })
    .returning({ id: users.id });
  const c = browser();
  const start = await c.get(`${spidStart.path}?idp=${encodeURIComponent(idp.entityId)}`);
  idp.next({
    spidCode: `SPID-SLO-${serial}-${Math.random().toString(36).slice(2)}`,
    name: 'Mario',
    familyName: 'Rossi',
    dateOfBirth: '1980-01-01',
    fiscalNumber: `TINIT-${taxCode}`,
  });
  const { samlResponse } = await loginAtIdp(start.headers.location!);
  const acs = await c.post(spidAcs.path, `SAMLResponse=${encodeURIComponent(samlResponse)}`, {
    xsrf: false,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
  });
  expect(new URL(acs.headers.location!).searchParams.get('esito')).toBe('accesso');
  const issued = idp.lastIssued()!;
  expect((await c.refresh()).statusCode).toBe(200);
  const [session] = await t.database.db
    .select({ id: authSessions.id })
    .from(authSessions)
    .where(and(eq(authSessions.userId, user!.id)));
  return { c, userId: user!.id, sessionId: session!.id, issued };
}

const spidRow = async (sessionId: number) =>
  (await t.database.db.select().from(spidSessions).where(eq(spidSessions.sessionId, sessionId)))[0];

const auditsOf = async (action: string) =>
  t.database.db.select().from(auditLog).where(eq(auditLog.action, action));

/** Our logout: its answer, parsed with the contract. */
async function logout(c: ApiClient) {
  const res = await c.post(AUTH_PATHS.logout);
  expect(res.statusCode).toBe(200);
  return LogoutResultSchema.parse(res.json()).providerLogoutUrl;
}

/** The browser at the provider's single logout service: where it is sent back (our SLO with its answer). */
async function atProvider(url: string, fault: LogoutFault = {}): Promise<string> {
  idp.nextLogout(fault);
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return res.headers.get('location')!;
}

/** A browser navigation to our SLO (a full URL on BASE): where we send it. */
async function toSlo(c: ApiClient, url: string) {
  const res = await c.get(url.slice(BASE.length));
  expect(res.statusCode).toBe(302);
  return new URL(res.headers.location!);
}

const failureOf = (location: URL) => {
  expect(location.pathname).toBe(IDENTITY_RESULT_PATH);
  expect(location.searchParams.get('esito')).toBe('uscita');
  return location.searchParams.get('codice');
};

describe('logout started here (SP-initiated)', () => {
  it('keeps NameID, format, SessionIndex and the provider with the session opened by SPID', async () => {
    const { sessionId, issued, userId } = await spidSignedIn();
    // Staff see on the user's page how they last logged in: SPID, with its level.
    const staff = browser();
    await staff.login('superadmin@demo.test');
    const detail = UserDetailSchema.parse((await staff.get(`/api/users/${userId}`)).json());
    expect(detail.lastLogin).toMatchObject({ method: 'spid', acr: 'https://www.spid.gov.it/SpidL2' });
    expect(await spidRow(sessionId)).toMatchObject({
      idpEntityId: idp.entityId,
      nameId: issued.nameId,
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
      sessionIndex: issued.sessionIndex,
      logoutRequestId: null,
      providerLoggedOutAt: null,
    });
  });

  it('round trip: our session ends, the provider gets a signed LogoutRequest, its LogoutResponse brings the browser home', async () => {
    const { c, sessionId, issued } = await spidSignedIn();
    const url = await logout(c);
    expect(url).toMatch(new RegExp(`^${idp.entityId}/slo\\?SAMLRequest=`));
    // Our side is over at once.
    expect((await c.refresh()).statusCode).toBe(401);
    expect((await auditsOf('auth.logout')).some((a) => a.entityId === String(sessionId))).toBe(true);

    const back = await atProvider(url!);
    const request = idp.lastLogoutRequest()!;
    expect(request.signatureValid).toBe(true);
    expect(request.sigAlg).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    const root = request.doc.documentElement;
    expect(root.localName).toBe('LogoutRequest');
    expect(root.getAttribute('Destination')).toBe(`${idp.entityId}/slo`);
    expect(request.xml).toContain(
      `NameQualifier="${SP_ENTITY_ID}" Format="urn:oasis:names:tc:SAML:2.0:nameid-format:entity">`,
    );
    expect(request.xml).toContain(`NameQualifier="${idp.entityId}">${issued.nameId}</saml:NameID>`);
    expect(request.xml).toContain(`>${issued.sessionIndex}</saml2p:SessionIndex>`);
    expect((await spidRow(sessionId))?.logoutRequestId).toBe(request.id);

    const home = await toSlo(browser(), back);
    expect(home.pathname).toBe('/');
    expect(home.search).toBe('');
    expect((await spidRow(sessionId))?.providerLoggedOutAt).not.toBeNull();
    const [requested] = (await auditsOf('identity.logout.requested')).filter(
      (a) => a.entityId === String(sessionId),
    );
    expect(requested?.after).toEqual({ idp: idp.entityId });
    expect((await auditsOf('identity.logout.completed')).some((a) => a.entityId === String(sessionId))).toBe(
      true,
    );
    // The same answer again is refused (and changes nothing).
    expect(failureOf(await toSlo(browser(), back))).toBe('logout_replayed');
  });

  it('a second logout of the same session asks the provider nothing', async () => {
    const { c } = await spidSignedIn();
    const refresh = c.refreshCookie()!;
    expect(await logout(c)).not.toBeNull();
    c.setCookie('auth._refresh_token.local', refresh);
    await c.csrf();
    expect(await logout(c)).toBeNull();
  });

  it('refuses a tampered, unsigned, foreign-signed, misdirected or failed LogoutResponse: audited, nothing changed', async () => {
    const { c, sessionId } = await spidSignedIn();
    const url = (await logout(c))!;
    const cases: [LogoutFault, string][] = [
      [{ tamper: true }, 'logout_signature_invalid'],
      [{ sign: 'none' }, 'logout_signature_invalid'],
      [{ sign: 'other-key' }, 'logout_signature_invalid'],
      [{ issuer: 'https://idp.altro.example' }, 'logout_issuer_mismatch'],
      [{ destination: 'https://altro.example/slo' }, 'logout_destination_invalid'],
      [{ inResponseTo: '_sconosciuta' }, 'logout_unknown'],
      [{ status: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }, 'logout_provider_error'],
    ];
    for (const [fault, failure] of cases) {
      const before = (await auditsOf(`identity.logout.${failure}`)).length;
      expect(failureOf(await toSlo(browser(), await atProvider(url, fault))), JSON.stringify(fault)).toBe(
        failure,
      );
      expect((await auditsOf(`identity.logout.${failure}`)).length).toBe(before + 1);
      expect((await spidRow(sessionId))?.providerLoggedOutAt).toBeNull();
    }
    // The provider's genuine answer is still taken afterwards.
    expect((await toSlo(browser(), await atProvider(url))).pathname).toBe('/');
  });

  it('refuses what is no logout message at all, never a 500', async () => {
    for (const query of [
      '',
      '?SAMLResponse=%%%',
      '?SAMLResponse=bm90IHhtbA%3D%3D',
      '?SAMLRequest=a&SAMLResponse=b',
    ])
      expect(failureOf(await toSlo(browser(), `${SLO}${query}`))).toBe('logout_invalid');
  });

  it('a password session logs out as before: no provider URL, no SPID audit', async () => {
    const c = browser();
    await c.login('dirigente@demo.test');
    const before = (await auditsOf('identity.logout.requested')).length;
    expect(await logout(c)).toBeNull();
    expect((await c.refresh()).statusCode).toBe(401);
    expect((await auditsOf('identity.logout.requested')).length).toBe(before);
    // And without any session.
    const guest = browser();
    await guest.csrf();
    expect(await logout(guest)).toBeNull();
  });
});

describe('logout started at the provider (IdP-initiated)', () => {
  it('ends the matching session (refresh then fails) and answers with a signed LogoutResponse', async () => {
    const { c, sessionId, userId, issued } = await spidSignedIn();
    const token = c.token!;
    const target = await toSlo(browser(), idp.logoutRequestUrl(issued, {}, 'stato-123'));
    expect(`${target.origin}${target.pathname}`).toBe(`${idp.entityId}/slo`);
    await fetch(target);
    const answer = idp.lastLogoutResponse()!;
    expect(answer.signatureValid).toBe(true);
    expect(answer.relayState).toBe('stato-123');
    expect(answer.xml).toContain(`<samlp:StatusCode Value="${SUCCESS}"/>`);
    expect(answer.xml).toContain(
      `NameQualifier="${SP_ENTITY_ID}" Format="urn:oasis:names:tc:SAML:2.0:nameid-format:entity">`,
    );
    expect(c.refreshCookie()).toBeDefined();
    expect((await c.refresh()).statusCode).toBe(401);
    const me = await t.app.inject({
      method: 'GET',
      url: AUTH_PATHS.me,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(401);
    const [audit] = (await auditsOf('identity.logout.provider')).filter(
      (a) => a.entityId === String(sessionId),
    );
    expect(audit?.actorUserId).toBe(userId);
    const [row] = await t.database.db.select().from(authSessions).where(eq(authSessions.id, sessionId));
    expect(row?.revokedReason).toBe('spid_logout');
  });

  it('a LogoutRequest naming no session of ours: answered UnknownPrincipal, nothing changed, audited', async () => {
    const { c, issued } = await spidSignedIn();
    const before = (await auditsOf('identity.logout.unknown_session')).length;
    const target = await toSlo(browser(), idp.logoutRequestUrl({ nameId: '_nessuno' }));
    await fetch(target);
    expect(idp.lastLogoutResponse()!.xml).toContain('urn:oasis:names:tc:SAML:2.0:status:UnknownPrincipal');
    expect((await auditsOf('identity.logout.unknown_session')).length).toBe(before + 1);
    // Same NameID, another SessionIndex: not this session either.
    await toSlo(browser(), idp.logoutRequestUrl({ nameId: issued.nameId, sessionIndex: '_altra' }));
    expect((await c.refresh()).statusCode).toBe(200);
  });

  it('refuses an unsigned, tampered, foreign or misdirected LogoutRequest: the session lives, audited', async () => {
    const { c, issued } = await spidSignedIn();
    const cases: [LogoutFault, string][] = [
      [{ sign: 'none' }, 'logout_signature_invalid'],
      [{ tamper: true }, 'logout_signature_invalid'],
      [{ sign: 'other-key' }, 'logout_signature_invalid'],
      [{ issuer: 'https://idp.altro.example' }, 'logout_issuer_mismatch'],
      [{ destination: 'https://altro.example/slo' }, 'logout_destination_invalid'],
    ];
    for (const [fault, failure] of cases) {
      const before = (await auditsOf(`identity.logout.${failure}`)).length;
      expect(
        failureOf(await toSlo(browser(), idp.logoutRequestUrl(issued, fault))),
        JSON.stringify(fault),
      ).toBe(failure);
      expect((await auditsOf(`identity.logout.${failure}`)).length).toBe(before + 1);
    }
    expect((await c.refresh()).statusCode).toBe(200);
  });

  it('is public but acts only on the sessions the signed message names, whoever sends it', async () => {
    const alice = await spidSignedIn();
    const bob = await spidSignedIn();
    // Bob's signed-in browser carries the provider's LogoutRequest for Alice: Alice's session ends, Bob's lives.
    const res = await bob.c.get(idp.logoutRequestUrl(alice.issued).slice(BASE.length));
    expect(res.statusCode).toBe(302);
    expect((await alice.c.refresh()).statusCode).toBe(401);
    expect((await bob.c.refresh()).statusCode).toBe(200);
    // A signed-in staff member gets no more than a guest: a forged request changes nothing.
    const staff = browser();
    await staff.login('superadmin@demo.test');
    const forged = await staff.get(idp.logoutRequestUrl(bob.issued, { sign: 'none' }).slice(BASE.length));
    expect(failureOf(new URL(forged.headers.location!))).toBe('logout_signature_invalid');
    expect((await bob.c.refresh()).statusCode).toBe(200);
  });

  it('without SPID configured the route answers 404', async () => {
    const off = await buildTestApp();
    try {
      expect((await new ApiClient(off, nextIp()).get(spidLogout.path)).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});
