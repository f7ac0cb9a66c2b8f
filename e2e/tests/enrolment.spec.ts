import type { Browser, Page } from '@playwright/test';
import {
  appReady,
  expect,
  expectAccessibleAtBothWidths,
  expectCalmPoliteRegions,
  pathOf,
  rememberConsentChoice,
  submitLogin,
  test,
  watchPoliteRegions,
} from '../fixtures.ts';
import { mailLink, smsCode } from '../outbox.ts';

// A school secretary enrols an institute of the sample registry (RM, PV) end to end; the principal
// then chooses the password from the e-mail, logs in and is sent to sign the formal adhesion.
const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
const phoneOf = (n: number) => ({ local: `348${n}${stamp.slice(-6)}`, e164: `+39348${n}${stamp.slice(-6)}` });
const APPLICANT = phoneOf(1);
const LATECOMER = phoneOf(2);
const PRINCIPAL = {
  firstName: 'Elena',
  lastName: 'Dirigenti',
  email: `elena.dirigente.${stamp}@example.com`,
  taxCode: 'DRGLNE70A41G388G',
  phone: APPLICANT.local,
};
const CONTACT = {
  firstName: 'Marco',
  lastName: 'Referenti',
  email: `marco.referente.${stamp}@example.com`,
  taxCode: 'RFRMRC80A01G388Z',
  phone: '333 987 6543',
};
const PASSWORD = 'Campanile-Girasole-Lavagna-58';

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'it-IT', timezoneId: 'Europe/Rome' });
  await rememberConsentChoice(context, baseURL);
  return context.newPage();
}

/** Step 1: the SMS code; ends on step 2 with `?verifica=<uuid>`. Returns the verification id. */
async function verifyPhone(
  page: Page,
  phone: { local: string; e164: string },
  checkA11y = false,
): Promise<string> {
  await page.goto('/iscrizioni/iscrizione');
  await appReady(page);
  await expect(page.getByRole('heading', { level: 2, name: /Verifica del cellulare/ })).toBeVisible();
  if (checkA11y) await expectAccessibleAtBothWidths(page);
  await page.getByLabel('Numero di cellulare').fill(phone.local);
  await page.getByRole('button', { name: 'Invia il codice via SMS' }).click();
  await expect(page.getByLabel('Codice ricevuto via SMS')).toBeVisible();
  if (checkA11y) {
    // The resend countdown is shown, not read aloud every second (issue 34).
    await expect(page.getByTestId('resend-countdown')).toContainText('Potrai chiedere un nuovo codice tra');
    await watchPoliteRegions(page);
    await expectCalmPoliteRegions(page, 3_000);
    await page.getByLabel('Codice ricevuto via SMS').fill('000000');
    await page.getByRole('button', { name: 'Verifica il numero' }).click();
    await expect(page.getByLabel('Codice ricevuto via SMS')).toHaveAttribute('aria-invalid', 'true');
    // A wrong code is announced (an alert), not only written next to the field.
    await expect(page.locator('#code-error[role="alert"]')).toBeVisible();
    await expectAccessibleAtBothWidths(page);
  }
  await page.getByLabel('Codice ricevuto via SMS').fill(await smsCode(phone.e164));
  await page.getByRole('button', { name: 'Verifica il numero' }).click();
  await expect(page).toHaveURL(
    (url) => url.pathname === '/iscrizioni/iscrizione' && url.searchParams.has('verifica'),
  );
  // A new step takes the focus with its heading (issue 34), not the top of the page.
  await expect(page.getByRole('heading', { level: 2, name: /Scelta dell’istituto/ })).toBeFocused();
  return new URL(page.url()).searchParams.get('verifica')!;
}

async function fillPerson(page: Page, legend: string, person: typeof PRINCIPAL) {
  const group = page.getByRole('group', { name: legend });
  await group.getByLabel('Nome', { exact: true }).fill(person.firstName);
  await group.getByLabel('Cognome').fill(person.lastName);
  await group.getByLabel(/Indirizzo e-mail/).fill(person.email);
  await group.getByLabel('Codice fiscale').fill(person.taxCode);
  await group.getByLabel('Numero di cellulare').fill(person.phone);
}

test.describe.serial('enrolment of a school', () => {
  let ministryCode = '';
  let instituteUrl = '';

  test('verifies the phone, finds the institute, fills principal, first contact and plessi, and is enrolled', async ({
    page,
    browser,
    baseURL,
  }) => {
    // Two applicants, two SMS codes and axe at two widths on seven states.
    test.setTimeout(240_000);
    await verifyPhone(page, APPLICANT, true);
    await expect(page.getByTestId('verified-phone')).toContainText('Cellulare verificato');
    await expectAccessibleAtBothWidths(page);

    await page.getByLabel('Codice meccanografico o nome dell’istituto').fill('pavia');
    await page.getByRole('button', { name: 'Cerca' }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get('q') === 'pavia');
    await expect(page.getByTestId('institute-results-count')).toContainText('trovat');
    await expectAccessibleAtBothWidths(page);
    const choice = page
      .getByRole('list', { name: 'Istituti trovati' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: /Scegli/ }) })
      .first();
    ministryCode = /·\s*([A-Z0-9]{10})/.exec((await choice.textContent()) ?? '')![1]!;
    await choice.getByRole('link', { name: /Scegli/ }).click();
    await expect(page.getByRole('heading', { level: 2, name: /Dati e plessi/ })).toBeFocused();
    await expect(page.getByTestId('chosen-institute')).toContainText(ministryCode);
    instituteUrl = pathOf(page);

    // A second applicant opens the same institute meanwhile (their own verified phone).
    const latecomer = await newPage(browser, baseURL!);
    const lateId = await verifyPhone(latecomer, LATECOMER);
    await latecomer.goto(instituteUrl.replace(/verifica=[^&]+/, `verifica=${lateId}`));
    await expect(latecomer.getByRole('heading', { level: 2, name: /Dati e plessi/ })).toBeVisible();

    // Nothing filled: every field says what is missing.
    await page.getByRole('button', { name: 'Iscrivi l’istituto' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Controlla i campi evidenziati' })).toBeVisible();
    await expect(
      page.getByRole('group', { name: 'Dirigente scolastico' }).getByLabel('Codice fiscale'),
    ).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Scegli almeno un plesso che partecipa')).toBeVisible();
    await expectAccessibleAtBothWidths(page);

    await fillPerson(page, 'Dirigente scolastico', { ...PRINCIPAL, taxCode: 'DRGLNE70A41G388A' });
    await fillPerson(page, 'Referente d’istituto', CONTACT);
    // Bootstrap Italia draws checkboxes on the label: click the input itself.
    await page
      .getByRole('group', { name: 'Plessi che partecipano' })
      .getByRole('checkbox')
      .first()
      .dispatchEvent('click');
    await page.getByLabel(/Dichiaro di aver letto/).dispatchEvent('click');
    await page.getByRole('button', { name: 'Iscrivi l’istituto' }).click();
    await expect(
      page.getByRole('group', { name: 'Dirigente scolastico' }).getByLabel('Codice fiscale'),
    ).toHaveAttribute('aria-invalid', 'true');
    await page
      .getByRole('group', { name: 'Dirigente scolastico' })
      .getByLabel('Codice fiscale')
      .fill(PRINCIPAL.taxCode);
    // The form keeps what was typed; the checkboxes are posted again as they are.
    await expect(
      page.getByRole('group', { name: 'Plessi che partecipano' }).getByRole('checkbox').first(),
    ).toBeChecked();
    await page.getByRole('button', { name: 'Iscrivi l’istituto' }).click();

    const done = page.getByRole('status').filter({ hasText: 'Iscrizione completata' });
    await expect(done).toBeVisible();
    await expect(done).toContainText(ministryCode);
    await expect(done).toContainText(PRINCIPAL.email);
    await expect(done).toContainText(CONTACT.email);
    await expect(done).toContainText('firma il documento di adesione formale');
    await expect(done.getByRole('heading', { level: 2, name: 'Iscrizione completata' })).toBeFocused();
    await expectAccessibleAtBothWidths(page);

    // The latecomer's submission of the same institute is refused with the API's message.
    await fillPerson(latecomer, 'Dirigente scolastico', {
      ...PRINCIPAL,
      email: `altro.${stamp}@example.com`,
    });
    await latecomer.getByLabel('Il referente è il dirigente').dispatchEvent('click');
    await expect(latecomer.getByRole('group', { name: 'Referente d’istituto' })).toHaveCount(0);
    await latecomer
      .getByRole('group', { name: 'Plessi che partecipano' })
      .getByRole('checkbox')
      .first()
      .dispatchEvent('click');
    await latecomer.getByLabel(/Dichiaro di aver letto/).dispatchEvent('click');
    await latecomer.getByRole('button', { name: 'Iscrivi l’istituto' }).click();
    await expect(latecomer.getByRole('alert')).toContainText(
      `L’istituto ${ministryCode} è già iscritto al programma`,
    );
    await expectAccessibleAtBothWidths(latecomer);
    await latecomer.context().close();
  });

  test('an enrolled institute is shown as already enrolled and cannot be chosen', async ({ page }) => {
    const id = await verifyPhone(page, phoneOf(3));
    await page.goto(`/iscrizioni/iscrizione?verifica=${id}&q=${ministryCode}`);
    const item = page
      .getByRole('list', { name: 'Istituti trovati' })
      .getByRole('listitem')
      .filter({ hasText: ministryCode });
    await expect(item).toContainText('Già iscritto');
    await expect(item.getByRole('link', { name: /Scegli/ })).toHaveCount(0);
    await expectAccessibleAtBothWidths(page);
    // Opened directly, the institute says so instead of offering the form.
    await page.goto(instituteUrl.replace(/verifica=[^&]+/, `verifica=${id}`));
    await expect(page.getByRole('alert')).toContainText(
      `L’istituto ${ministryCode} è già iscritto al programma`,
    );
    await expect(page.getByRole('button', { name: 'Iscrivi l’istituto' })).toHaveCount(0);
  });

  test('a forged or used verification in the address is not accepted', async ({ page }) => {
    await page.goto('/iscrizioni/iscrizione?verifica=3f1d2c4b-5a69-4e7f-8a9b-0c1d2e3f4a5b&q=pavia');
    await expect(page).toHaveURL((url) => url.pathname === '/iscrizioni/iscrizione' && url.search === '');
    await expect(page.getByRole('heading', { level: 2, name: /Verifica del cellulare/ })).toBeVisible();
    await page.goto('/iscrizioni/iscrizione?verifica=non-una-verifica');
    await expect(page).toHaveURL((url) => url.search === '');

    // The applicant's verification served one enrolment: reopening it asks for a new one.
    await page.goto(instituteUrl);
    await expect(
      page.getByRole('heading', { level: 2, name: 'Verifica del cellulare da ripetere' }),
    ).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('già stata usata');
    await expectAccessibleAtBothWidths(page);
  });

  test('the principal chooses the password from the e-mail, logs in and is sent to sign the formal adhesion', async ({
    page,
  }) => {
    await page.goto(await mailLink(PRINCIPAL.email, 'email.iscrizione-invito'));
    await appReady(page);
    await expect(page).toHaveURL((url) => url.pathname === '/auth/reset-password');
    await page.getByLabel('Nuova password', { exact: true }).fill(PASSWORD);
    await expect(page.getByTestId('password-meter')).toContainText('Robustezza della password');
    await page.getByLabel('Ripeti la nuova password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Imposta la nuova password' }).click();
    await expect(page.getByRole('status').filter({ hasText: /\S/ })).toContainText(
      'La password è stata aggiornata',
    );
    await page.getByRole('link', { name: 'Vai all’accesso' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/auth/login');
    await submitLogin(page, PRINCIPAL.email, PASSWORD);
    await expect(page).toHaveURL((url) => url.pathname === '/iscrizioni/adesione-formale');
  });
});
