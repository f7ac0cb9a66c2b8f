import type { BrowserContext, Page } from '@playwright/test';
import { appReady, expect, expectNoAxeViolations, test } from '../fixtures.ts';
import { startOwnWeb } from '../own-api.ts';

const banner = (page: Page) => page.getByTestId('consent-banner');
const cookieValue = async (context: BrowserContext, name: string) =>
  (await context.cookies()).find((c) => c.name === name)?.value;
const DAY = 24 * 3600 * 1000;

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

test.describe('cookie banner', () => {
  test('first visit: banner as an overlay, equal buttons, nothing stored, axe clean; scrolling is not consent', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    await appReady(page);
    await expect(banner(page)).toBeVisible();
    expect(await banner(page).evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    const styles = await banner(page)
      .locator('.consent-actions .btn')
      .evaluateAll((buttons) =>
        buttons.map((b) => {
          const s = getComputedStyle(b);
          return [s.fontSize, s.fontWeight, s.color, s.backgroundColor, s.height].join('|');
        }),
      );
    expect(styles).toHaveLength(3);
    expect(new Set(styles).size).toBe(1);
    await page.mouse.wheel(0, 2000);
    await page.reload();
    await expect(banner(page)).toBeVisible();
    expect(await cookieValue(context, 'ncc_c')).toBeUndefined();
    await expectNoAxeViolations(page);
    await page.goto('/contatti');
    await expect(page.locator('h1')).toHaveText('Contatti');
  });

  test('the banner is in the first paint of a prerendered page, inert until the app takes over; not for a visitor who has chosen', async ({
    page,
    request,
  }) => {
    const first = await request.get('/team');
    expect(first.headers()['vary']).toMatch(/\bCookie\b/);
    const html = await first.text();
    expect(html).toContain('<body class="has-consent-banner">');
    const section =
      /<section inert(="")? class="consent-banner[^"]*"[^>]*data-testid="consent-banner"[\s\S]*?<\/section>/.exec(
        html,
      )?.[0] ?? '';
    const buttons = section.match(/<button[^>]*>/g) ?? [];
    expect(buttons).toHaveLength(4);
    for (const button of buttons) expect(button).toMatch(/ disabled[ =>]/);
    const chosen = await request.get('/team', {
      headers: { cookie: 'ncc_c=necessarianalitici; ncc_e=necessari~analitici; ncc_v=2026-01' },
    });
    expect(await chosen.text()).not.toContain('data-testid="consent-banner"');
    // A refusal older than six months asks again (seed-behaviour §4.2 and the Garante's six months).
    const oldRefusal = `ncc_c=necessarianalitici; ncc_e=necessari; ncc_v=2026-01; ncc_r=${Date.now() - 200 * DAY}`;
    expect(await (await request.get('/team', { headers: { cookie: oldRefusal } })).text()).toContain(
      'data-testid="consent-banner"',
    );
    await page.goto('/team');
    await appReady(page);
    await banner(page).getByRole('button', { name: 'Rifiuta', exact: true }).click();
    await expect(banner(page)).toHaveCount(0);
    expect(await page.evaluate(() => document.body.classList.contains('has-consent-banner'))).toBe(false);
  });

  test('accept all: stored as the seed says, proof recorded, no banner on reload', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    const proof = page.waitForResponse((r) => r.url().endsWith('/api/consents'));
    await banner(page).getByRole('button', { name: 'Accetta tutti' }).click();
    expect((await proof).status()).toBe(201);
    // The banner is gone with the focused button: the focus goes on to the page's content (issue 34).
    await expect(page.locator('main#main-content')).toBeFocused();
    expect(await cookieValue(context, 'ncc_c')).toBe('necessarianalitici');
    expect(await cookieValue(context, 'ncc_e')).toBe('necessari~analitici');
    await page.reload();
    await expect(page.locator('h1')).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
  });

  for (const how of ['Rifiuta', 'X'] as const) {
    test(`refusal with ${how}: necessary only, refusal time stored, no banner on reload`, async ({
      page,
      context,
    }) => {
      await page.goto('/');
      const button =
        how === 'X'
          ? banner(page).getByRole('button', { name: 'Chiudi e rifiuta i cookie facoltativi' })
          : banner(page).getByRole('button', { name: 'Rifiuta', exact: true });
      await button.click();
      await expect(page.locator('main#main-content')).toBeFocused();
      expect(await cookieValue(context, 'ncc_c')).toBe('necessarianalitici');
      expect(await cookieValue(context, 'ncc_e')).toBe('necessari');
      expect(Number(await cookieValue(context, 'ncc_r'))).toBeGreaterThan(Date.now() - 60_000);
      await page.reload();
      await expect(page.locator('h1')).toBeVisible();
      await expect(banner(page)).toHaveCount(0);
    });
  }

  test('customise by keyboard: nothing pre-ticked, focus trapped in the dialog and restored', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    // The prerendered banner's buttons are disabled until the app has taken over (they cannot be focused).
    await appReady(page);
    const customise = banner(page).getByRole('button', { name: 'Personalizza' });
    await customise.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Personalizza i cookie' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Cookie analitici (Google Analytics 4)')).not.toBeChecked();
    await expect(dialog.getByLabel('Cookie tecnici necessari')).toBeChecked();
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(customise).toBeFocused();
    await page.keyboard.press('Enter');
    await dialog.locator('label[for="consent-analitici"]').click();
    await expect(dialog.getByLabel('Cookie analitici (Google Analytics 4)')).toBeChecked();
    await dialog.getByRole('button', { name: 'Salva le scelte' }).click();
    expect(await cookieValue(context, 'ncc_e')).toBe('necessari~analitici');
    // The opener left with the banner: the focus goes to the page's content, not to the top of the page.
    await expect(page.locator('main#main-content')).toBeFocused();
  });

  test('change the choice later from the cookie policy and from the footer', async ({ page, context }) => {
    await page.goto('/policy/cookie');
    await banner(page).getByRole('button', { name: 'Accetta tutti' }).click();
    await expect(page.getByTestId('consent-status')).toContainText('Hai consentito i cookie analitici');
    await page.getByRole('button', { name: 'Revoca il consenso' }).click();
    expect(await cookieValue(context, 'ncc_e')).toBe('necessari');
    await page.locator('#footer').getByRole('button', { name: 'Preferenze cookie' }).click();
    const dialog = page.getByRole('dialog', { name: 'Personalizza i cookie' });
    await dialog.getByRole('button', { name: 'Accetta tutti' }).click();
    expect(await cookieValue(context, 'ncc_e')).toBe('necessari~analitici');
  });

  test('asks again when the configured id list or the policy version changes', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([
      { name: 'ncc_c', value: 'necessaryga', url: baseURL! },
      { name: 'ncc_e', value: 'necessary~ga', url: baseURL! },
      { name: 'ncc_v', value: '2026-01', url: baseURL! },
    ]);
    await page.goto('/');
    await expect(banner(page)).toBeVisible();
    await context.addCookies([
      { name: 'ncc_c', value: 'necessarianalitici', url: baseURL! },
      { name: 'ncc_e', value: 'necessari~analitici', url: baseURL! },
      { name: 'ncc_v', value: '2025-01', url: baseURL! },
    ]);
    await page.reload();
    await expect(banner(page)).toBeVisible();
  });

  test('a refusal is not asked again before six months', async ({ page }) => {
    const start = new Date('2026-03-01T10:00:00+01:00');
    await page.clock.setFixedTime(start);
    await page.goto('/');
    await banner(page).getByRole('button', { name: 'Rifiuta', exact: true }).click();
    await page.clock.setFixedTime(new Date(start.getTime() + 150 * DAY));
    await page.reload();
    await expect(page.locator('h1')).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
    await page.clock.setFixedTime(new Date(start.getTime() + 184 * DAY));
    await page.reload();
    await expect(banner(page)).toBeVisible();
  });
});

test.describe('Google Analytics under consent (web server with GA_MEASUREMENT_ID=G-TEST123)', () => {
  let server: { webOrigin: string; stop(): void } | undefined;
  let gaOrigin = '';
  test.beforeAll(async () => {
    server = await startOwnWeb({ env: { GA_MEASUREMENT_ID: 'G-TEST123' } });
    gaOrigin = server.webOrigin;
  });
  test.afterAll(() => server?.stop());

  test('no Google request before consent; consent mode values after accept; revoke deletes _ga', async ({
    page,
    context,
  }) => {
    const google: string[] = [];
    await context.route(
      /^https?:\/\/([^/]*\.)?(google[^/]*\.com|googletagmanager\.com|google-analytics\.com)\//,
      (route) => {
        google.push(route.request().url());
        return route.fulfill({ status: 200, contentType: 'text/javascript', body: '' });
      },
    );
    await page.goto(`${gaOrigin}/`);
    await expect(banner(page)).toBeVisible();
    await page.mouse.wheel(0, 1500);
    await page.goto(`${gaOrigin}/contatti`);
    expect(google).toEqual([]);
    expect(await page.evaluate(() => window.dataLayer === undefined)).toBe(true);

    await banner(page).getByRole('button', { name: 'Accetta tutti' }).click();
    await expect.poll(() => google.length).toBeGreaterThan(0);
    expect(google[0]).toBe('https://www.googletagmanager.com/gtag/js?id=G-TEST123');
    const layer: unknown[][] = await page.evaluate(() =>
      (window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>)),
    );
    const consent = layer.filter((e) => e[0] === 'consent');
    const denied = { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' };
    expect(consent[0]).toEqual([
      'consent',
      'default',
      { analytics_storage: 'denied', ...denied, wait_for_update: 500 },
    ]);
    expect(consent[1]).toEqual(['consent', 'update', { analytics_storage: 'granted', ...denied }]);
    expect(layer.findIndex((e) => e[0] === 'consent')).toBeLessThan(
      layer.findIndex((e) => e[0] === 'config'),
    );

    await context.addCookies([
      { name: '_ga', value: 'GA1.1.123.456', url: gaOrigin },
      { name: '_ga_TEST123', value: 'GS1.1.1', url: gaOrigin },
    ]);
    await page.goto(`${gaOrigin}/policy/cookie`);
    await page.getByRole('button', { name: 'Revoca il consenso' }).click();
    const names = (await context.cookies()).map((c) => c.name);
    expect(names.filter((n) => n.startsWith('_ga'))).toEqual([]);
    const last = await page.evaluate(() => Array.from((window.dataLayer ?? []).at(-1) as ArrayLike<unknown>));
    expect(last).toEqual(['consent', 'update', { analytics_storage: 'denied', ...denied }]);
    expect(
      await page.evaluate(() => (window as unknown as Record<string, unknown>)['ga-disable-G-TEST123']),
    ).toBe(true);
  });
});
