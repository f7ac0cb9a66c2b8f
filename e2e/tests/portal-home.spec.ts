import type { Page } from '@playwright/test';
import {
  appReady,
  expect,
  expectNoAxeViolations,
  signIn,
  pathOf,
  rememberConsentChoice,
  test,
} from '../fixtures.ts';

// The e2e API seeds the sample registry (provinces RM and PV) and the demo accounts.
const STAFF = 'sylla@demo.test';
const TEACHER = 'insegnante@demo.test';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 800 };
const SUMMARY = '/api/dashboard/summary';

/** The number in a list's status line ("1.709 istituti trovati, pagina 1 di 69."). */
async function listTotal(page: Page): Promise<number> {
  const status = page.getByTestId('list-status');
  await expect(status).toHaveText(/^[\d.]+ /);
  const text = (await status.textContent()) ?? '';
  return Number(/^([\d.]+)/.exec(text.trim())![1]!.replaceAll('.', ''));
}

/** A figure link's number, as the page shows it with Italian thousands separators. */
async function figureOf(link: ReturnType<Page['locator']>): Promise<number> {
  const value = Number(await link.getAttribute('data-figure'));
  await expect(link).toContainText(new Intl.NumberFormat('it-IT', { useGrouping: 'always' }).format(value));
  return value;
}

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

test.describe('home del portale', () => {
  test.describe.configure({ timeout: 120_000 });

  test('lo staff vede le cifre chiave e ogni cifra apre l’elenco filtrato con lo stesso totale', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, STAFF);
    if (pathOf(page) !== '/portale') await page.goto('/portale');
    await appReady(page);
    const figures = page.getByTestId('key-figures');
    await expect(figures.getByRole('heading', { level: 2, name: 'Il programma in cifre' })).toBeVisible();
    for (const name of ['Istituti', 'Plessi', 'Insegnanti ed educatori', 'In attesa di revisione']) {
      await expect(figures.getByRole('heading', { level: 3, name })).toBeVisible();
    }
    // What the home showed before stays: the profile and the sections.
    await expect(page.getByRole('heading', { level: 2, name: 'Il tuo profilo' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Cosa puoi fare nel portale' })).toBeVisible();

    await test.step('axe a 1280 e 375 px', async () => {
      await expectNoAxeViolations(page);
      await page.setViewportSize(PHONE);
      await expectNoAxeViolations(page);
      await page.setViewportSize(DESKTOP);
    });

    await test.step('istituti per stato di adesione → elenco filtrato', async () => {
      const states = figures.getByTestId('cifre-istituti-stati').getByRole('link');
      let chosen: ReturnType<Page['locator']> | null = null;
      for (const link of await states.all()) {
        if (Number(await link.getAttribute('data-figure')) > 0) {
          chosen = link;
          break;
        }
      }
      expect(chosen, 'a state with institutes').not.toBeNull();
      const figure = await figureOf(chosen!);
      const target = await chosen!.getAttribute('href');
      expect(target).toMatch(/^\/portale\/istituti\?adhesionState=\w+$/);
      await chosen!.click();
      await page.waitForURL((url) => url.pathname + url.search === target);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Istituti');
      expect(await listTotal(page)).toBe(figure);
      await page.goBack();
      await expect(figures).toBeVisible();
    });

    await test.step('istituti in anagrafe → elenco completo', async () => {
      const link = page.getByTestId('cifre-istituti-totale');
      const figure = await figureOf(link);
      await link.click();
      await page.waitForURL('**/portale/istituti');
      expect(await listTotal(page)).toBe(figure);
      await page.goBack();
      await expect(figures).toBeVisible();
    });

    await test.step('plessi partecipanti → elenco filtrato', async () => {
      const link = page.getByTestId('cifre-plessi-totale');
      const figure = await figureOf(link);
      await expect(link).toHaveAttribute('href', '/portale/istituti/plessi?participating=true');
      await link.click();
      await page.waitForURL('**/portale/istituti/plessi?participating=true');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Plessi');
      expect(await listTotal(page)).toBe(figure);
      await page.goBack();
      await expect(figures).toBeVisible();
    });

    await test.step('insegnanti → elenco, e per stato della revisione', async () => {
      const link = page.getByTestId('cifre-insegnanti-totale');
      const figure = await figureOf(link);
      await link.click();
      await page.waitForURL('**/portale/insegnanti');
      expect(await listTotal(page)).toBe(figure);
      await page.goBack();
      await expect(figures).toBeVisible();
      const hrefs = await figures
        .getByTestId('cifre-insegnanti-stati')
        .getByRole('link')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual([
        '/portale/insegnanti?reviewState=in_attesa',
        '/portale/insegnanti?reviewState=approvata',
        '/portale/insegnanti?reviewState=da_correggere',
        '/portale/insegnanti?reviewState=respinta',
      ]);
    });

    await test.step('le code di revisione', async () => {
      const hrefs = await figures
        .getByTestId('cifre-revisioni-code')
        .getByRole('link')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(['/portale/revisioni/adesioni', '/portale/revisioni/insegnanti']);
    });
  });

  test('un insegnante non vede cifre e la pagina non le chiede all’API', async ({ page }) => {
    const summaryRequests: string[] = [];
    const forbidden: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === SUMMARY) summaryRequests.push(request.url());
    });
    page.on('response', (response) => {
      if (response.status() === 403) forbidden.push(response.url());
    });
    await page.setViewportSize(DESKTOP);
    await signIn(page, TEACHER);
    if (pathOf(page) !== '/portale') await page.goto('/portale');
    await appReady(page);
    await expect(page.getByRole('heading', { level: 2, name: 'Il tuo profilo' })).toBeVisible();
    await expect(page.getByTestId('key-figures')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Il programma in cifre' })).toHaveCount(0);
    await page.reload();
    await appReady(page);
    await expect(page.getByRole('heading', { level: 2, name: 'Il tuo profilo' })).toBeVisible();
    expect(summaryRequests).toEqual([]);
    expect(forbidden).toEqual([]);
    await expectNoAxeViolations(page);
    await page.setViewportSize(PHONE);
    await expectNoAxeViolations(page);
  });
});
