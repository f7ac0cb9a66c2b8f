import type { Page, Request } from '@playwright/test';
import { appReady, expect, expectNoAxeViolations, test } from '../fixtures.ts';

declare global {
  interface Window {
    __e2eMarker?: string;
  }
}

/** Makes the app see a new build: /build.json answers another id, then the tab "becomes visible". */
async function announceNewBuild(page: Page) {
  const checked = page.waitForResponse((r) => new URL(r.url()).pathname === '/build.json');
  await page.evaluate(() => {
    if (document.visibilityState !== 'visible') throw new Error('tab not visible');
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await checked;
  // Let the app read the answer before navigating.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
}

async function readReloadRecord(page: Page): Promise<{ path: string; expires: number } | null> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('portale:reload') ?? 'null'));
}

test('a new build turns the next navigation into one full load per path per 10 seconds', async ({ page }) => {
  const documents: string[] = [];
  page.on('request', (r: Request) => {
    if (r.resourceType() === 'document') documents.push(new URL(r.url()).pathname);
  });
  await page.route('**/build.json*', (route) =>
    route.fulfill({
      contentType: 'application/json',
      headers: { 'cache-control': 'no-cache' },
      body: JSON.stringify({ id: 'e2e-next-build', timestamp: Date.now() }),
    }),
  );

  await page.goto('/');
  await appReady(page);
  await expectNoAxeViolations(page);
  // The first-visit cookie banner is fixed over the bottom of the page: close it (a refusal, kept in a cookie).
  const banner = page.getByTestId('consent-banner');
  if (await banner.isVisible()) {
    await banner.getByRole('button', { name: 'Chiudi e rifiuta i cookie facoltativi' }).click();
    await expect(banner).toHaveCount(0);
  }
  const footer = page.locator('footer');

  await test.step('without a new build, a link is a client-side navigation', async () => {
    await page.evaluate(() => (window.__e2eMarker = 'first document'));
    documents.length = 0;
    await footer.getByRole('link', { name: 'Cookie policy' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/policy/cookie');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cookie policy');
    expect(await page.evaluate(() => window.__e2eMarker)).toBe('first document');
    expect(documents).toEqual([]);
  });

  await test.step('after a new build is seen, the next navigation is a full load of its target', async () => {
    await announceNewBuild(page);
    documents.length = 0;
    const before = Date.now();
    const load = page.waitForEvent('load');
    await footer.getByRole('link', { name: 'Contatti' }).click();
    await load;
    await expect(page).toHaveURL((url) => url.pathname === '/contatti');
    await appReady(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contatti');
    expect(documents).toEqual(['/contatti']);
    expect(await page.evaluate(() => window.__e2eMarker)).toBeUndefined();
    const record = await readReloadRecord(page);
    expect(record?.path).toBe('/contatti');
    expect(record!.expires).toBeGreaterThan(before);
    expect(record!.expires).toBeLessThanOrEqual(Date.now() + 10_000);
    await expectNoAxeViolations(page);
  });

  await test.step('within 10 s, the same path is not reloaded again', async () => {
    await page.evaluate(() => (window.__e2eMarker = 'second document'));
    await announceNewBuild(page);
    documents.length = 0;
    await footer.getByRole('link', { name: 'Contatti' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contatti');
    // Give a (wrong) reload the time to start.
    await page.waitForTimeout(750);
    expect(documents).toEqual([]);
    expect(await page.evaluate(() => window.__e2eMarker)).toBe('second document');
  });

  await test.step('another path still gets its own full load', async () => {
    const load = page.waitForEvent('load');
    await footer.getByRole('link', { name: 'Cookie policy' }).click();
    await load;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cookie policy');
    expect(documents).toEqual(['/policy/cookie']);
    expect(await page.evaluate(() => window.__e2eMarker)).toBeUndefined();
    expect((await readReloadRecord(page))?.path).toBe('/policy/cookie');
    await expectNoAxeViolations(page);
  });
});
