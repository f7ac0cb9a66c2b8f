// `npm start` in development (decisions 048 and 052): a local CIE (OpenID Connect) and a local SPID
// (SAML) provider, each with a page where a newcomer picks one of the fictitious test people, so the
// login with CIE/SPID can be tried with no internet and no onboarding. Started by scripts/start.mjs
// before the API, which it configures through one line on stdout:
//   DEV_IDENTITY_ENV {"CIE_ISSUER":…,"SPID_IDP_METADATA":…,…}
// Never in production (start.mjs does not start it there, and the API shows the test providers only
// outside production). Stops on SIGTERM/SIGINT with its servers.
import { startOidcProvider } from './oidc-provider.ts';
import { startSamlIdp } from './saml-idp-fixtures.ts';

const apiOrigin = (process.argv[2] ?? 'http://localhost:8000').replace(/\/$/, '');
// The SAML provider's URLs use the API's host name, so that its form posts to a same-site ACS.
const host = new URL(apiOrigin).hostname;

// The web's home, where the provider sends the browser back after its logout (RP-initiated logout).
const webOrigin = (process.argv[3] ?? 'http://localhost:3000').replace(/\/$/, '');
const cie = await startOidcProvider(`${apiOrigin}/api/auth/cie/callback`, {
  chooser: true,
  postLogoutRedirectUri: `${webOrigin}/`,
});
const spid = await startSamlIdp({
  spEntityId: `${apiOrigin}/spid`,
  host,
  name: 'SPID di prova (sviluppo locale)',
  chooser: true,
});

const env = {
  CIE_ISSUER: cie.issuer,
  CIE_CLIENT_ID: cie.clientId,
  CIE_PRIVATE_JWK: JSON.stringify(cie.privateJwk),
  CIE_REDIRECT_BASE: apiOrigin,
  SPID_ENTITY_ID: `${apiOrigin}/spid`,
  SPID_BASE_URL: apiOrigin,
  SPID_PRIVATE_KEY: spid.sp.privateKeyPem,
  SPID_CERTIFICATE: spid.sp.certificatePem,
  SPID_IDP_METADATA: spid.metadataFile,
  IDENTITY_TEST_PROVIDERS: 'on',
};
process.stdout.write(`DEV_IDENTITY_ENV ${JSON.stringify(env)}\n`);

let closing = false;
const close = () => {
  if (closing) return;
  closing = true;
  void Promise.allSettled([cie.close(), spid.close()]).then(() => process.exit(0));
  setTimeout(() => process.exit(0), 3_000).unref();
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
