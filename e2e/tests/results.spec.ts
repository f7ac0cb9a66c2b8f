import { readFile } from 'node:fs/promises';
import {
  appReady,
  expect,
  expectAccessibleAtBothWidths,
  expectChartsDrawn,
  pathOf,
  PHONE,
  rememberConsentChoice,
  test,
} from '../fixtures.ts';

// The demo's closed pilot survey (seed: responses-seed.ts): 53 respondents in Lazio and Lombardia;
// Lazio × infanzia has 3 and is refused, with what would give it away.

test.beforeEach(async ({ context, baseURL }) => {
  await rememberConsentChoice(context, baseURL!);
  // The charts must not need anything the Content-Security-Policy forbids.
  await context.addInitScript(() => {
    const found: string[] = ((window as unknown as { cspViolations: string[] }).cspViolations = []);
    document.addEventListener('securitypolicyviolation', (e) =>
      found.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`),
    );
  });
});

test.describe('risultati pubblici delle indagini', () => {
  test.describe.configure({ timeout: 180_000 });

  test('su un telefono un grafico sotto la piega si disegna quando il lettore ci arriva', async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/risultati');
    await appReady(page);
    const charts = page.getByTestId('results-chart');
    await expect(charts).toHaveCount(4);
    const last = charts.last();
    await expect(last).toHaveAttribute('aria-label', /Risposte di 53 persone/);
    // Time for every queued drawing task: the last chart, far below the view, still waits.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    await expect(last.locator('svg')).toHaveCount(0);
    await last.scrollIntoViewIfNeeded();
    await expect(last.locator('svg')).toHaveCount(1, { timeout: 20_000 });
  });

  test('un ospite vede grafici e tabelle, filtra per regione, trova un gruppo troppo piccolo e scarica il CSV', async ({
    page,
  }) => {
    await test.step('i risultati nazionali dell’indagine conclusa: grafico, sintesi e tabella per domanda', async () => {
      await page.goto('/risultati');
      await appReady(page);
      await expect(page.getByRole('heading', { level: 1, name: 'Risultati' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Indagine pilota 2025' })).toBeVisible();
      await expect(page.getByTestId('results-group')).toHaveText(
        'Tutta Italia, tutti i gradi scolastici: 53 persone hanno risposto.',
      );
      const questions = page.getByTestId('results-question');
      await expect(questions).toHaveCount(4);
      await expectChartsDrawn(page, 4);
      const first = questions.first();
      await expect(first.getByRole('heading', { level: 3 })).toHaveText('In quale ordine di scuola insegni?');
      await expect(first.getByRole('table')).toContainText('Primaria');
      await expect(first.getByTestId('results-summary')).toContainText('Risposte di 53 persone.');
      // Infanzia has 3 respondents nationally: protected, with the next smallest row, and explained.
      await expect(first.locator('td[data-protected="true"]')).toHaveCount(2);
      await expect(first.getByTestId('results-protected-note')).toContainText('minore di 5');
      // A scale question: the mean, with an Italian decimal comma.
      await expect(questions.nth(2).getByRole('table')).toContainText(/Media \(da 1 a 5\)\s*\d,\d\d/);
      // Open answers are never published.
      await expect(page.getByText('Le risposte alle domande aperte (2) non sono pubblicate.')).toBeVisible();
      expect(
        await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
      ).toEqual([]);
      await expectAccessibleAtBothWidths(page);
    });

    await test.step('il filtro per regione va nell’URL e mostra la regione', async () => {
      await page.getByLabel('Regione').selectOption('Lazio');
      await page.getByRole('button', { name: 'Mostra i risultati' }).click();
      await expect.poll(() => pathOf(page)).toContain('region=Lazio');
      await expect(page.getByTestId('results-group')).toHaveText(
        'Lazio, tutti i gradi scolastici: 33 persone hanno risposto.',
      );
      await expectChartsDrawn(page, 4);
    });

    await test.step('un gruppo di meno di 5 persone non si mostra: il messaggio, non un errore', async () => {
      await page.getByLabel('Grado scolastico').selectOption('infanzia');
      await page.getByRole('button', { name: 'Mostra i risultati' }).click();
      await expect.poll(() => pathOf(page)).toContain('schoolLevel=infanzia');
      const refused = page.getByTestId('results-suppressed');
      await expect(refused).toBeVisible();
      await expect(refused.getByRole('heading', { level: 3 })).toHaveText(
        'Troppo poche risposte per mostrare questo gruppo',
      );
      await expect(page.getByTestId('results-question')).toHaveCount(0);
      await expectAccessibleAtBothWidths(page);
      // Lazio × primaria (18) is refused too: with Lazio and the other levels it would give infanzia away.
      await page.goto('/risultati?region=Lazio&schoolLevel=primaria');
      await appReady(page);
      await expect(page.getByTestId('results-suppressed')).toBeVisible();
    });

    await test.step('il CSV scaricato contiene esattamente ciò che la pagina mostra', async () => {
      await page.goto('/risultati?region=Lombardia');
      await appReady(page);
      await expect(page.getByTestId('results-group')).toHaveText(
        'Lombardia, tutti i gradi scolastici: 20 persone hanno risposto.',
      );
      const cells = await page
        .getByTestId('results-table')
        .locator('tbody tr')
        .evaluateAll((rows) =>
          rows.map((r) => [
            r.querySelector('th')!.textContent!.trim(),
            r.querySelectorAll('td')[0]!.textContent!.trim(),
          ]),
        );
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Esporta CSV' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^risultati-\d{4}-\d{2}-\d{2}\.csv$/);
      const raw = await readFile((await download.path())!, 'utf8');
      expect(raw.startsWith('\uFEFF')).toBe(true);
      const lines = raw
        .slice(1)
        .trim()
        .split('\r\n')
        .map((l) => l.split(';'));
      expect(lines[0]).toEqual([
        'Indagine',
        'Gruppo',
        'Domanda',
        'Risposta',
        'Numero',
        'Percentuale sui rispondenti',
        'Note',
      ]);
      expect(lines[1]!.slice(1, 5)).toEqual([
        'Insegnanti ed educatori, Lombardia, Tutti i gradi',
        'Rispondenti',
        '',
        '20',
      ]);
      // Decision 035: withheld figures read "c" as on the page; the first line's note links the methodology.
      expect(lines[1]![6]).toMatch(/^c = dato protetto .*\/risultati\/metodologia$/);
      const answerLines = lines.slice(2).filter((l) => l[3] !== 'Totale risposte' && l[3] !== 'Media');
      expect(answerLines.map((l) => [l[3], l[4]])).toEqual(cells.map(([label, count]) => [label, count]));
    });
  });
});
