import { createGuardrails, generate } from 'otplib';
import {
  startOidcProvider,
  type TestOidcProvider,
} from '../../apps/api/test/support/oidc-provider-fixtures.ts';
import {
  SAML_PEOPLE,
  startSamlIdp,
  type TestSamlIdp,
} from '../../apps/api/test/support/saml-idp-fixtures.ts';
import {
  appReady,
  expect,
  expectAccessibleAtBothWidths,
  rememberConsentChoice,
  submitLogin,
  test,
} from '../fixtures.ts';
import { DEMO_PASSWORD } from '../demo-accounts.ts';
import { ownOutbox, smsCode } from '../outbox.ts';
import { startOwnApi, type OwnApi } from '../own-api.ts';
import { ENROLLED_PASSWORD, ENROLLED_PRINCIPAL_TAX_CODE, enrolInstitute } from '../registrations.ts';

// Issue 38's journeys that need the browser and the whole system: an API with MFA on (the default MFA
// roles), SPID and CIE configured with local providers (CIE's with the chooser page `npm start` shows),
// and its web server. What the API decides per case (the session's level, TOTP after a password, the
// linking rules) is proved in the API tests (identity-sessions.routes.test.ts, identity.routes.test.ts);
// here a person walks the pages across the providers. The SPID button and a principal who signs as the
// verified person share this API (one more own API would cost CI a minute of start-up).
const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
const totp = () =>
  generate({ secret: DEMO_TOTP_SECRET, guardrails: createGuardrails({ MIN_SECRET_BYTES: 10 }) });
// Stefano Sylla's codice fiscale (valid check character), declared on his account page.
const SYLLA_TAX_CODE = 'SYLSFN80A01H501U';

let own: OwnApi | undefined;
let idp: TestSamlIdp | undefined;
let op: TestOidcProvider | undefined;
let webOrigin = '';

test.describe('SPID and CIE journeys (issue 38)', () => {
  // A machine shared with other runs may take minutes to start a second API (migrations on PGlite).
  test.describe.configure({ mode: 'serial', timeout: 360_000 });

  test.beforeAll(async () => {
    // Starting the API seeds two provinces of schools on PGlite: slower than the default hook budget.
    test.setTimeout(360_000);
    own = await startOwnApi({
      name: 'identity-journeys',
      env: async ({ apiOrigin, webOrigin: web }) => {
        // `localhost` like the API: the provider's form then posts to a same-site ACS.
        idp = await startSamlIdp({
          spEntityId: `${apiOrigin}/spid`,
          host: 'localhost',
          name: 'SPID di prova',
        });
        op = await startOidcProvider(`${apiOrigin}/api/auth/cie/callback`, {
          chooser: true,
          postLogoutRedirectUri: `${web}/`,
        });
        return {
          // Two provinces of schools (Roma, Pavia): the registration picks a plesso.
          SEED_REGISTRY: 'sample',
          CIE_ISSUER: op.issuer,
          CIE_CLIENT_ID: op.clientId,
          CIE_PRIVATE_JWK: JSON.stringify(op.privateJwk),
          CIE_REDIRECT_BASE: apiOrigin,
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
    await op?.close();
  });

  // Justified in the browser: the provider's chooser, the result page, the registration form filled
  // by the verified data (read-only) and the next login through CIE cross the web, the API and the
  // provider; the API tests prove each rule, not that the pages lead from one to the next.
  test('a teacher registers through CIE: chooser, prefilled registration, account created, then signed in by CIE', async ({
    page,
  }) => {
    await page.goto(`${webOrigin}/landing/registrazioni/insegnante`);
    await appReady(page);
    await page.getByRole('link', { name: 'Entra con CIE' }).click();
    await page.getByRole('link', { name: 'Giulia Verdi' }).click();
    await page.waitForURL(/\/auth\/identita\?esito=registrazione/);
    await expect(page.getByRole('heading', { level: 1, name: 'Crea l’account' })).toBeVisible();
    await page.getByRole('link', { name: 'Crea l’account' }).click();
    await page.waitForURL(/\/landing\/registrazioni\/insegnante\?identita=cie/);

    const form = page.locator('#registrazione');
    await expect(form.getByLabel('Nome', { exact: true })).toHaveValue('Giulia');
    await expect(form.getByLabel('Nome', { exact: true })).toHaveAttribute('readonly', '');
    await expect(form.getByLabel('Cognome')).toHaveValue('Verdi');
    await expect(form.getByLabel('Codice fiscale')).toHaveAttribute('readonly', '');
    await form.getByLabel(/Indirizzo e-mail personale/).fill('giulia.verdi@esempio.it');
    await form.getByLabel('Numero di cellulare').fill('+39 333 111 2233');
    await form.getByLabel('Password', { exact: true }).fill('Quaderno-Girasole-47');
    await form.getByLabel(/Cerca il plesso/).fill('Roma');
    // Bootstrap Italia draws radios and checkboxes on the label: click the input itself.
    await form.getByRole('radio').first().dispatchEvent('click');
    await expect(form.getByTestId('school-site-status')).toContainText('Plesso scelto');
    await form.getByLabel(/Materie che insegni/).fill('Italiano');
    await form.getByLabel(/Dichiaro di aver letto/).dispatchEvent('click');
    await form.getByRole('button', { name: 'Registrati' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Registrazione ricevuta' })).toBeVisible();

    // The registration linked the identity: the next CIE login signs her in at once (the portal
    // then asks what the new account still lacks, such as the e-mail confirmation).
    await page.goto(`${webOrigin}/auth/login`);
    await page.getByRole('link', { name: 'Entra con CIE' }).click();
    await page.getByRole('link', { name: 'Giulia Verdi' }).click();
    await page.waitForURL((url) => !/^\/auth\/(login|identita)/.test(url.pathname));
    await appReady(page);
    expect(['/portale', '/auth/completa-registrazione']).toContain(new URL(page.url()).pathname);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  // Justified in the browser: the TOTP step, the account page, the AgID button, the provider's
  // cross-site form POST to our ACS, the link form and the portal are pages of the whole system.
  test('the password asks for TOTP; SPID L2 reaches the staff portal without it (first by link, then at once)', async ({
    browser,
  }) => {
    const password = await browser.newPage();
    await password.goto(`${webOrigin}/auth/login`);
    await submitLogin(password, 'sylla@demo.test');
    await expect(password.getByRole('heading', { level: 1, name: 'Verifica in due passaggi' })).toBeVisible();
    await password.getByLabel('Codice di verifica o codice di recupero').fill(await totp());
    await password.getByRole('button', { name: 'Verifica', exact: true }).click();
    await password.waitForURL(`${webOrigin}/portale`);
    // The codice fiscale declared on the account: SPID will ask him to prove the account once.
    await password.goto(`${webOrigin}/portale/account`);
    await appReady(password);
    await password.getByRole('textbox', { name: 'Codice fiscale' }).fill(SYLLA_TAX_CODE);
    await password.getByRole('button', { name: 'Salva il codice fiscale' }).click();
    await expect(password.getByText(`Codice fiscale salvato: ${SYLLA_TAX_CODE}.`)).toBeVisible();
    await password.close();

    const spidLogin = async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${webOrigin}/auth/login`);
      idp!.next({
        spidCode: 'SPID-STAFF-1',
        name: 'Stefano',
        familyName: 'Sylla',
        fiscalNumber: `TINIT-${SYLLA_TAX_CODE}`,
      });
      await page.getByRole('button', { name: 'Entra con SPID' }).click();
      await page.getByRole('link', { name: 'SPID di prova' }).click();
      return page;
    };

    const linking = await spidLogin();
    await linking.waitForURL(/\/auth\/identita/);
    await linking.getByLabel('Password dell’account').fill(DEMO_PASSWORD);
    await linking.getByRole('button', { name: 'Collega e accedi' }).click();
    await linking.waitForURL(`${webOrigin}/portale`);
    await expect(linking.getByRole('heading', { level: 1, name: 'Benvenuta/o, Stefano' })).toBeVisible();
    await expect(linking.getByText('Verifica in due passaggi')).toHaveCount(0);

    const again = await spidLogin();
    await again.waitForURL(`${webOrigin}/portale`);
    await expect(again.getByRole('heading', { level: 1, name: 'Benvenuta/o, Stefano' })).toBeVisible();
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
    const outbox = ownOutbox('identity-journeys');
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
