import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import {
  appReady,
  DESKTOP,
  expect,
  expectAccessibleAtBothWidths,
  rememberConsentChoice,
  signIn,
  test,
} from '../fixtures.ts';

const STAFF = 'cromos@demo.test';

/** Every section's chart is drawn (an SVG) next to its summary and its table. */
async function chartsDrawn(page: Page, sections: number) {
  await expect(page.locator('section[data-testid^="progress-section-"]')).toHaveCount(sections);
  await expect(page.getByTestId('progress-chart').locator('svg')).toHaveCount(sections, { timeout: 20_000 });
  await expect(page.getByTestId('progress-summary')).toHaveCount(sections);
}

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

test.describe('avanzamento del programma', () => {
  test.describe.configure({ timeout: 180_000 });

  test('settimane, regioni e stati: grafici con sintesi e tabella, filtri nell’URL, esportazione', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, STAFF, { path: '/portale/avanzamento' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Avanzamento');
    await chartsDrawn(page, 4);
    await expect(page.getByTestId('progress-period')).toContainText('Per settimana, dal ');
    await expect(page.getByTestId('progress-notes')).toContainText(
      'Le visite svolte sono datate con il loro resoconto',
    );
    const weeks = page.getByTestId('progress-table-istituti').locator('tbody tr');
    expect(await weeks.count()).toBeGreaterThanOrEqual(26);
    // The chart's accessible name is its summary.
    const summary = (await page
      .getByTestId('progress-section-istituti')
      .getByTestId('progress-summary')
      .textContent())!;
    expect(summary).toMatch(/^Istituti nel tempo\. Istituti iscritti: [\d.]+ in tutto al /);
    await expect(page.getByTestId('progress-section-istituti').getByTestId('progress-chart')).toHaveAttribute(
      'role',
      'img',
    );
    await expect(page.getByTestId('progress-section-istituti').getByTestId('progress-chart')).toHaveAttribute(
      'aria-label',
      summary,
    );
    await expectAccessibleAtBothWidths(page);

    await test.step('esporta le settimane in CSV e XLSX', async () => {
      const rows = await weeks.count();
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Esporta CSV' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^avanzamento-settimane-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
      const lines = text.trim().split('\r\n');
      expect(lines[0]).toMatch(/^Settimana \(lunedì\);Istituti iscritti;Adesioni firmate;/);
      expect(lines).toHaveLength(rows + 1);
      await expect(page.getByTestId('export-status')).toContainText('Esportazione completata');
      const downloadingXlsx = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Esporta XLSX' }).click();
      const xlsx = await downloadingXlsx;
      expect((await readFile((await xlsx.path())!)).subarray(0, 2).toString('latin1')).toBe('PK');
    });

    await test.step('per regione, con il periodo nell’URL', async () => {
      const form = page.getByRole('search', { name: 'Scegli il periodo e il raggruppamento' });
      await form.getByLabel('Dal').fill('2026-01-05');
      await form.getByLabel('Raggruppa').selectOption('region');
      await form.getByRole('button', { name: 'Mostra' }).click();
      await expect(page).toHaveURL(/groupBy=region/);
      await expect(page).toHaveURL(/from=2026-01-05/);
      await chartsDrawn(page, 3);
      await expect(page.getByTestId('progress-period')).toContainText('Per regione, dal 5 gennaio 2026');
      await expect(
        page.getByTestId('progress-table-istituti').locator('tbody tr[data-key="Lazio"]'),
      ).toBeVisible();
      await expectAccessibleAtBothWidths(page);
    });

    await test.step('per stato alla fine del periodo, una regione', async () => {
      await page.goto('/portale/avanzamento?groupBy=state&region=Lombardia');
      await appReady(page);
      await chartsDrawn(page, 2);
      await expect(page.getByTestId('progress-table-istituti').locator('tbody tr')).toHaveCount(7);
      await expect(page.getByTestId('progress-period')).toContainText('Lombardia');
      await expectAccessibleAtBothWidths(page);
    });
  });

  test('date sbagliate: un errore in italiano sul campo, nessun grafico', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, STAFF, { path: '/portale/avanzamento?from=2026-11-10&to=2026-11-01' });
    await expect(page.getByTestId('progress-problem')).toBeVisible();
    await expect(page.getByText('La data finale deve seguire quella iniziale.')).toBeVisible();
    await expect(page.getByTestId('progress-chart')).toHaveCount(0);
    await expectAccessibleAtBothWidths(page);
  });

  test('la home dello staff mostra la piccola mappa e le linee di tendenza, con i link', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, STAFF, { path: '/portale' });
    const trends = page.getByTestId('programme-trends');
    await expect(trends.getByRole('heading', { name: 'Andamento del programma' })).toBeVisible();
    await expect(trends.locator('li[data-metric]')).toHaveCount(3);
    await expect(trends.getByRole('img').first()).toHaveAttribute(
      'aria-label',
      /Istituti iscritti per regione|Nessun istituto iscritto/,
    );
    await expectAccessibleAtBothWidths(page);
    await trends.getByRole('link', { name: "Vedi l'avanzamento del programma" }).click();
    await expect(page).toHaveURL(/\/portale\/avanzamento$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/portale$/);
    await appReady(page);
    // The home loads its trends again: wait for the link to be drawn before clicking it (under CI load
    // the click once started while the page was still settling and timed out).
    const mapLink = page
      .getByTestId('programme-trends')
      .getByRole('link', { name: 'Apri la mappa dei plessi' });
    await expect(mapLink).toBeVisible({ timeout: 20_000 });
    await mapLink.click({ timeout: 20_000 });
    await expect(page).toHaveURL(/\/portale\/mappa$/);
  });
});
