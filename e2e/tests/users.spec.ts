import type { Page } from '@playwright/test';
import {
  appReady,
  DESKTOP,
  expect,
  expectAccessibleAtBothWidths,
  listSettled,
  signIn,
  rememberConsentChoice,
  test,
} from '../fixtures.ts';
import { mailLink } from '../outbox.ts';

/** The polite success message of the page (role="status" with text). */
const success = (page: Page) => page.locator('main').getByRole('status').filter({ hasText: /\S/ });

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

test.describe('utenti', () => {
  test.describe.configure({ timeout: 180_000 });

  test('un amministratore cerca, crea un utente, cambia i ruoli, lo sospende e lo riattiva, e legge lo storico', async ({
    page,
  }) => {
    const stamp = Date.now();
    const email = `paola.e2e.${stamp}@esempio.it`;
    await page.setViewportSize(DESKTOP);
    await signIn(page, 'superadmin@demo.test', { path: '/portale/utenti' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Utenti');
    await listSettled(page);
    await expectAccessibleAtBothWidths(page);

    await test.step('la ricerca trova per nome ed e-mail, senza badare a maiuscole e accenti', async () => {
      const search = page.getByRole('search', { name: 'Cerca negli utenti' });
      await search.getByLabel('Cerca').fill('CROMOS');
      await expect(page).toHaveURL(/q=CROMOS/);
      await listSettled(page);
      const table = page.getByRole('table', { name: 'Utenti del portale' });
      await expect(table.getByRole('row')).toHaveCount(2);
      await expect(table).toContainText('cromos@demo.test');
      await page.goto('/portale/utenti');
      await appReady(page);
    });

    await test.step('crea un utente: il modulo dice cosa manca, poi l’utente riceve l’invito', async () => {
      await page.getByRole('button', { name: 'Nuovo utente' }).click();
      const form = page.getByTestId('user-create');
      await expect(form.getByLabel('Nome', { exact: true })).toBeFocused();
      await form.getByRole('button', { name: 'Crea l’utente e invia l’invito' }).click();
      await expect(form.getByRole('alert')).toContainText('Alcuni dati non sono validi');
      await expect(form.getByText('Scegli almeno un ruolo o un permesso.')).toBeVisible();
      await expectAccessibleAtBothWidths(page);

      await form.getByLabel('Nome', { exact: true }).fill('Paola');
      await form.getByLabel('Cognome').fill(`Nuovi ${stamp}`);
      await form.getByLabel('E-mail').fill(email.toUpperCase());
      // Bootstrap Italia draws checkboxes on the label: click the input itself.
      await form.getByRole('checkbox', { name: 'Rilevatore' }).dispatchEvent('click');
      await expect(form.getByRole('checkbox', { name: 'Rilevatore' })).toBeChecked();
      await form.getByRole('button', { name: 'Crea l’utente e invia l’invito' }).click();
      await page.waitForURL(/\/portale\/utenti\/\d+\?creato=1$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Paola Nuovi ${stamp}`);
      await expect(success(page)).toContainText(`Utente creato: ${email}`);
      expect(await mailLink(email, 'email.invito')).toMatch(/\/auth\/reset-password\?token=/);
    });

    await test.step('cambia i ruoli: la scheda e lo storico lo mostrano', async () => {
      const edit = page.getByTestId('user-edit');
      await edit.getByRole('checkbox', { name: 'Staff Sylla' }).dispatchEvent('click');
      await expect(edit.getByRole('checkbox', { name: 'Staff Sylla' })).toBeChecked();
      await edit.getByRole('button', { name: 'Salva nome, ruoli e permessi' }).click();
      await expect(success(page)).toContainText('Modifiche salvate');
      await expect(page.getByTestId('user-facts')).toContainText('Staff Sylla, Rilevatore');
      await expect(page.getByTestId('audit-log').getByRole('row').nth(1)).toContainText(
        'Modifica di dati, ruoli o permessi',
      );
      await expect(page.getByTestId('audit-log')).toContainText('Silvia Amministratrice');
    });

    await test.step('sospende dopo una conferma, poi riattiva', async () => {
      await page.getByRole('button', { name: 'Sospendi l’utente' }).click();
      const confirm = page.getByTestId('confirm-suspend');
      await expect(confirm).toBeFocused();
      await expect(confirm).toContainText('non potrà più accedere');
      await expectAccessibleAtBothWidths(page);
      await confirm.getByRole('button', { name: 'Annulla' }).click();
      await expect(page.getByRole('button', { name: 'Sospendi l’utente' })).toBeFocused();

      await page.getByRole('button', { name: 'Sospendi l’utente' }).click();
      await page.getByRole('button', { name: 'Conferma: sospendi l’utente' }).click();
      await expect(success(page)).toContainText('Utente sospeso');
      await expect(page.locator('main header').getByText('Sospeso', { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Sospendi l’utente' })).toHaveCount(0);
      await expect(page.getByTestId('audit-log').getByRole('row').nth(1)).toContainText('Sospensione');

      await page.getByRole('button', { name: 'Riattiva l’utente' }).click();
      await page.getByRole('button', { name: 'Conferma: riattiva l’utente' }).click();
      await expect(success(page)).toContainText('Utente riattivato');
      await expect(page.locator('main header').getByText('Attivo', { exact: true })).toBeVisible();
      const audit = page.getByTestId('audit-log');
      await expect(audit.getByRole('row').nth(1)).toContainText('Riattivazione');
      await expect(audit).toContainText('Sospensione');
      await expect(audit).toContainText('Creazione dell’utente');
      await expectAccessibleAtBothWidths(page);
    });

    await test.step('l’elenco filtrato per ruolo lo mostra, e lo esporta', async () => {
      await page.goto(`/portale/utenti?role=detector&q=${stamp}`);
      await appReady(page);
      await listSettled(page);
      await expect(page.getByTestId('list-status')).toHaveText('1 utente trovato, pagina 1 di 1.');
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Esporta CSV' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^utenti-\d{4}-\d{2}-\d{2}\.csv$/);
      await expect(page.getByTestId('export-status')).toContainText('Esportazione completata: 1 righe');
    });
  });

  test('con il solo permesso user.index si leggono elenco, scheda e storico ma non c’è nessuna azione', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, 'utenti@demo.test', { path: '/portale/utenti?q=rilevatore' });
    await listSettled(page);
    await expect(page.getByRole('button', { name: 'Nuovo utente' })).toHaveCount(0);
    await expectAccessibleAtBothWidths(page);

    await page
      .getByRole('table', { name: 'Utenti del portale' })
      .getByRole('link', { name: 'Rilevatore Roberto' })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Roberto Rilevatore');
    await expect(page.getByTestId('user-facts')).toContainText('rilevatore@demo.test');
    await expect(page.getByRole('heading', { name: 'Storico' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Azioni sull’account' })).toHaveCount(0);
    await expect(page.getByTestId('user-edit')).toHaveCount(0);
    await expect(page.locator('main').getByRole('button')).toHaveCount(0);
    await expectAccessibleAtBothWidths(page);
  });
});
