import type { Page } from '@playwright/test';
import {
  appReady,
  DESKTOP,
  expect,
  expectAccessibleAtBothWidths,
  expectErrorScreen,
  expectNoAxeViolations,
  listSettled,
  signIn,
  rememberConsentChoice,
  test,
} from '../fixtures.ts';

// The e2e API seeds the demo onboarding data: institutes of RM and PV in every adhesion state.
const STAFF = 'cromos@demo.test';

/** The list's table (the funnel is a table too). */
const listTable = (page: Page) => page.getByRole('table', { name: 'Istituti e stato della loro adesione' });

/** The count the funnel shows for a state. */
async function funnelCount(page: Page, state: string): Promise<number> {
  const cell = page.getByTestId('adhesion-funnel').locator(`tr[data-state="${state}"] td`).first();
  return Number(((await cell.textContent()) ?? '').replaceAll('.', '').trim());
}

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

test.describe('pannello adesioni', () => {
  test.describe.configure({ timeout: 180_000 });

  test('lo staff vede l’imbuto, filtra per stato, sollecita una volta sola ed esporta', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, STAFF, { path: '/portale/adesioni/panel' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pannello adesioni');
    await expect(page.getByTestId('adhesion-funnel')).toBeVisible();
    expect(await funnelCount(page, 'attivo')).toBeGreaterThan(0);
    await listSettled(page);
    await expect(page.getByTestId('reminders')).toContainText('filtra per stato');
    await expectAccessibleAtBothWidths(page);

    await test.step('un clic sull’imbuto filtra l’elenco per quello stato', async () => {
      const iscritti = await funnelCount(page, 'iscritto');
      await page.getByTestId('adhesion-funnel').getByRole('link', { name: 'Iscritto', exact: true }).click();
      await expect(page).toHaveURL(/adhesionState=iscritto/);
      await listSettled(page);
      await expect(page.getByTestId('list-status')).toContainText(`${iscritti} istitut`);
      const badges = await listTable(page)
        .locator('tbody td[data-label="Stato di adesione"]')
        .allTextContents();
      expect(new Set(badges)).toEqual(new Set(['Iscritto']));
    });

    await test.step('il sollecito dice a quanti istituti andrà, chiede conferma e non si ripete lo stesso giorno', async () => {
      const reminders = page.getByTestId('reminders');
      await expect(reminders).toContainText('il sollecito andrebbe a');
      await expectAccessibleAtBothWidths(page);
      await reminders.getByRole('button', { name: 'Invia un sollecito' }).click();
      await expect(reminders.getByRole('group')).toBeFocused();
      await expectNoAxeViolations(page);
      await reminders.getByRole('button', { name: /^Conferma: invia/ }).click();
      await expect(reminders.getByRole('alert').or(reminders.locator('.alert'))).toContainText(
        /Sollecito inviato a \d+ istitut/,
      );
      await expect(reminders).toContainText('già stat');
      await expect(reminders.getByRole('button', { name: 'Invia un sollecito' })).toHaveCount(0);
      const reminded = await listTable(page)
        .locator('tbody td[data-label="Ultimo sollecito"]')
        .allTextContents();
      expect(reminded.filter((t) => t !== 'mai').length).toBeGreaterThan(0);
    });

    await test.step('i giorni nello stato e un valore sconosciuto', async () => {
      await page.goto('/portale/adesioni/panel?minDaysInState=0');
      await appReady(page);
      await expect(page.getByRole('search')).toContainText('Indica almeno 1 giorno.');
    });

    await test.step('esporta in CSV ciò che mostra', async () => {
      await page.goto('/portale/adesioni/panel?adhesionState=attivo');
      await appReady(page);
      await listSettled(page);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: /CSV/ }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^adesioni-.*\.csv$/);
    });
  });

  test('lo staff ritira l’adesione di un istituto attivo con il motivo', async ({ page }) => {
    await signIn(page, STAFF, {
      path: '/portale/adesioni/panel?adhesionState=attivo&sort=-adhesionStateChangedAt',
    });
    await listSettled(page);
    await listTable(page).locator('tbody th[scope="row"] a').first().click();
    await appReady(page);
    const section = page.locator('#adesione');
    await expect(section.getByRole('heading', { name: 'Ritira l’adesione' })).toBeVisible();
    await section.getByLabel('Motivo del ritiro (obbligatorio)').fill('Breve');
    await section.getByRole('button', { name: 'Ritira l’adesione dell’istituto' }).click();
    await expect(section).toContainText('almeno 10 caratteri');
    await expectNoAxeViolations(page);
    await section
      .getByLabel('Motivo del ritiro (obbligatorio)')
      .fill('Il consiglio d’istituto ha deciso di non partecipare.');
    await section.getByRole('button', { name: 'Ritira l’adesione dell’istituto' }).click();
    await expect(section).toContainText('Adesione ritirata');
    await expect(page.getByTestId('adhesion-history')).toContainText('Ritirato');
    await expect(page.getByTestId('adhesion-history')).toContainText(
      'Il consiglio d’istituto ha deciso di non partecipare.',
    );
    await expect(section.getByRole('heading', { name: 'Ritira l’adesione' })).toHaveCount(0);
  });

  test('con il permesso user.index il pannello si legge ma non si sollecita; gli altri ruoli non lo vedono', async ({
    page,
  }) => {
    await signIn(page, 'utenti@demo.test', { path: '/portale/adesioni/panel?adhesionState=iscritto' });
    await expect(page.getByTestId('adhesion-funnel')).toBeVisible();
    await listSettled(page);
    await expect(page.getByTestId('reminders')).toHaveCount(0);
    // Without the registry grant the institutes are not links.
    await expect(listTable(page).locator('tbody th[scope="row"]').first()).toBeVisible();
    await expect(listTable(page).locator('tbody th[scope="row"] a')).toHaveCount(0);
    await expectNoAxeViolations(page);
    await page.context().clearCookies();
    await rememberConsentChoice(page.context(), page.url());
    await signIn(page, 'rilevatore@demo.test');
    await page.goto('/portale/adesioni/panel');
    await expectErrorScreen(page, 403);
  });
});
