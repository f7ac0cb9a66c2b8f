// `npm start`'s local test providers (decisions 048, 052): with no person named by a test, each asks
// the browser to choose one of the fictitious people, and the chosen one completes the login through
// the real relying party; the providers' list says they are test providers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDENTITY_RESULT_PATH,
  cieStart,
  identityProviders,
  pendingIdentity,
  spidAcs,
  spidStart,
} from '@portale/shared/identity';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';
import { browse, startOidcProvider, type TestOidcProvider } from './support/oidc-provider.ts';
import { startSamlIdp, type TestSamlIdp } from './support/saml-idp-fixtures.ts';

const BASE = 'http://api.test';
let op: TestOidcProvider;
let idp: TestSamlIdp;
let t: TestApp;
beforeAll(async () => {
  op = await startOidcProvider(`${BASE}/api/auth/cie/callback`, { chooser: true });
  idp = await startSamlIdp({
    spEntityId: `${BASE}/spid`,
    name: 'SPID di prova (sviluppo locale)',
    chooser: true,
  });
  t = await buildTestApp({
    CIE_ISSUER: op.issuer,
    CIE_CLIENT_ID: op.clientId,
    CIE_PRIVATE_JWK: JSON.stringify(op.privateJwk),
    CIE_REDIRECT_BASE: BASE,
    SPID_ENTITY_ID: `${BASE}/spid`,
    SPID_BASE_URL: BASE,
    SPID_PRIVATE_KEY: idp.sp.privateKeyPem,
    SPID_CERTIFICATE: idp.sp.certificatePem,
    SPID_IDP_METADATA: idp.metadataFile,
    IDENTITY_TEST_PROVIDERS: 'on',
  });
});
afterAll(async () => {
  await t?.close();
  await op?.close();
  await idp?.close();
});

/** The chooser's link for a person, as the browser follows it. */
function linkTo(html: string, label: string, page: URL): string {
  const match = new RegExp(`<a href="([^"]+)">${label}</a>`).exec(html);
  expect(match, `a link for ${label}`).not.toBeNull();
  return new URL(match![1]!.replace(/&#38;/g, '&'), page).href;
}

describe('npm start’s local test providers', () => {
  it('are listed as test providers', async () => {
    const body = (await new ApiClient(t, nextIp()).get(identityProviders.path)).json();
    expect(body).toMatchObject({ cie: true, spid: true, testProviders: true });
  });

  it('CIE: the provider asks which test person, and the chosen one reaches our callback', async () => {
    const c = new ApiClient(t, nextIp());
    const start = await c.get(cieStart.path);
    const cookies = new Map<string, string>();
    const chooser = await browse(start.headers.location!, BASE, cookies);
    expect(chooser.html).toContain('<h1>CIE di prova</h1>');
    expect(chooser.html).toContain('Provider di prova per lo sviluppo locale');
    const back = await browse(linkTo(chooser.html!, 'Giulia Verdi', chooser.url), BASE, cookies);
    expect(back.url.pathname).toBe('/api/auth/cie/callback');
    const res = await c.get(`${back.url.pathname}${back.url.search}`);
    const result = new URL(res.headers.location!);
    expect(result.pathname).toBe(IDENTITY_RESULT_PATH);
    // Nobody has Giulia Verdi's codice fiscale here: the registration is offered, prefilled; CIE gives
    // no e-mail.
    expect(result.searchParams.get('esito')).toBe('registrazione');
    expect((await c.get(pendingIdentity.path)).json()).toMatchObject({
      provider: 'cie',
      kind: 'register',
      firstName: 'Giulia',
      email: null,
      phone: null,
    });
  });

  it('SPID: the provider asks which test person, and the chosen one is posted to our ACS', async () => {
    const c = new ApiClient(t, nextIp());
    const start = await c.get(`${spidStart.path}?idp=${encodeURIComponent(idp.entityId)}`);
    const chooser = await browse(start.headers.location!, BASE);
    expect(chooser.html).toContain('<h1>SPID di prova (sviluppo locale)</h1>');
    const form = await browse(linkTo(chooser.html!, 'Paola Galli', chooser.url), BASE);
    const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(form.html ?? '')![1]!;
    const res = await c.post(spidAcs.path, `SAMLResponse=${encodeURIComponent(samlResponse)}`, {
      xsrf: false,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'cross-site',
        origin: idp.entityId,
      },
    });
    const result = new URL(res.headers.location!);
    expect(result.pathname).toBe(IDENTITY_RESULT_PATH);
    expect(result.searchParams.get('esito')).toBe('registrazione');
    // SPID gave the e-mail and the mobile phone: the registration offers them.
    expect((await c.get(pendingIdentity.path)).json()).toMatchObject({
      provider: 'spid',
      kind: 'register',
      firstName: 'Paola',
      email: 'paola.galli@example.it',
      phone: '+393331234567',
    });
  });
});
