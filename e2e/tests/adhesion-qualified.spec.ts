import { readFile } from 'node:fs/promises';
import {
  issueSignerCertificate,
  signPades,
  type TestCa,
} from '../../apps/api/test/support/signing-fixtures.ts';
import {
  startRevocationServer,
  type RevocationServer,
} from '../../apps/api/test/support/revocation-fixtures.ts';
import {
  appReady,
  DESKTOP,
  expect,
  expectAccessibleAtBothWidths,
  rememberConsentChoice,
  signIn,
  test,
} from '../fixtures.ts';
import {
  ENROLLED_PASSWORD,
  ENROLLED_PRINCIPAL_TAX_CODE,
  enrolInstitute,
  type Enrolled,
} from '../registrations.ts';
import { loadTrustedCa, TRUST_SERVICE_NAME } from '../trust.ts';

// Issue 33: a principal signs the adhesion with a qualified signature made in the test (a certificate of
// the run's qualified test CA, on the test trusted list, with its OCSP responder on 127.0.0.1), after a
// self-signed certificate with the same codice fiscale was refused; staff see what the portal verified
// and approve. Needs the browser: the upload, the refusal next to the field, the review screen.

test.describe.serial('adesione firmata con firma digitale qualificata', () => {
  let school: Enrolled;
  let ca: TestCa;
  let revocation: RevocationServer;

  test.beforeAll(async ({ baseURL }) => {
    test.setTimeout(60_000);
    school = await enrolInstitute(baseURL!);
    ca = await loadTrustedCa(process.env.E2E_TRUST_DIR!);
    revocation = await startRevocationServer(ca);
  });
  test.afterAll(async () => revocation?.close());
  test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

  test('il dirigente carica un file con certificato autofirmato (rifiutato), poi la firma qualificata (accettata)', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(DESKTOP);
    await signIn(page, school.principal.email, { password: ENROLLED_PASSWORD });
    await expect(page).toHaveURL(/\/iscrizioni\/adesione-formale$/);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Scarica il documento (PDF)' }).click();
    const document = new Uint8Array(await readFile((await (await downloading).path())!));

    const fileField = page.getByLabel('File firmato (.pdf, .p7m o .p7s)');
    const selfSigned = await issueSignerCertificate(ca, {
      taxCode: ENROLLED_PRINCIPAL_TAX_CODE,
      name: 'Elisa Nerini',
      selfSigned: true,
    });
    await fileField.setInputFiles({
      name: 'adesione-autofirmata.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(await signPades(document, selfSigned)),
    });
    await page.getByRole('button', { name: 'Carica e firma' }).click();
    await expect(
      page.getByText(/Il certificato di firma è autofirmato: non è emesso da un prestatore qualificato/),
    ).toBeVisible();
    await expect(fileField).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('next-step')).toContainText('Rileggi il documento di adesione e firmalo');
    await expectAccessibleAtBothWidths(page);

    const qualified = await issueSignerCertificate(ca, {
      taxCode: ENROLLED_PRINCIPAL_TAX_CODE,
      name: 'Elisa Nerini',
      ocspUrl: revocation.ocspUrl,
    });
    await fileField.setInputFiles({
      name: 'adesione-firmata.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(await signPades(document, qualified)),
    });
    await page.getByRole('button', { name: 'Carica e firma' }).click();
    await expect(page.getByTestId('signed-notice')).toContainText('Adesione firmata');
    expect(revocation.ocspRequests).toBeGreaterThan(0);
  });

  test('lo staff vede la verifica (qualificata, emittente, revoca OCSP) e approva', async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(DESKTOP);
    await signIn(page, 'sylla@demo.test');
    await page.goto(`/portale/revisioni/adesioni?state=in_attesa&q=${school.ministryCode}`);
    await appReady(page);
    await expect(page.getByTestId('list-status')).not.toHaveText('Caricamento dei risultati…');
    await page.getByRole('table').getByRole('link').first().click();
    await appReady(page);
    const item = page.getByTestId('review-adhesion');
    await expect(item).toContainText(school.ministryCode);
    await expect(item).toContainText(`sì: ${TRUST_SERVICE_NAME}`);
    await expect(item).toContainText('CA qualificata di test (e2e)');
    await expect(item).toContainText('non revocato, risposta OCSP');
    await expect(item).toContainText(ENROLLED_PRINCIPAL_TAX_CODE);
    await expect(page.getByTestId('signature-versions')).toContainText('adesione-firmata.pdf');
    await expectAccessibleAtBothWidths(page);

    const form = page.getByTestId('review-decision');
    await form.getByText('Approva', { exact: true }).click();
    await form.getByRole('button', { name: 'Registra la decisione' }).click();
    await expect(page.getByTestId('review-outcome')).toContainText('Approvata');
  });
});
