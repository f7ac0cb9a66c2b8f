import {
  SAML_PEOPLE,
  startSamlIdp,
  type TestSamlIdp,
} from '../../apps/api/test/support/saml-idp-fixtures.ts';
import { appReady, expect, expectAccessibleAtBothWidths, rememberConsentChoice, test } from '../fixtures.ts';
import { ownOutbox, smsCode } from '../outbox.ts';
import { startOwnApi, type OwnApi } from '../own-api.ts';
import { ENROLLED_PASSWORD, ENROLLED_PRINCIPAL_TAX_CODE, enrolInstitute } from '../registrations.ts';

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
          // The registry's sample: a principal enrols an institute of it and signs its adhesion.
          SEED_REGISTRY: 'sample',
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

  test('a principal logs in with SPID, links it with the password and signs the adhesion as the verified person', async ({
    page,
    context,
  }) => {
    test.setTimeout(240_000);
    const outbox = ownOutbox('spid');
    // A school enrolled through the API (as the enrolment form does): its principal typed the codice
    // fiscale by hand, and chose a password from the invitation.
    const school = await enrolInstitute(webOrigin, { apiOrigin: own!.apiOrigin, outbox });
    await rememberConsentChoice(context, webOrigin);
    idp!.next({
      spidCode: `e2e-principal-${Date.now()}`,
      name: 'Elisa',
      familyName: 'Nerini',
      fiscalNumber: `TINIT-${ENROLLED_PRINCIPAL_TAX_CODE}`,
      dateOfBirth: '1975-03-10',
    });
    await page.goto(`${webOrigin}/auth/login`);
    await page.getByRole('button', { name: 'Entra con SPID' }).click();
    await page.getByRole('link', { name: 'SPID di prova' }).click();
    await page.waitForURL(/\/auth\/identita/);
    // The account's codice fiscale was only typed: its password proves it is theirs.
    await expect(page.getByRole('heading', { level: 1, name: 'Collega SPID al tuo account' })).toBeVisible();
    await expectAccessibleAtBothWidths(page);
    await page.getByLabel('Password dell’account').fill(ENROLLED_PASSWORD);
    await page.getByRole('button', { name: 'Collega e accedi' }).click();

    // Signed in as the principal: the guard sends them to the adhesion, signed as the verified person.
    await expect(page).toHaveURL(/\/iscrizioni\/adesione-formale$/);
    await appReady(page);
    await expect(page.getByText(/Identità verificata con SPID il /)).toBeVisible();
    await expectAccessibleAtBothWidths(page);
    await page.getByRole('button', { name: 'Invia il codice via SMS' }).click();
    await page
      .getByLabel('Codice ricevuto via SMS')
      .fill(await smsCode(school.principal.phone, outbox, 'sms.firma-adesione'));
    await page.getByRole('button', { name: 'Conferma la firma' }).click();
    await expect(page.getByTestId('signed-notice')).toContainText('Adesione firmata');
  });
});
