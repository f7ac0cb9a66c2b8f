import { createHash } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './demo-accounts.ts';

export { expect };
export const test = base;

/** Error texts of seed-spec §2 and the guards. */
export const TEXTS = {
  notFoundTitle: 'Pagina non trovata',
  notFoundBody: 'Sembra che abbia seguito un URL che non esiste nel portale.',
  errorTitle: 'Errore imprevisto',
  forbidden: 'Non hai i permessi necessari per accedere a questa pagina.',
  badCredentials: 'Le credenziali inserite non sono corrette.',
  home: 'torna alla home',
} as const;

/** The page's path and query, e.g. '/portale/istituti?x=1'. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** Waits until the app has rendered something (the loading placeholder and any prerendered markup are gone). */
export async function appReady(page: Page): Promise<void> {
  await expect(page.locator('#root[data-prerendered]')).toHaveCount(0);
  await expect(page.getByText('Caricamento del portale…')).toHaveCount(0);
  await expect(page.locator('h1').first()).toBeVisible();
}

/** Fills and submits the login form on /auth/login. */
export async function submitLogin(page: Page, email: string, password: string = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel('Indirizzo e-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Accedi', exact: true }).click();
}

/**
 * Logs in through the UI: opens /auth/login, submits the form and waits until the app has left the
 * login page (to /portale or to the pending condition's page).
 */
export async function loginAs(page: Page, email: string, password: string = DEMO_PASSWORD): Promise<void> {
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Accedi' })).toBeVisible();
  await submitLogin(page, email, password);
  await page.waitForURL((url) => url.pathname !== '/auth/login');
  await appReady(page);
}

/** Page structures already checked by axe in this worker. */
const checkedStructures = new Set<string>();

/**
 * The page's markup with every non-blank text replaced by one placeholder: two pages with the same
 * structure, attributes and styles give the same axe result for the WCAG A/AA rules (text only
 * matters through being empty or not), whatever their words.
 */
function structureOf(page: Page): Promise<string> {
  return page.evaluate(() => {
    const copy = document.documentElement.cloneNode(true) as HTMLElement;
    const walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeValue?.trim()) node.nodeValue = 'T';
    }
    return copy.outerHTML;
  });
}

/**
 * WCAG 2.0/2.1 A and AA checks of axe on the page as it is now. With `skipSeenStructure`, a page
 * whose structure (markup without its words) was already checked in this worker is not checked
 * again: the role matrix shows the same error screen and page frame under many routes.
 */
export async function expectNoAxeViolations(page: Page, options: { skipSeenStructure?: boolean } = {}): Promise<void> {
  if (options.skipSeenStructure) {
    const key = createHash('sha256').update(await structureOf(page)).digest('hex');
    if (checkedStructures.has(key)) return;
    checkedStructures.add(key);
  }
  const results = await new AxeBuilder({ page })
    // options() replaces the whole options object: set it before withTags, which adds runOnly.
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  // analyze() finishes its run in a blank page of the same context and closes it: Chromium may leave
  // the page under test in the background, where animation frames stall, and Playwright's next click
  // then waits for a "stable" element until it times out (two CI runs failed so, on 2026-11-23).
  await page.bringToFront();
  const summary = results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
  expect(summary, `axe violations on ${pathOf(page)}`).toEqual([]);
}

/** Asserts the error screen with its status, title and technical message. */
export async function expectErrorScreen(page: Page, status: number, message?: string): Promise<void> {
  const screen = page.getByTestId('error-screen');
  await expect(screen).toBeVisible();
  await expect(screen).toHaveAttribute('data-error-status', String(status));
  await expect(screen.getByRole('heading', { level: 1 })).toHaveText(status === 404 ? TEXTS.notFoundTitle : TEXTS.errorTitle);
  if (message !== undefined) await expect(screen).toHaveAttribute('data-error-message', message);
}

/** A visitor who has already decided about cookies (the banner is tested in consent.spec.ts; elsewhere it would cover the page). */
export async function rememberConsentChoice(context: BrowserContext, url: string): Promise<void> {
  await context.addCookies(
    [
      ['ncc_c', 'necessarianalitici'],
      ['ncc_e', 'necessari'],
      ['ncc_v', '2026-01'],
      ['ncc_r', String(Date.now())],
    ].map(([name, value]) => ({ name: name!, value: value!, url })),
  );
}

/** The two widths every page is checked at (WCAG 2.1 AA at desktop and on a phone). */
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 375, height: 800 };

/** Axe at desktop and phone width, back to desktop. */
export async function expectAccessibleAtBothWidths(page: Page): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await expectNoAxeViolations(page);
  await page.setViewportSize(PHONE);
  await expectNoAxeViolations(page);
  await page.setViewportSize(DESKTOP);
}

/** A list page has answered (its status line no longer says it is loading). */
export async function listSettled(page: Page): Promise<void> {
  await expect(page.getByTestId('list-status')).not.toHaveText('Caricamento dei risultati…');
}

/**
 * The results page draws a chart when it comes near the view (features/results/results-chart.tsx):
 * each of the `count` charts is scrolled to, as a reader does, and must then be drawn.
 */
export async function expectChartsDrawn(page: Page, count: number): Promise<void> {
  const charts = page.getByTestId('results-chart');
  await expect(charts).toHaveCount(count);
  for (let i = 0; i < count; i++) {
    await charts.nth(i).scrollIntoViewIfNeeded();
    await expect(charts.nth(i).locator('svg')).toHaveCount(1, { timeout: 20_000 });
  }
}
