import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type BrowserContext, type Page } from '@playwright/test';
import { AUTH_COOKIES, AUTH_PATHS } from '@portale/shared/http';
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

const API_ORIGIN = `http://localhost:${process.env.E2E_API_PORT}`;
const WEB_ORIGIN = `http://localhost:${process.env.E2E_WEB_PORT}`;

/**
 * Signs in through the API, as the login form does (XSRF pair, then the credentials), so that the
 * context holds the HttpOnly refresh cookie; then opens `path` and waits for the app. For tests whose
 * subject is not the login form itself (auth.spec.ts drives the form): one request instead of a page
 * load, a form and a redirect.
 */
export async function signIn(page: Page, email: string, options: { password?: string; path?: string } = {}): Promise<void> {
  const api = page.context().request;
  await api.head(`${API_ORIGIN}${AUTH_PATHS.csrf}`, { headers: { origin: WEB_ORIGIN } });
  const xsrf = (await page.context().cookies(API_ORIGIN)).find((c) => c.name === 'XSRF-TOKEN')?.value;
  const response = await api.post(`${API_ORIGIN}${AUTH_PATHS.login}`, {
    headers: { origin: WEB_ORIGIN, 'x-xsrf-token': decodeURIComponent(xsrf ?? '') },
    data: { email, password: options.password ?? DEMO_PASSWORD },
  });
  expect(response.status(), `login of ${email}: ${await response.text()}`).toBe(200);
  // The web client's own mark of a signed-in browser (seed: `auth.strategy=local`), which it writes
  // after its login and reads before restoring the session from the refresh cookie.
  await page.context().addCookies([{ name: AUTH_COOKIES.strategy, value: 'local', url: WEB_ORIGIN, sameSite: 'Lax' }]);
  await page.goto(options.path ?? '/portale');
  await appReady(page);
}

let inAppNavigations = 0;

/**
 * Moves inside the running app to `path`, as a click on a link does: a new history entry and the
 * router's popstate handling, which runs the page's guards and loaders. Waits until the navigation has
 * committed (the layout's `data-location-key` changes, redirects included) and the page has rendered.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  const main = page.locator('main#main-content');
  const before = await main.getAttribute('data-location-key');
  if (!before) throw new Error(`navigateInApp(${path}): the layout shows no data-location-key to wait on`);
  const key = `e2e-${process.pid}-${++inAppNavigations}`;
  await page.evaluate(
    ([to, key]) => {
      // React Router's browser history reads the location's key from `history.state.key`.
      window.history.pushState({ usr: null, key, idx: window.history.length }, '', to);
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    },
    [path, key] as const,
  );
  await expect(main, `navigation to ${path}`).not.toHaveAttribute('data-location-key', before);
  await appReady(page);
}

/** Page structures already checked by axe in this worker. */
const checkedStructures = new Set<string>();

/**
 * The page's markup with every non-blank text and address replaced by one placeholder: two pages with
 * the same structure, attributes and styles give the same axe result for the WCAG A/AA rules (text
 * and addresses only matter through being empty or not), whatever their words.
 */
function structureOf(page: Page): Promise<string> {
  return page.evaluate(() => {
    const copy = document.documentElement.cloneNode(true) as HTMLElement;
    const walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeValue?.trim()) node.nodeValue = 'T';
    }
    // The side navigation's list as one item: its links differ per role only in number and words, so a
    // staff page is checked once, not once per staff role.
    for (const list of copy.querySelectorAll('[data-testid="portal-nav"]')) {
      while (list.children.length > 1) list.lastElementChild!.remove();
    }
    // Addresses too, except in-page anchors (a return path in a link or a form's action differs per
    // route): axe's rules see only whether they are there.
    for (const element of copy.querySelectorAll('[href], [action]')) {
      for (const name of ['href', 'action']) {
        const value = element.getAttribute(name);
        if (value && !value.startsWith('#')) element.setAttribute(name, 'U');
      }
    }
    return copy.outerHTML;
  });
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** axe-core's own build, evaluated once per document (the version @axe-core/playwright ships). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe's WCAG A/AA rules on the page as it is now. A page without frames is checked in place: axe is
 * evaluated once per document and `axe.run` called directly, 0.7 s a check instead of the 2.0 s of
 * AxeBuilder's default run, which finishes every check in a new blank page of the context (measured on
 * /portale/istituti, docs/testing.md). A page with frames goes through AxeBuilder, which checks inside
 * each frame.
 */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (page.frames().length > 1) {
    const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).withTags(AXE_TAGS).analyze();
    // analyze() finishes its run in a blank page of the same context and closes it: Chromium may leave
    // the page under test in the background, where animation frames stall (two CI runs failed so).
    await page.bringToFront();
    return results.violations;
  }
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  }, AXE_TAGS);
}

/**
 * WCAG 2.0/2.1 A and AA checks of axe on the page as it is now. With `skipSeenStructure`, a page
 * whose structure (markup without its words) was already checked in this worker is not checked
 * again: the role matrix shows the same error screen and page frame under many routes.
 */
export async function expectNoAxeViolations(page: Page, options: { skipSeenStructure?: boolean } = {}): Promise<void> {
  // A settled page: nothing marked busy (a list being reloaded dims its rows until its answer comes).
  await expect(page.locator('[aria-busy="true"]'), `busy content on ${pathOf(page)}`).toHaveCount(0);
  if (options.skipSeenStructure) {
    const key = createHash('sha256').update(await structureOf(page)).digest('hex');
    if (checkedStructures.has(key)) return;
    checkedStructures.add(key);
  }
  const summary = (await axeViolations(page)).map((v) => ({
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
