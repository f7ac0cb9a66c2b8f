// The local OpenID Connect provider (like CIE) as the e2e specs may use it: e2e imports only the API's
// `*-fixtures.ts` test support (eslint), as with the SAML identity provider.
export { startOidcProvider, TEST_PEOPLE, type TestOidcProvider } from './oidc-provider.ts';
