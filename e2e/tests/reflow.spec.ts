import { PAGES, evaluateAccess } from '@portale/shared/pages';
import type { Page } from '@playwright/test';
import { demoAccount } from '../demo-accounts.ts';
import {
  appReady,
  expect,
  expectSoundStructure,
  navigateInApp,
  rememberConsentChoice,
  signIn,
  test,
} from '../fixtures.ts';

// WCAG 1.4.10 Reflow (issue 34, item 3): at 320 CSS px and at the widths where the layout changes
// (640: side navigation above the content, tables in full; 1024: side navigation beside a narrow
// content column) no page scrolls sideways; a table may scroll inside its own region. The gate
// (fixtures.ts, expectNoAxeViolations) checks the same at the width of every page state the suite
// visits (1280 and 375); resizing at every state would cost a relayout each, so the other widths are
// checked here on a representative set: every portal list of the staff, with the longest demo name
// in the header, the pages of the other roles, the public pages and a survey access-code page.

const WIDTHS = [320, 640, 1024] as const;

/** The page at each width: nothing wider than the screen, no id given twice. */
async function expectReflow(page: Page): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await expectSoundStructure(page);
  }
}

/** The site header is the page's one banner landmark, with the main navigation (issue 34, item 4). */
async function expectBanner(page: Page): Promise<void> {
  const banner = page.getByRole('banner');
  await expect(banner).toHaveCount(1);
  await expect(banner.getByRole('navigation', { name: 'Navigazione principale' })).toBeVisible();
}

/** A portal page after an in-app move, its list (if any) answered. */
async function openSettled(page: Page, path: string): Promise<void> {
  await navigateInApp(page, path);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

test('reflow: the staff portal lists and records, with the super-admin’s long name in the header', async ({
  page,
  baseURL,
}) => {
  const user = demoAccount('superadmin@demo.test').user;
  const lists = PAGES.filter(
    (p) =>
      p.layout === 'authenticated' &&
      !p.path.includes(':') &&
      p.id !== 'portal.map' &&
      evaluateAccess(p, user).kind === 'allow',
  ).map((p) => p.path);
  expect(lists.length).toBeGreaterThan(15);
  await rememberConsentChoice(page.context(), baseURL!);
  await signIn(page, 'superadmin@demo.test');
  await expectBanner(page);
  await expectReflow(page);
  for (const path of [...lists, '/portale/revisioni/adesioni']) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openSettled(page, path);
    await expectReflow(page);
  }
  // A record of each kind the lists open: an institute and a plesso.
  for (const list of ['/portale/istituti', '/portale/istituti/plessi']) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openSettled(page, list);
    const href = await page.locator('main table tbody a').first().getAttribute('href');
    await openSettled(page, href!);
    await expectReflow(page);
  }
});

test('reflow: the home of the other roles', async ({ browser, baseURL }) => {
  for (const email of [
    'dirigente@demo.test',
    'referente@demo.test',
    'insegnante@demo.test',
    'rilevatore@demo.test',
  ]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await rememberConsentChoice(context, baseURL!);
    await signIn(page, email);
    await expectReflow(page);
    await context.close();
  }
});

test('reflow: public pages and a survey access-code page', async ({ page, baseURL }) => {
  await rememberConsentChoice(page.context(), baseURL!);
  for (const path of [
    '/PROVA01',
    '/',
    '/auth/login',
    '/landing/registrazioni/insegnante',
    '/iscrizioni/iscrizione',
    '/risultati',
  ]) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(path);
    await appReady(page);
    await expectBanner(page);
    await expectReflow(page);
  }
});
