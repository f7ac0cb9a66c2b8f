import {
  SAML_PEOPLE,
  startSamlIdp,
  type TestSamlIdp,
} from '../../apps/api/test/support/saml-idp-fixtures.ts';
import { expect, expectAccessibleAtBothWidths, test } from '../fixtures.ts';
import { startOwnApi, type OwnApi } from '../own-api.ts';

// The shared e2e API has no SPID: this spec starts a local SAML identity provider (decision 052), an
// API configured with it, and a web server for that API, all on this machine.
let own: OwnApi | undefined;
let idp: TestSamlIdp | undefined;
let webOrigin = '';

test.describe('login with SPID through a local identity provider', () => {
  // A machine shared with other runs may take minutes to start a second API (migrations on PGlite).
  test.describe.configure({ mode: 'serial', timeout: 360_000 });

  test.beforeAll(async () => {
    own = await startOwnApi({
      name: 'spid',
      env: async ({ apiOrigin }) => {
        // `localhost` like the API: the provider's form then posts to a same-site ACS.
        idp = await startSamlIdp({
          spEntityId: `${apiOrigin}/spid`,
          host: 'localhost',
          name: 'SPID di prova',
        });
        return {
          SPID_ENTITY_ID: `${apiOrigin}/spid`,
          SPID_BASE_URL: apiOrigin,
          SPID_PRIVATE_KEY: idp.sp.privateKeyPem,
          SPID_CERTIFICATE: idp.sp.certificatePem,
          SPID_IDP_METADATA: idp.metadataFile,
        };
      },
    });
    webOrigin = own.webOrigin;
  });

  test.afterAll(async () => {
    own?.stop();
    await idp?.close();
  });

  test('the AgID button lists the provider; a new person comes back with the verified data', async ({
    page,
  }) => {
    await page.goto(`${webOrigin}/auth/login`);
    const button = page.getByRole('button', { name: 'Entra con SPID' });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const provider = page.getByRole('link', { name: 'SPID di prova' });
    await expect(provider).toBeVisible();
    await expectAccessibleAtBothWidths(page);
    // The keyboard: Escape closes the list and the focus is back on the button.
    await provider.focus();
    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(button).toBeFocused();

    idp!.next({ ...SAML_PEOPLE.noEmail, spidCode: `e2e-${Date.now()}` });
    await button.click();
    await provider.click();
    await page.waitForURL(/\/auth\/identita/);
    await expect(page.getByText('Elena', { exact: true })).toBeVisible();
    await expect(page.getByText('Conti', { exact: true })).toBeVisible();
    await expectAccessibleAtBothWidths(page);
  });
});
