import type { Browser } from '@playwright/test';
import {
  DESKTOP,
  expect,
  expectAccessibleAtBothWidths,
  listSettled,
  signIn,
  rememberConsentChoice,
  test,
} from '../fixtures.ts';
import { mailText } from '../outbox.ts';

/** A browser of its own for each person, with the cookie choice already made. */
async function personPage(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL, locale: 'it-IT', timezoneId: 'Europe/Rome' });
  await rememberConsentChoice(context, baseURL);
  const page = await context.newPage();
  await page.setViewportSize(DESKTOP);
  return { context, page };
}

/** A date `days` from today in Europe/Rome, as a date field takes it. */
function romeDay(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });
}

test('sostituzioni: il referente chiede di sostituire un’insegnante, lo staff Sylla approva, chi subentra trova il plesso nella sua area', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const { context, page } = await personPage(browser, baseURL!);

  // The demo first contact: the request form and the institute's requests on their home.
  await signIn(page, 'referente@demo.test', { path: '/portale' });
  const panel = page.getByTestId('substitution-request');
  await expect(panel.getByRole('heading', { name: 'Richiedi una sostituzione' })).toBeVisible();
  await expect(panel.getByTestId('substitution-requests')).toContainText('Moretti Marta');
  await expectAccessibleAtBothWidths(page);

  // Empty form: per-field Italian messages, nothing sent.
  await panel.getByRole('button', { name: 'Invia la richiesta' }).click();
  await expect(panel.getByText('Scegli l’insegnante che lascia il plesso.')).toBeVisible();
  await expect(panel.getByLabel('Insegnante che lascia il plesso')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessibleAtBothWidths(page);

  const teacher = panel.getByLabel('Insegnante che lascia il plesso');
  const villa = await teacher.locator('option', { hasText: 'Villa Lucia' }).getAttribute('value');
  await teacher.selectOption(villa!);
  // Effective today: it takes effect at approval (a later date waits for that day, decision 038).
  await panel.getByLabel('Data di decorrenza').fill(romeDay(0));
  await panel.getByLabel('E-mail').fill('insegnante.sostituzioni-04@demo.test');
  await panel.getByLabel('Nome', { exact: true }).fill('Franco');
  await panel.getByLabel('Cognome').fill('Galli');
  await panel.getByLabel('Motivo').fill('La docente Villa va in pensione: subentra il collega Galli.');
  await panel.getByRole('button', { name: 'Invia la richiesta' }).click();
  await expect(panel.getByTestId('substitution-request-outcome')).toContainText(
    'Richiesta di sostituzione inviata',
  );
  await expect(
    panel.getByTestId('substitution-requests').getByRole('row', { name: /Villa Lucia/ }),
  ).toContainText('Richiesta');
  const plesso = (await panel
    .getByTestId('substitution-requests')
    .getByRole('row', { name: /Villa Lucia/ })
    .locator('td')
    .nth(1)
    .textContent())!.trim();
  await context.close();

  // Sylla staff: the list, the request opened in the panel (state in the URL), approved after confirming.
  const { context: staff, page: staffPage } = await personPage(browser, baseURL!);
  await signIn(staffPage, 'sylla@demo.test', { path: '/portale/sostituzioni?state=richiesta' });
  await expect(staffPage.getByRole('heading', { level: 1 })).toHaveText('Sostituzioni');
  await listSettled(staffPage);
  await expectAccessibleAtBothWidths(staffPage);
  await staffPage.getByRole('link', { name: 'Villa Lucia' }).click();
  await expect(staffPage).toHaveURL(/sostituzione=\d+/);
  const decision = staffPage.getByTestId('substitution-panel');
  await expect(decision).toContainText('Galli Franco');
  await expect(decision).toContainText('La docente Villa va in pensione');
  await expectAccessibleAtBothWidths(staffPage);
  // Rejecting needs a note: the step is confirmed and can be cancelled.
  await decision.getByRole('link', { name: 'Respingi la richiesta' }).click();
  await expect(staffPage).toHaveURL(/decisione=respinta/);
  await expect(decision.getByRole('heading', { name: 'Confermi di respingere la richiesta?' })).toBeVisible();
  await expectAccessibleAtBothWidths(staffPage);
  await decision.getByRole('link', { name: 'Annulla' }).click();
  await decision.getByRole('link', { name: 'Approva la sostituzione' }).click();
  await expect(staffPage).toHaveURL(/decisione=approvata/);
  await expect(decision.getByRole('heading', { name: 'Confermi l’approvazione?' })).toBeVisible();
  await decision.getByRole('button', { name: 'Conferma l’approvazione' }).click();
  await expect(decision.getByTestId('decision-outcome')).toContainText('Sostituzione approvata');
  await expect(decision).toContainText('Approvata');
  await expect(decision).toContainText('in vigore dal');
  await expect(decision.getByRole('link', { name: 'Approva la sostituzione' })).toHaveCount(0);
  await expectAccessibleAtBothWidths(staffPage);
  await staff.close();

  // Both people are told.
  expect(await mailText('insegnante.sostituzioni-04@demo.test', 'email.sostituzione-entrante')).toContain(
    plesso,
  );
  expect(await mailText('insegnante.sostituzioni-03@demo.test', 'email.sostituzione-uscente')).toContain(
    'Franco Galli',
  );

  // The incoming teacher: the plesso is theirs now.
  const { context: incoming, page: teacherPage } = await personPage(browser, baseURL!);
  await signIn(teacherPage, 'insegnante.sostituzioni-04@demo.test', { path: '/portale' });
  await expect(teacherPage.locator('main')).toContainText(plesso);
  await expectAccessibleAtBothWidths(teacherPage);
  await incoming.close();
});
