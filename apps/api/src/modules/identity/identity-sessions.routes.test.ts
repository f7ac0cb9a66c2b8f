import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { taxCodeCheckChar } from '@portale/shared/accounts';
import { AUTH_PATHS, LogoutResultSchema } from '@portale/shared/http';
import { cieStart, linkIdentity, spidAcs, spidStart } from '@portale/shared/identity';
import { UserDetailSchema } from '@portale/shared/users';
import {
  auditLog,
  authSessions,
  cieSessions,
  pendingIdentities,
  roles,
  spidSessions,
  userRoles,
  users,
} from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import {
  loginAtProvider,
  startOidcProvider,
  type TestOidcProvider,
} from '../../../test/support/oidc-provider.ts';
import { loginAtIdp, startSamlIdp, type TestSamlIdp } from '../../../test/support/saml-idp-fixtures.ts';
import { levelCountsAsSecondFactor } from '../auth/mfa-login.ts';

// One API with both providers (decisions 048, 052): the session's level, staff MFA by that level, the
// provider's logout of a CIE session, and the logout data of a session opened by a pending link.
const BASE = 'http://api.test';
const CIE_CALLBACK = `${BASE}/api/auth/cie/callback`;
const WEB = 'http://127.0.0.1:3000';
const SPID_ENTITY = 'https://portale-scuole.example.it/spid';
const PASSWORD = 'Quaderno-Girasole-47';
const L2 = 'https://www.spid.gov.it/SpidL2';
const L3 = 'https://www.spid.gov.it/SpidL3';

let op: TestOidcProvider;
let idp: TestSamlIdp;
let t: TestApp;
beforeAll(async () => {
  op = await startOidcProvider(CIE_CALLBACK, { postLogoutRedirectUri: `${WEB}/` });
  idp = await startSamlIdp({ spEntityId: SPID_ENTITY });
  t = await buildTestApp({
    WEB_ORIGIN: WEB,
    CIE_ISSUER: op.issuer,
    CIE_CLIENT_ID: op.clientId,
    CIE_PRIVATE_JWK: JSON.stringify(op.privateJwk),
    CIE_REDIRECT_BASE: BASE,
    SPID_ENTITY_ID: SPID_ENTITY,
    SPID_BASE_URL: BASE,
    SPID_PRIVATE_KEY: idp.sp.privateKeyPem,
    SPID_CERTIFICATE: idp.sp.certificatePem,
    SPID_IDP_METADATA: idp.metadataFile,
  });
});
afterAll(async () => {
  await t?.close();
  await op?.close();
  await idp?.close();
});

const cf = (first15: string) => first15 + taxCodeCheckChar(first15);
let serial = 0;
const browser = () => new ApiClient(t, nextIp());

/** An account (verified codice fiscale unless `declared`), with a staff role when `role` is given. */
async function account(options: { role?: string; declared?: boolean } = {}) {
  serial += 1;
  const taxCode = cf(`BNCLRA80A41H${String(700 + serial).padStart(3, '0')}`);
  const [user] = await t.database.db
    .insert(users)
    .values({
      email: `sess${serial}@scuola.it`,
      passwordHash: await hashPassword(PASSWORD),
      firstName: 'Laura',
      lastName: 'Bianchi',
      taxCode,
      emailVerifiedAt: t.clock.now(),
      ...(options.declared
        ? {}
        : { taxCodeVerifiedAt: t.clock.now(), taxCodeVerifiedSource: 'cie' as const }),
    })
    .returning({ id: users.id });
  if (options.role) {
    const [role] = await t.database.db
      .select({ id: roles.id })
      .from(roles)
      .where(eq(roles.name, options.role));
    await t.database.db.insert(userRoles).values({ userId: user!.id, roleId: role!.id });
  }
  const sub = `sess-${serial}-${Math.random().toString(36).slice(2)}`;
  const cie = { sub, given_name: 'Laura', family_name: 'Bianchi', fiscalNumber: `TINIT-${taxCode}` };
  const spid = {
    spidCode: `SPID-${sub}`,
    name: 'Laura',
    familyName: 'Bianchi',
    fiscalNumber: `TINIT-${taxCode}`,
  };
  return { userId: user!.id, email: `sess${serial}@scuola.it`, cie, spid };
}
type Account = Awaited<ReturnType<typeof account>>;

const outcomeOf = (location: string | undefined) => {
  const url = new URL(location!);
  return { outcome: url.searchParams.get('esito'), failure: url.searchParams.get('codice') };
};

/** A password login (or a link by password) from this browser: the XSRF pair first, as the web does. */
async function postWithXsrf(c: ApiClient, path: string, body: unknown) {
  await c.csrf();
  return c.post(path, body);
}

async function cieLogin(c: ApiClient, who: Account, acr = L2) {
  const start = await c.get(cieStart.path);
  op.next(who.cie, { acr });
  const back = await loginAtProvider(start.headers.location!, CIE_CALLBACK);
  return outcomeOf((await c.get(`${back.pathname}${back.search}`)).headers.location);
}

async function spidLogin(c: ApiClient, who: Account, acr = L2) {
  const start = await c.get(`${spidStart.path}?idp=${encodeURIComponent(idp.entityId)}`);
  idp.next(who.spid, { acr });
  const { samlResponse } = await loginAtIdp(start.headers.location!);
  const acs = await c.post(spidAcs.path, `SAMLResponse=${encodeURIComponent(samlResponse)}`, {
    xsrf: false,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
  });
  return outcomeOf(acs.headers.location);
}

/** The user's sessions, newest first. */
const sessionsOf = (userId: number) =>
  t.database.db
    .select()
    .from(authSessions)
    .where(eq(authSessions.userId, userId))
    .orderBy(desc(authSessions.id));

async function logout(c: ApiClient) {
  expect((await c.refresh()).statusCode).toBe(200);
  const res = await c.post(AUTH_PATHS.logout);
  expect(res.statusCode).toBe(200);
  return LogoutResultSchema.parse(res.json()).providerLogoutUrl;
}

const auditsOf = (action: string) => t.database.db.select().from(auditLog).where(eq(auditLog.action, action));

describe('the level a session was opened with', () => {
  it('counts SPID L2/L3 (and CIE) as the second factor, a password login (no level) or L1 not', () => {
    expect(levelCountsAsSecondFactor(L2)).toBe(true);
    expect(levelCountsAsSecondFactor(L3)).toBe(true);
    expect(levelCountsAsSecondFactor('https://www.spid.gov.it/SpidL1')).toBe(false);
    expect(levelCountsAsSecondFactor(null)).toBe(false);
  });

  it('is kept per session and audited; staff see the last session’s level beside the last login', async () => {
    const who = await account();
    expect((await cieLogin(browser(), who, L3)).outcome).toBe('accesso');
    expect((await spidLogin(browser(), who, L2)).outcome).toBe('accesso');
    const [spidSession, cieSession] = await sessionsOf(who.userId);
    expect(cieSession!.acr).toBe(L3);
    expect(spidSession!.acr).toBe(L2);
    const logins = (await auditsOf('auth.login')).filter((a) => a.actorUserId === who.userId);
    expect(logins.map((a) => a.after)).toEqual([
      { method: 'cie', acr: L3 },
      { method: 'spid', acr: L2 },
    ]);

    const staff = browser();
    await staff.login('superadmin@demo.test');
    const detail = UserDetailSchema.parse((await staff.get(`/api/users/${who.userId}`)).json());
    expect(detail.lastLogin).toMatchObject({ method: 'spid', acr: L2 });

    // A password login keeps no level.
    const pw = browser();
    expect(
      (await postWithXsrf(pw, AUTH_PATHS.login, { email: who.email, password: PASSWORD })).statusCode,
    ).toBe(200);
    expect((await sessionsOf(who.userId))[0]!.acr).toBeNull();
    const after = UserDetailSchema.parse((await staff.get(`/api/users/${who.userId}`)).json());
    expect(after.lastLogin).toMatchObject({ method: 'password', acr: null });
  });
});

describe('staff MFA by the session’s level', () => {
  it('signs staff in with SPID L2 or CIE without TOTP, with the level on the session', async () => {
    const staff = await account({ role: 'sylla' });
    const bySpid = browser();
    expect((await spidLogin(bySpid, staff, L2)).outcome).toBe('accesso');
    expect((await bySpid.refresh()).statusCode).toBe(200);
    expect((await sessionsOf(staff.userId))[0]!.acr).toBe(L2);
    const byCie = browser();
    expect((await cieLogin(byCie, staff, L2)).outcome).toBe('accesso');
    expect((await byCie.refresh()).statusCode).toBe(200);
    expect((await sessionsOf(staff.userId))[0]!.acr).toBe(L2);
  });

  it('still asks the same staff member for TOTP after the password, and refuses SPID L1', async () => {
    const staff = await account({ role: 'sylla' });
    const pw = browser();
    const step = await postWithXsrf(pw, AUTH_PATHS.login, { email: staff.email, password: PASSWORD });
    expect(step.statusCode).toBe(200);
    // Asked for TOTP: its code, or (no authenticator yet) its enrolment; no session, no token.
    const body = step.json<{ mfa_required?: boolean; mfa_enrolment_required?: boolean; token?: string }>();
    expect(body.mfa_required ?? body.mfa_enrolment_required).toBe(true);
    expect(body.token).toBeUndefined();
    expect(await sessionsOf(staff.userId)).toHaveLength(0);

    const low = browser();
    expect(await spidLogin(low, staff, 'https://www.spid.gov.it/SpidL1')).toEqual({
      outcome: 'errore',
      failure: 'level_insufficient',
    });
    expect(low.refreshCookie()).toBeUndefined();
    expect(await sessionsOf(staff.userId)).toHaveLength(0);
  });
});

describe('staff link below the second factor’s level', () => {
  it('is refused (403) with no session, even with the right password', async () => {
    const staff = await account({ role: 'sylla', declared: true });
    const c = browser();
    expect((await spidLogin(c, staff)).outcome).toBe('collega');
    // No provider answers below level 2 today (refused before): the pending row stands for one that would.
    await t.database.db
      .update(pendingIdentities)
      .set({ acr: 'https://www.spid.gov.it/SpidL1' })
      .where(eq(pendingIdentities.userId, staff.userId));
    const res = await postWithXsrf(c, linkIdentity.path, { password: PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toContain('livello di sicurezza');
    expect(await sessionsOf(staff.userId)).toHaveLength(0);
  });
});

describe('logout at CIE', () => {
  it('revokes the access token and sends the browser to the end_session_endpoint, once, audited', async () => {
    const who = await account();
    const c = browser();
    expect((await cieLogin(c, who)).outcome).toBe('accesso');
    const [session] = await sessionsOf(who.userId);
    const url = await logout(c);
    expect(url).not.toBeNull();
    const endSession = new URL(url!);
    expect(endSession.origin).toBe(op.issuer);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${WEB}/`);
    const hint = endSession.searchParams.get('id_token_hint')!;
    const claims = JSON.parse(Buffer.from(hint.split('.')[1]!, 'base64url').toString()) as { sub: string };
    expect(claims.sub).toBe(who.cie.sub);
    // The provider revoked the token (RFC 7009) and accepts the hint: its logout confirmation page.
    expect(op.revoked).toContain(who.cie.sub);
    const page = await fetch(url!, { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('logout');
    const tampered = new URL(url!);
    tampered.searchParams.set('id_token_hint', `${hint.slice(0, -4)}AAAA`);
    expect((await fetch(tampered, { redirect: 'manual' })).status).toBe(400);

    const [audit] = (await auditsOf('identity.logout.requested')).filter(
      (a) => a.entityId === String(session!.id),
    );
    expect(audit!.after).toMatchObject({ provider: 'cie', revoked: true, endSession: true });
    const [row] = await t.database.db
      .select()
      .from(cieSessions)
      .where(eq(cieSessions.sessionId, session!.id));
    expect(row!.logoutRequestedAt).not.toBeNull();
    expect(row!.idTokenSealed).not.toContain(hint.slice(0, 20));
  });

  it('asks nothing of a provider for a password session', async () => {
    const who = await account();
    const c = browser();
    expect(
      (await postWithXsrf(c, AUTH_PATHS.login, { email: who.email, password: PASSWORD })).statusCode,
    ).toBe(200);
    expect(await logout(c)).toBeNull();
  });
});

describe('a session opened by a pending link keeps the logout data', () => {
  it('SPID: the link with the password opens a session single logout reaches', async () => {
    const who = await account({ declared: true });
    const c = browser();
    expect((await spidLogin(c, who)).outcome).toBe('collega');
    expect((await postWithXsrf(c, linkIdentity.path, { password: PASSWORD })).statusCode).toBe(200);
    const [session] = await sessionsOf(who.userId);
    expect(session!.acr).toBe(L2);
    const [row] = await t.database.db
      .select()
      .from(spidSessions)
      .where(eq(spidSessions.sessionId, session!.id));
    expect(row).toMatchObject({ idpEntityId: idp.entityId, nameId: idp.lastIssued()!.nameId });
    const url = await logout(c);
    expect(url).toContain('SAMLRequest=');
  });

  it('CIE: the link with the password opens a session whose logout reaches the provider', async () => {
    const who = await account({ declared: true });
    const c = browser();
    expect((await cieLogin(c, who)).outcome).toBe('collega');
    expect((await postWithXsrf(c, linkIdentity.path, { password: PASSWORD })).statusCode).toBe(200);
    const [session] = await sessionsOf(who.userId);
    expect(session!.acr).toBe(L2);
    const rows = await t.database.db
      .select()
      .from(cieSessions)
      .where(and(eq(cieSessions.sessionId, session!.id)));
    expect(rows).toHaveLength(1);
    const url = await logout(c);
    expect(new URL(url!).origin).toBe(op.issuer);
    expect(op.revoked).toContain(who.cie.sub);
  });
});
