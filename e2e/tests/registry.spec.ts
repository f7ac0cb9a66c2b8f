import { readFile } from 'node:fs/promises';
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
  pathOf,
  rememberConsentChoice,
  test,
  TEXTS,
} from '../fixtures.ts';

// The e2e API seeds the sample registry (provinces RM and PV): Lazio and Lombardia have institutes.
const STAFF = 'sylla@demo.test';

/** The number in the list's status line ("1.709 istituti trovati, pagina 1 di 69."). */
async function totalOf(page: Page): Promise<number> {
  const text = (await page.getByTestId('list-status').textContent()) ?? '';
  const match = /^([\d.]+)/.exec(text.trim());
  if (!match) throw new Error(`No total in "${text}"`);
  return Number(match[1]!.replaceAll('.', ''));
}

/** Data records of a CSV text (a line feed inside quotes does not end a record), header excluded. */
function csvRecords(text: string): number {
  let inQuotes = false;
  let records = 0;
  let pending = false;
  for (const ch of text) {
    if (ch === '"') inQuotes = !inQuotes;
    if (ch === '\n' && !inQuotes) {
      records++;
      pending = false;
    } else if (ch !== '\r') pending = true;
  }
  return records + (pending ? 1 : 0) - 1;
}

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

test.describe('registro: istituti e plessi', () => {
  test.describe.configure({ timeout: 180_000 });

  test('un operatore cerca, filtra, ordina, pagina, ricarica, apre la scheda, corregge un campo ed esporta', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, STAFF, { path: '/portale/istituti' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Istituti');
    await listSettled(page);
    const everything = await totalOf(page);
    expect(everything).toBeGreaterThan(50);
    await expectAccessibleAtBothWidths(page);

    const filters = page.getByRole('search', { name: 'Cerca negli istituti' });
    await test.step('il filtro per regione restringe le province e i risultati', async () => {
      await filters.getByLabel('Regione').selectOption('Lombardia');
      await expect(filters.getByLabel('Provincia').locator('option')).toContainText([
        'Tutte (Lombardia)',
        'BG',
        'PV',
      ]);
      await expect(filters.getByLabel('Provincia').locator('option', { hasText: 'RM' })).toHaveCount(0);
      await filters.getByRole('button', { name: 'Applica i filtri' }).click();
      await expect(page).toHaveURL(/region=Lombardia/);
      await listSettled(page);
      const regions = await page.locator('tbody td[data-label="Regione"]').allTextContents();
      expect(regions.length).toBeGreaterThan(0);
      expect(new Set(regions)).toEqual(new Set(['Lombardia']));
      expect(await totalOf(page)).toBeLessThan(everything);
    });

    await test.step('ordina per comune, crescente e poi decrescente', async () => {
      const header = page.getByRole('columnheader', { name: /Comune/ });
      await header.getByRole('button').click();
      await expect(page).toHaveURL(/sort=municipalityName/);
      await expect(header).toHaveAttribute('aria-sort', 'ascending');
      await header.getByRole('button').click();
      await expect(page).toHaveURL(/sort=-municipalityName/);
      await expect(header).toHaveAttribute('aria-sort', 'descending');
      await listSettled(page);
      await expect(page.getByRole('columnheader', { name: /Denominazione/ })).not.toHaveAttribute(
        'aria-sort',
        /.+/,
      );
    });

    const total = await totalOf(page);
    await test.step('va a pagina 2 e ricarica: la vista resta quella dell’URL', async () => {
      await page
        .getByRole('navigation', { name: 'Paginazione' })
        .getByRole('link', { name: 'Pagina 2', exact: true })
        .click();
      await expect(page).toHaveURL(/page=2/);
      await listSettled(page);
      await expect(page.getByTestId('list-status')).toContainText('pagina 2 di');
      const firstRow = await page.locator('tbody tr').first().textContent();
      const url = pathOf(page);
      await page.reload();
      await appReady(page);
      await listSettled(page);
      expect(pathOf(page)).toBe(url);
      await expect(filters.getByLabel('Regione')).toHaveValue('Lombardia');
      await expect(filters.getByLabel('Ordina per')).toHaveValue('-municipalityName');
      await expect(page.getByRole('link', { name: 'Pagina 2', exact: true })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await expect(page.locator('tbody tr').first()).toHaveText(firstRow ?? '');
      expect(await totalOf(page)).toBe(total);
    });

    const code = (await page.locator('tbody td[data-label="Codice"]').first().textContent())!.trim();
    const name = (await page.locator('tbody th[scope="row"]').first().textContent())!.trim();
    await test.step('cerca per codice meccanografico: un solo risultato, di nuovo dalla pagina 1', async () => {
      await filters.getByLabel('Cerca', { exact: true }).fill(code.toLowerCase());
      await expect(page).toHaveURL(new RegExp(`q=${code.toLowerCase()}`));
      await expect(page).not.toHaveURL(/page=/);
      await listSettled(page);
      await expect(page.getByTestId('list-status')).toHaveText('1 istituto trovato, pagina 1 di 1.');
      await expect(page.locator('tbody td[data-label="Codice"]')).toHaveText([code]);
    });

    await test.step('apre la scheda dell’istituto', async () => {
      await page.getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL(/\/portale\/istituti\/\d+$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
      await expect(page.getByTestId('institute-facts')).toContainText(code);
      await expect(page.getByRole('heading', { level: 2, name: /^Plessi/ })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Stato dell’adesione' })).toBeVisible();
      // Its actions: a link to the actions list searched by its code.
      await expect(page.getByRole('link', { name: 'Le azioni assegnate all’istituto' })).toHaveAttribute(
        'href',
        `/portale/azioni?q=${code}`,
      );
      await expectAccessibleAtBothWidths(page);
    });

    await test.step('un CAP non valido mostra l’errore accanto al campo', async () => {
      const form = page.getByTestId('institute-edit');
      await form.getByLabel('CAP').fill('12AB');
      await form.getByRole('button', { name: 'Salva le modifiche' }).click();
      await expect(form.getByText('Il CAP è formato da 5 cifre.')).toBeVisible();
      await expect(form.getByLabel('CAP')).toHaveAttribute('aria-invalid', 'true');
      await expectNoAxeViolations(page);
    });

    const phone = `0382 ${String(Date.now()).slice(-6)}`;
    await test.step('corregge il telefono: salvato, e lo storico riporta la modifica', async () => {
      await page.reload();
      await appReady(page);
      const form = page.getByTestId('institute-edit');
      await form.getByLabel('Telefono').fill(phone);
      await form.getByRole('button', { name: 'Salva le modifiche' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Modifiche salvate' })).toBeVisible();
      await expect(page.getByTestId('institute-facts')).toContainText(phone);
      const audit = page.getByTestId('audit-log');
      await expect(audit.locator('tbody tr').first()).toContainText('Telefono');
      await expect(audit.locator('tbody tr').first()).toContainText(phone);
      await expect(audit.locator('tbody tr').first()).toContainText('Stefano');
      await expectAccessibleAtBothWidths(page);
    });

    await test.step('esporta in CSV esattamente le righe filtrate', async () => {
      await page.goto('/portale/istituti?region=Lombardia&province=PV&sort=-name');
      await appReady(page);
      await listSettled(page);
      const rows = await totalOf(page);
      expect(rows).toBeGreaterThan(0);
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Esporta CSV' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^istituti-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
      expect(text.split('\r\n')[0]).toBe(
        'Codice meccanografico;Denominazione;Tipologia;Statale;Comune;Provincia;Regione;Plessi;Stato adesione;Ultimo cambio di stato',
      );
      expect(csvRecords(text)).toBe(rows);
      await expect(page.getByTestId('export-status')).toContainText(
        `Esportazione completata: ${rows.toLocaleString('it-IT', { useGrouping: 'always' } as Intl.NumberFormatOptions)} righe`,
      );
      // The focus stays on the button that started the export (issue 34), not on the top of the page.
      await expect(page.getByRole('button', { name: 'Esporta CSV' })).toBeFocused();
      await expectNoAxeViolations(page);

      const downloadingXlsx = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Esporta XLSX' }).click();
      const xlsx = await downloadingXlsx;
      expect(xlsx.suggestedFilename()).toMatch(/^istituti-\d{4}-\d{2}-\d{2}\.xlsx$/);
      // An XLSX file is a ZIP archive.
      expect((await readFile((await xlsx.path())!)).subarray(0, 2).toString('latin1')).toBe('PK');
      await expect(page.getByTestId('export-status')).toContainText('Esportazione completata');
    });
  });

  test('filtri sbagliati, nessun risultato e una pagina oltre l’ultima si spiegano in italiano', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, STAFF, { path: '/portale/istituti?region=Atlantide' });
    await expect(page.getByTestId('list-problem')).toContainText('Valore non valido per «Regione».');
    await expect(page.getByTestId('error-screen')).toHaveCount(0);
    await expectAccessibleAtBothWidths(page);

    await page.goto('/portale/istituti?q=nessuna-scuola-con-questo-nome');
    await appReady(page);
    await expect(page.getByText('Nessun istituto corrisponde alla ricerca e ai filtri.')).toBeVisible();
    await expect(page.getByTestId('list-status')).toHaveText('0 istituti trovati.');
    await expectAccessibleAtBothWidths(page);

    await page.goto('/portale/istituti?page=9999');
    await appReady(page);
    await page.getByRole('link', { name: 'Torna alla prima pagina' }).click();
    await expect(page).toHaveURL(
      (url) => url.pathname === '/portale/istituti' && !url.searchParams.has('page'),
    );
    await expect(page.locator('tbody tr')).toHaveCount(25);
  });

  test('i plessi: filtro partecipanti, scheda con istituto e storico, correzione', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, STAFF, { path: '/portale/istituti/plessi?region=Lazio' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Plessi');
    await listSettled(page);
    await expectAccessibleAtBothWidths(page);

    const filters = page.getByRole('search', { name: 'Cerca nei plessi' });
    await filters.getByLabel('Partecipazione').selectOption('false');
    await filters.getByRole('button', { name: 'Applica i filtri' }).click();
    await expect(page).toHaveURL(/participating=false/);
    await listSettled(page);
    await expect(page.locator('tbody td[data-label="Partecipa"]').first()).toHaveText('No');

    const name = (await page.locator('tbody th[scope="row"]').first().textContent())!.trim();
    await page.getByRole('link', { name, exact: true }).first().click();
    await expect(page).toHaveURL(/\/portale\/istituti\/plessi\/\d+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    // The document title says what the page is: an institute and its plesso often share a name (issue 34).
    await expect(page).toHaveTitle(`Plesso ${name} | Portale Scuole`);
    await expect(page.getByTestId('site-facts').getByRole('link')).toHaveCount(1);
    await expectAccessibleAtBothWidths(page);

    const form = page.getByTestId('site-edit');
    // Bootstrap Italia draws the box on the label, which receives the click.
    await form.getByText('Il plesso partecipa al programma').click();
    await expect(form.getByLabel('Il plesso partecipa al programma')).toBeChecked();
    await form.getByRole('button', { name: 'Salva le modifiche' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Modifiche salvate' })).toBeVisible();
    await expect(page.getByTestId('audit-log').locator('tbody tr').first()).toContainText('Partecipa');
    await expect(page.getByTestId('site-facts')).toContainText('Partecipa al programmaSì');

    await page.getByTestId('site-facts').getByRole('link').click();
    await expect(page).toHaveURL(/\/portale\/istituti\/\d+$/);
    await expect(page.getByRole('heading', { level: 2, name: /^Plessi/ })).toBeVisible();
    await expect(page).toHaveTitle(/^Istituto .+ \| Portale Scuole$/);
  });

  test('un insegnante che apre gli istituti vede la pagina 403', async ({ page }) => {
    await signIn(page, 'insegnante@demo.test');
    for (const path of ['/portale/istituti', '/portale/istituti/plessi']) {
      await page.goto(path);
      await appReady(page);
      await expectErrorScreen(page, 403, TEXTS.forbidden);
    }
  });
});
