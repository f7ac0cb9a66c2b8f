import { getPage, PAGES, type PageDef, evaluateAccess, type AccessDecision } from '@portale/shared/pages';
import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS, type DemoAccount } from '../demo-accounts.ts';
import {
  appReady,
  expect,
  expectErrorScreen,
  expectNoAxeViolations,
  navigateInApp,
  signIn,
  TEXTS,
  test,
} from '../fixtures.ts';

/** Every portal route plus the formal adhesion, with ids = 1 and reviewType = 'insegnanti'. */
const MATRIX_PAGES: PageDef[] = PAGES.filter((p) => p.layout === 'authenticated' || p.id === 'adhesion');
const NAV_PAGES = PAGES.filter((p) => p.layout === 'authenticated' && p.navLabel);
const PAGE_BY_PATH = new Map(PAGES.map((p) => [p.path, p]));

function concretePath(page: PageDef): string {
  return page.path.replace(/:(\w+)/g, (_, key: string) => (key === 'reviewType' ? 'insegnanti' : '1'));
}

/** Pages whose h1 is the name of the record they show (a review queue's h1 names its type). */
const RECORD_PAGES = new Set([
  'portal.institute',
  'portal.site',
  'portal.user',
  'portal.reviews',
  'portal.review',
  'portal.detector-site',
  'portal.site-teachers',
  'portal.site-visits',
  'portal.booking-slot',
  'portal.document',
  'portal.survey',
  'portal.detector',
]);
/** Pages of one plesso for its detector: a detector opens only their own plessi, so plesso 1 may be a 403 (ownership, checked by the API). */
const OWNED_RECORD_PAGES = new Set(['portal.detector-site', 'portal.site-teachers', 'portal.site-visits']);
/** A detector's page for staff (issue 39): user 1 need not be a detector, so a 404 page is a right answer. */
const MAYBE_MISSING_PAGES = new Set(['portal.detector']);

/** The h1 a user sees on an allowed page. */
function expectedHeading(page: PageDef, account: DemoAccount | null): string {
  if (page.id === 'portal.home') return `Benvenuta/o, ${account?.firstName ?? ''}`;
  return page.title;
}

async function expectOutcome(
  page: Page,
  def: PageDef,
  decision: AccessDecision,
  account: DemoAccount | null,
) {
  const path = concretePath(def);
  const where = `${account?.email ?? 'guest'} on ${path}`;
  if (decision.kind === 'redirect') {
    await expect(page, where).toHaveURL((url) => url.pathname === decision.to);
    const target = PAGE_BY_PATH.get(decision.to);
    if (!target) throw new Error(`No page for redirect target ${decision.to}`);
    await expect(page.getByRole('heading', { level: 1 }), where).toHaveText(expectedHeading(target, account));
    await expect(page.getByTestId('error-screen'), where).toHaveCount(0);
    return;
  }
  await expect(page, where).toHaveURL((url) => url.pathname === path);
  if (decision.kind === 'forbidden') {
    await expectErrorScreen(page, 403, TEXTS.forbidden);
    await expect(page.getByTestId('error-screen').getByText(TEXTS.forbidden), where).toBeVisible();
    return;
  }
  if (
    OWNED_RECORD_PAGES.has(def.id) &&
    account?.roles.includes('detector') &&
    (await page.getByTestId('error-screen').count()) > 0
  ) {
    await expectErrorScreen(page, 403);
    return;
  }
  if (MAYBE_MISSING_PAGES.has(def.id) && (await page.getByTestId('error-screen').count()) > 0) {
    await expectErrorScreen(page, 404);
    return;
  }
  if (RECORD_PAGES.has(def.id)) {
    // The h1 names the record (from the API); the breadcrumb names the page.
    await expect(page.getByRole('heading', { level: 1 }), where).not.toBeEmpty();
    await expect(
      page.getByRole('navigation', { name: 'Percorso di navigazione' }).getByRole('listitem').last(),
      where,
    ).toHaveText(def.title);
  } else {
    await expect(page.getByRole('heading', { level: 1 }), where).toHaveText(expectedHeading(def, account));
  }
  await expect(page.getByTestId('error-screen'), where).toHaveCount(0);
}

/**
 * The pages walked for an account: every page it may open (each rendered with its data for that role),
 * and of the pages it may not, the first of each outcome — each redirect target and each refusal
 * message, per layout. That every other page gives the same outcome through its route's guards is
 * proven for every (account, page) pair by apps/web/src/app/route-guards.test.tsx, where a refusal or a
 * redirect costs no page render.
 */
function pagesToWalk(account: DemoAccount | null): PageDef[] {
  const seenOutcomes = new Set<string>();
  return MATRIX_PAGES.filter((def) => {
    const decision = evaluateAccess(def, account?.user ?? null);
    if (decision.kind === 'allow') return true;
    const outcome = `${def.layout} ${decision.kind} ${decision.kind === 'redirect' ? decision.to : decision.message}`;
    if (seenOutcomes.has(outcome)) return false;
    seenOutcomes.add(outcome);
    return true;
  });
}

async function walkMatrix(page: Page, account: DemoAccount | null) {
  for (const def of pagesToWalk(account)) {
    const decision = evaluateAccess(def, account?.user ?? null);
    await test.step(`${concretePath(def)} → ${decision.kind}${decision.kind === 'redirect' ? ` ${decision.to}` : ''}`, async () => {
      // Inside the app, as a click on a link would: the guards run on every navigation, and the full
      // load (session restored from the HttpOnly refresh cookie) is proven once per account below and
      // in auth.spec.ts and reload.spec.ts.
      await navigateInApp(page, concretePath(def));
      await expectOutcome(page, def, decision, account);
      await expectNoAxeViolations(page, { skipSeenStructure: true });
    });
  }
}

test.describe('role × route matrix', () => {
  // Every page an account may open, and one of each refusal and redirect, with an axe check each (one
  // per page structure).
  test.describe.configure({ timeout: 240_000 });

  test('guest is sent to login from a guarded route of each layout', async ({ page }) => {
    await page.goto('/');
    await appReady(page);
    await walkMatrix(page, null);
  });

  for (const account of DEMO_ACCOUNTS) {
    test(`${account.email}: every allowed portal route, each refusal and redirect, and the side navigation`, async ({
      page,
    }) => {
      const home = evaluateAccess(getPage('portal.home'), account.user);
      await test.step('side navigation lists exactly the allowed pages', async () => {
        // A full load of /portale with the session from the refresh cookie.
        await signIn(page, account.email);
        const nav = page.getByRole('navigation', { name: 'Navigazione del portale' });
        if (home.kind !== 'allow') {
          // Pending condition: the portal layout is never reached.
          await expect(nav).toHaveCount(0);
          return;
        }
        const expected = NAV_PAGES.filter((p) => evaluateAccess(p, account.user).kind === 'allow');
        await expect(nav.getByTestId('portal-nav').getByRole('link')).toHaveText(
          expected.map((p) => p.navLabel!),
        );
        for (const p of expected)
          await expect(nav.getByRole('link', { name: p.navLabel, exact: true })).toHaveAttribute(
            'href',
            p.path,
          );
      });

      await walkMatrix(page, account);
    });
  }
});
