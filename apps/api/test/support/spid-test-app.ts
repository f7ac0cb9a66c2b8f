import { buildTestApp, type TestApp } from '../build-test-app.ts';
import { startSamlIdp, type TestSamlIdp } from './saml-idp-fixtures.ts';

/** The API's public base and our SAML entity id in the SPID tests (decision 052). */
export const SPID_BASE = 'http://api.test';
export const SPID_SP_ENTITY_ID = 'https://portale-scuole.example.it/spid';

/**
 * A local SPID identity provider and a test API configured with it; `spSloUrl` makes the provider
 * send its logout messages to our single logout service. `close` stops both.
 */
export async function startSpidTestApp(options: { spSloUrl?: string } = {}) {
  const idp: TestSamlIdp = await startSamlIdp({ spEntityId: SPID_SP_ENTITY_ID, ...options });
  const t: TestApp = await buildTestApp({
    SPID_ENTITY_ID: SPID_SP_ENTITY_ID,
    SPID_BASE_URL: SPID_BASE,
    SPID_PRIVATE_KEY: idp.sp.privateKeyPem,
    SPID_CERTIFICATE: idp.sp.certificatePem,
    SPID_IDP_METADATA: idp.metadataFile,
    SPID_IPA_CODE: 'c_h501',
  });
  return {
    idp,
    t,
    close: async () => {
      await t.close();
      await idp.close();
    },
  };
}
