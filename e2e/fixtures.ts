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
export async function submitLogin(
  page: Page,
  email: string,
  password: string = DEMO_PASSWORD,
): Promise<void> {
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
export async function signIn(
  page: Page,
  email: string,
  options: { password?: string; path?: string } = {},
): Promise<void> {
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
  await page
    .context()
    .addCookies([{ name: AUTH_COOKIES.strategy, value: 'local', url: WEB_ORIGIN, sameSite: 'Lax' }]);
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

/** What axe left "needing review" for `color-contrast`: the node and axe's reason (a `messageKey`). */
interface IncompleteContrast {
  target: unknown[];
  reason: string;
}

interface AxeFindings {
  violations: AxeViolation[];
  incompleteContrast: IncompleteContrast[];
}

/**
 * Elements whose background image sits beside their text, not under it, so the recomputation below
 * reads their background colour: selector → why. Keep it short; anything else with a background image
 * under a text axe could not decide fails the gate until it is reviewed and named here.
 */
const BACKGROUND_IMAGE_BESIDE_TEXT: Record<string, string> = {
  '.alert': 'Bootstrap Italia draws the alert icon as a no-repeat background image in the left padding',
  select: 'Bootstrap Italia draws the arrow of a select as a no-repeat background image in the right padding',
  '.is-invalid, .is-valid':
    'Bootstrap draws the invalid (valid) field icon as a no-repeat background image in the right padding',
};

/**
 * axe's WCAG A/AA rules on the page as it is now, with the contrast checks axe could not decide. A page
 * without frames is checked in place: axe is evaluated once per document and `axe.run` called directly,
 * 0.7 s a check instead of the 2.0 s of AxeBuilder's default run, which finishes every check in a new
 * blank page of the context (measured on /portale/istituti, docs/testing.md). A page with frames goes
 * through AxeBuilder, which checks inside each frame.
 */
async function axeFindings(page: Page): Promise<AxeFindings> {
  const incompleteOf = (
    incomplete: { id: string; nodes: { target: unknown[]; any: { data?: unknown }[] }[] }[],
  ) =>
    incomplete
      .filter((r) => r.id === 'color-contrast')
      .flatMap((r) =>
        r.nodes.map((n) => ({
          target: n.target,
          reason: String((n.any[0]?.data as { messageKey?: string } | null)?.messageKey ?? 'unknown'),
        })),
      );
  if (page.frames().length > 1) {
    const results = await new AxeBuilder({ page })
      .options({ resultTypes: ['violations', 'incomplete'] })
      .withTags(AXE_TAGS)
      .analyze();
    // analyze() finishes its run in a blank page of the same context and closes it: Chromium may leave
    // the page under test in the background, where animation frames stall (two CI runs failed so).
    await page.bringToFront();
    return { violations: results.violations, incompleteContrast: incompleteOf(results.incomplete as never) };
  }
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(async (tags) => {
    interface Node {
      target: unknown[];
      any: { data?: unknown }[];
    }
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{
            violations: (AxeViolation & { nodes: Node[] })[];
            incomplete: { id: string; nodes: Node[] }[];
          }>;
        };
      }
    ).axe;
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations', 'incomplete'],
    });
    return {
      violations: results.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target, any: [] })),
      })),
      incomplete: results.incomplete
        .filter((r) => r.id === 'color-contrast')
        .map((r) => ({
          id: r.id,
          nodes: r.nodes.map((n) => ({ target: n.target, any: n.any.map((a) => ({ data: a.data })) })),
        })),
    };
  }, AXE_TAGS);
  return { violations: results.violations, incompleteContrast: incompleteOf(results.incomplete) };
}

interface ContrastCheck {
  target: string;
  reason: string;
  ratio?: number;
  required?: number;
  fg?: string;
  bg?: string;
  undecided?: string;
}

/**
 * Runs in the page: the contrast of each element axe left "needing review", from computed styles — the
 * text colour over the background colours of the element and its ancestors, blended up to the first
 * opaque one (white if none). Overlaps, pseudo-elements and short texts are axe's doubts, not a
 * difference in colours. A background image or gradient on the way is reported as undecided, unless it
 * is one of BACKGROUND_IMAGE_BESIDE_TEXT.
 */
function recomputeContrast({
  items,
  besideText,
}: {
  items: { target: string; reason: string }[];
  besideText: string[];
}): ContrastCheck[] {
  type Rgba = [number, number, number, number];
  const parse = (value: string): Rgba | null => {
    const m = /rgba?\(([^)]+)\)/.exec(value);
    if (!m) return null;
    const parts = m[1]!
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return [parts[0]!, parts[1]!, parts[2]!, parts.length > 3 ? parts[3]! : 1];
  };
  const over = (top: Rgba, bottom: Rgba): Rgba => {
    const a = top[3] + bottom[3] * (1 - top[3]);
    if (a === 0) return [0, 0, 0, 0];
    const mix = (i: number) => (top[i]! * top[3] + bottom[i]! * bottom[3] * (1 - top[3])) / a;
    return [mix(0), mix(1), mix(2), a];
  };
  const luminance = (c: Rgba) => {
    const lin = (v: number) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  };
  const show = (c: Rgba) => `rgb(${c.slice(0, 3).map(Math.round).join(', ')})`;
  return items.map(({ target, reason }) => {
    const element = document.querySelector(target);
    if (!element) return { target, reason, undecided: 'element gone' };
    const style = getComputedStyle(element);
    let bg: Rgba = [0, 0, 0, 0];
    for (let e: Element | null = element; e && bg[3] < 1; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.backgroundImage !== 'none' && !besideText.some((selector) => e!.matches(selector)))
        return {
          target,
          reason,
          undecided: `background image on ${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}`,
        };
      const c = parse(s.backgroundColor);
      if (c) bg = over(bg, c);
    }
    bg = over(bg, [255, 255, 255, 1]);
    const fgRaw = parse(style.color);
    if (!fgRaw) return { target, reason, undecided: `colour ${style.color}` };
    const fg = over(fgRaw, bg);
    const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a) as [number, number];
    const ratio = Math.round(((l1 + 0.05) / (l2 + 0.05)) * 100) / 100;
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    return { target, reason, ratio, required: large ? 3 : 4.5, fg: show(fg), bg: show(bg) };
  });
}

/** Contrast failures among axe's "needs review" nodes: recomputed ones under the threshold, undecidable ones not reviewed. */
async function incompleteContrastFailures(
  page: Page,
  incomplete: IncompleteContrast[],
): Promise<ContrastCheck[]> {
  // A target of several selectors points inside a frame (the e-mail preview): its document is the
  // template's sample, checked by the template's own tests.
  const items = incomplete
    .filter((n) => n.target.length === 1 && typeof n.target[0] === 'string')
    .map((n) => ({ target: n.target[0] as string, reason: n.reason }));
  if (items.length === 0) return [];
  const checks = await page.evaluate(recomputeContrast, {
    items,
    besideText: Object.keys(BACKGROUND_IMAGE_BESIDE_TEXT),
  });
  return checks.filter((c) => {
    // A background image or gradient under the text must be reviewed by hand; an element gone since axe's run is not judged.
    if (c.undecided) return c.undecided !== 'element gone';
    return c.ratio! < c.required!;
  });
}

/**
 * Structural checks axe does not make (issue 34), on the page as it is now at the current width: no id
 * given twice (a second element with a label's `for` id takes the field's name away), and nothing wider
 * than the screen (WCAG 1.4.10: a table may scroll in its own region, the page may not).
 */
function structuralProblems(): {
  duplicateIds: string[];
  overflow: { scrollWidth: number; clientWidth: number; widest: string[] } | null;
} {
  const seen = new Map<string, number>();
  for (const element of document.querySelectorAll('[id]'))
    seen.set(element.id, (seen.get(element.id) ?? 0) + 1);
  const duplicateIds = [...seen].filter(([, count]) => count > 1).map(([id, count]) => `${id} ×${count}`);
  const root = document.documentElement;
  let overflow = null;
  if (root.scrollWidth > root.clientWidth) {
    const describe = (e: Element) => {
      const cls =
        typeof e.className === 'string' && e.className.trim()
          ? `.${e.className.trim().split(/\s+/).slice(0, 3).join('.')}`
          : '';
      return `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${cls} (right ${Math.round(e.getBoundingClientRect().right)})`;
    };
    // The outermost elements that stick out (their children do too, and say less), and positioned ones,
    // which a scrolling ancestor does not clip unless it is their containing block.
    const widest: string[] = [];
    for (const e of document.body.querySelectorAll('*')) {
      if (e.getBoundingClientRect().right <= root.clientWidth + 0.5) continue;
      const outermost =
        e.parentElement && e.parentElement.getBoundingClientRect().right <= root.clientWidth + 0.5;
      if (outermost || ['absolute', 'fixed'].includes(getComputedStyle(e).position)) widest.push(describe(e));
      if (widest.length >= 5) break;
    }
    overflow = { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, widest };
  }
  return { duplicateIds, overflow };
}

/** Asserts the structural checks of `structuralProblems` on the page as it is now. */
export async function expectSoundStructure(page: Page): Promise<void> {
  const problems = await page.evaluate(structuralProblems);
  expect(problems.duplicateIds, `duplicate ids on ${pathOf(page)}`).toEqual([]);
  expect(
    problems.overflow,
    `horizontal overflow on ${pathOf(page)} at ${page.viewportSize()?.width} px`,
  ).toBeNull();
}

/**
 * WCAG 2.0/2.1 A and AA checks of axe on the page as it is now, plus what axe leaves aside: contrasts
 * it could not decide ("needs review", recomputed here), duplicate ids and horizontal overflow at the
 * current width. With `skipSeenStructure`, a page whose structure (markup without its words) was
 * already checked by axe in this worker is not checked by axe again: the role matrix shows the same
 * error screen and page frame under many routes. The structural checks run every time (a long name
 * can overflow where a short one did not).
 */
export async function expectNoAxeViolations(
  page: Page,
  options: { skipSeenStructure?: boolean } = {},
): Promise<void> {
  // A settled page: nothing marked busy (a list being reloaded dims its rows until its answer comes).
  await expect(page.locator('[aria-busy="true"]'), `busy content on ${pathOf(page)}`).toHaveCount(0);
  await expectSoundStructure(page);
  if (options.skipSeenStructure) {
    const key = createHash('sha256')
      .update(await structureOf(page))
      .digest('hex');
    if (checkedStructures.has(key)) return;
    checkedStructures.add(key);
  }
  const findings = await axeFindings(page);
  const summary = findings.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
  expect(summary, `axe violations on ${pathOf(page)}`).toEqual([]);
  const contrast = await incompleteContrastFailures(page, findings.incompleteContrast);
  expect(contrast, `contrasts axe left for review on ${pathOf(page)} (recomputed)`).toEqual([]);
}

/** Asserts the error screen with its status, title and technical message. */
export async function expectErrorScreen(page: Page, status: number, message?: string): Promise<void> {
  const screen = page.getByTestId('error-screen');
  await expect(screen).toBeVisible();
  await expect(screen).toHaveAttribute('data-error-status', String(status));
  await expect(screen.getByRole('heading', { level: 1 })).toHaveText(
    status === 404 ? TEXTS.notFoundTitle : TEXTS.errorTitle,
  );
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
  await resizeTo(page, DESKTOP);
  await expectNoAxeViolations(page);
  await resizeTo(page, PHONE);
  await expectNoAxeViolations(page);
  await resizeTo(page, DESKTOP);
}

/**
 * A new viewport, once the page has had two frames to follow it: the browser dispatches `resize` (and
 * ResizeObserver callbacks) with the next frame, so a chart that redraws at its container's width is
 * checked as a reader sees it, not in the instant between the resize and its redraw (CI 2026-11-28: a
 * progress chart still 948 px wide at 375 px).
 */
export async function resizeTo(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
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

/**
 * Starts recording each change of text of the page's polite live regions (`aria-live="polite"`,
 * `role="status"`): a region a screen reader reads again at every change (issue 34).
 */
export async function watchPoliteRegions(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as {
      __politeChanges?: { key: number; region: string; at: number }[];
      __politeObserver?: MutationObserver;
    };
    w.__politeObserver?.disconnect();
    const changes: { key: number; region: string; at: number }[] = [];
    const last = new WeakMap<Element, string>();
    const keys = new Map<Element, number>();
    const regions = () =>
      document.querySelectorAll('[aria-live="polite"], [role="status"]:not([aria-live="off"])');
    for (const region of regions()) last.set(region, region.textContent ?? '');
    const observer = new MutationObserver(() => {
      for (const region of regions()) {
        const text = region.textContent ?? '';
        if (last.has(region) && last.get(region) !== text) {
          const name = region.getAttribute('data-testid') ?? region.id ?? '';
          if (!keys.has(region)) keys.set(region, keys.size);
          changes.push({
            key: keys.get(region)!,
            region: `${region.tagName.toLowerCase()}${name ? ` ${name}` : ''}: ${text.trim().slice(0, 60)}`,
            at: performance.now(),
          });
        }
        last.set(region, text);
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    w.__politeChanges = changes;
    w.__politeObserver = observer;
  });
}

/**
 * Watches for `ms` (since watchPoliteRegions) and asserts that no polite region changed more than once
 * in any 10 s: a countdown read aloud every second is noise, not information (issue 34).
 */
export async function expectCalmPoliteRegions(page: Page, ms: number): Promise<void> {
  await page.waitForTimeout(ms);
  const changes = await page.evaluate(() => {
    const w = window as unknown as {
      __politeChanges?: { key: number; region: string; at: number }[];
      __politeObserver?: MutationObserver;
    };
    w.__politeObserver?.disconnect();
    return w.__politeChanges ?? [];
  });
  const tooSoon = changes.filter((c, i) =>
    changes.slice(0, i).some((earlier) => earlier.key === c.key && c.at - earlier.at < 10_000),
  );
  expect(
    tooSoon.map((c) => c.region),
    `polite regions changing more than once in 10 s on ${pathOf(page)}`,
  ).toEqual([]);
}
