import type { Page } from '@playwright/test';
import { appReady, expect, rememberConsentChoice, test } from '../fixtures.ts';
import { PUBLIC_PAGES } from '../public-pages.ts';

/**
 * Keyboard-only use of every public page (WCAG 2.1.1, 2.4.3, 2.4.7): walking the page with Tab
 * reaches every visible control, in an order that never goes back up the page, and each control
 * shows where the focus is.
 */

interface Stop {
  index: number;
  label: string;
  indicator: boolean;
  inViewport: boolean;
}

/** Numbers the page's visible, tabbable controls; radio groups count once (arrow keys move inside). */
function markTabbables(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input, select, textarea, summary, [tabindex]';
    const seenRadioGroups = new Set<string>();
    const found: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      delete el.dataset.kb;
      const disabled = (el as HTMLButtonElement).disabled === true;
      const hidden =
        el.closest('[inert], [aria-hidden="true"]') !== null ||
        !el.checkVisibility({ visibilityProperty: true });
      const rect = el.getBoundingClientRect();
      if (el.tabIndex < 0 || disabled || hidden || rect.width * rect.height === 0) continue;
      if (el instanceof HTMLInputElement && el.type === 'hidden') continue;
      if (el instanceof HTMLInputElement && el.type === 'radio') {
        if (seenRadioGroups.has(el.name)) continue;
        seenRadioGroups.add(el.name);
      }
      el.dataset.kb = String(found.length);
      found.push(
        `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} «${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 60)}»`,
      );
    }
    return found;
  });
}

/** Presses Tab and describes where the focus went (waiting up to three seconds for a smooth scroll to it). */
async function tab(page: Page): Promise<Stop | null> {
  await page.keyboard.press('Tab');
  return page.evaluate(async () => {
    let el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    if (el instanceof HTMLInputElement && el.type === 'radio') {
      el =
        document.querySelector<HTMLElement>(`input[type="radio"][name="${CSS.escape(el.name)}"][data-kb]`) ??
        el;
    }
    // A focus ring is an outline or a box shadow, on the control or (custom checkboxes) on its label.
    const ring = (node: Element, pseudo?: string) => {
      const style = getComputedStyle(node, pseudo);
      return (
        (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) ||
        (style.boxShadow !== 'none' && style.boxShadow !== '')
      );
    };
    const label = el instanceof HTMLInputElement && el.labels?.[0];
    const indicator =
      ring(el) || (label ? ring(label) || ring(label, '::before') || ring(label, '::after') : false);
    const shown = label || el;
    const onScreen = () => {
      const rect = shown.getBoundingClientRect();
      return (
        rect.bottom > 0 && rect.top < window.innerHeight && rect.right > 0 && rect.left < window.innerWidth
      );
    };
    // The page scrolls smoothly (Bootstrap's `scroll-behavior: smooth`); on a loaded machine the
    // scroll may take longer than its nominal time, so the wait is in time (3 s), and also at least
    // 60 frames: focusing a new-password field loads the password policy (about 240 KB gzip), whose
    // evaluation can hold the main thread past the 3 s before the scroll has had a frame to run.
    let inViewport = onScreen();
    const deadline = performance.now() + 3_000;
    for (let frames = 0; !inViewport && (performance.now() < deadline || frames < 60); frames++) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      inViewport = onScreen();
    }
    return {
      index: el.dataset.kb === undefined ? -1 : Number(el.dataset.kb),
      label: el.outerHTML.slice(0, 120),
      indicator,
      inViewport,
    };
  });
}

async function walk(page: Page) {
  const controls = await markTabbables(page);
  expect(controls.length).toBeGreaterThan(0);
  const reached = new Set<number>();
  const problems: string[] = [];
  let last = -1;
  for (let presses = 0; presses < controls.length + 10 && reached.size < controls.length; presses++) {
    const stop = await tab(page);
    if (!stop || stop.index < 0) continue;
    if (reached.has(stop.index)) break;
    reached.add(stop.index);
    if (!stop.indicator) problems.push(`no visible focus: ${controls[stop.index]}`);
    if (!stop.inViewport) problems.push(`focused off screen: ${controls[stop.index]}`);
    if (stop.index < last)
      problems.push(`focus went back up the page: ${controls[stop.index]} after ${controls[last]}`);
    last = stop.index;
  }
  const missed = controls.filter((_, i) => !reached.has(i));
  expect(missed, 'controls never reached with Tab').toEqual([]);
  expect(problems).toEqual([]);
}

test.beforeEach(({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 375, height: 740 },
]) {
  test.describe(`keyboard at ${viewport.width}px`, () => {
    // The visitor who asks for reduced motion: the browser scrolls to the focus at once instead of
    // Bootstrap's smooth scroll, which under load could still be on its way when the focus is read
    // (a CI run on 2026-11-27 saw the last footer link of /edu at 375 px off screen). Whether the
    // browser brings each focused control into view is what is checked, not the animation.
    test.use({ viewport, reducedMotion: 'reduce' });
    for (const p of [...PUBLIC_PAGES, { path: '/auth/login' }]) {
      test(`${p.path}: Tab reaches every control, in order, with a visible focus`, async ({ page }) => {
        await page.goto(p.path);
        await appReady(page);
        await walk(page);
      });
    }
  });
}

test('the first Tab offers the skip link, which moves the focus to the content', async ({ page }) => {
  await page.goto('/team');
  await appReady(page);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Vai al contenuto principale' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
});
