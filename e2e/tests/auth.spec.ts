import { AUTH_COOKIES } from '@portale/shared/http';
import { appReady, expect, expectNoAxeViolations, loginAs, submitLogin, TEXTS, test } from '../fixtures.ts';

const SUPERADMIN = 'superadmin@demo.test';
const PORTAL_HEADING = 'Benvenuta/o, Silvia';

test.describe('authentication', () => {
  test('a guest opening a guarded page logs in and comes back to it', async ({ page }) => {
    await page.goto('/portale/istituti');
    await expect(page).toHaveURL((url) => url.pathname === '/auth/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Accedi' })).toBeVisible();
    await expectNoAxeViolations(page);

    await submitLogin(page, SUPERADMIN);
    await expect(page).toHaveURL((url) => url.pathname === '/portale/istituti');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Istituti');
    await expectNoAxeViolations(page);
  });

  test('login takes the user to /portale', async ({ page }) => {
    await loginAs(page, SUPERADMIN);
    await expect(page).toHaveURL((url) => url.pathname === '/portale');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(PORTAL_HEADING);
    await expect(page.getByTestId('user-name')).toHaveText('Silvia Amministratrice');
    await expectNoAxeViolations(page);
  });

  test('a wrong password shows the Italian error and stays on the login page', async ({ page }) => {
    await page.goto('/auth/login');
    await submitLogin(page, SUPERADMIN, 'password-sbagliata');
    await expect(page.getByRole('alert')).toHaveText(TEXTS.badCredentials);
    await expect(page).toHaveURL((url) => url.pathname === '/auth/login');
    await expect(page.getByRole('link', { name: 'Accedi' })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('logout goes to / and the portal asks for login again', async ({ page }) => {
    await loginAs(page, SUPERADMIN);
    await page.getByRole('button', { name: 'Esci' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/');
    await expect(page.getByRole('link', { name: 'Accedi' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Esci' })).toHaveCount(0);
    await appReady(page);
    await expectNoAxeViolations(page);

    await page.goto('/portale');
    await expect(page).toHaveURL((url) => url.pathname === '/auth/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Accedi' })).toBeVisible();
    const names = (await page.context().cookies()).map((c) => c.name);
    expect(names).not.toContain(AUTH_COOKIES.refreshToken);
    expect(names).not.toContain(AUTH_COOKIES.strategy);
    await expectNoAxeViolations(page);
  });

  // The login action reads the return path through safeReturnPath and uses it once: one unsafe path
  // proves that here; every unsafe form (scheme, backslash, dot segments, tab…) is a unit test of
  // safeReturnPath (packages/shared/src/pages/return-path.test.ts).
  for (const unsafe of ['//evil.example']) {
    test(`an unsafe return path (${unsafe}) is replaced by /portale`, async ({ page, baseURL }) => {
      await page
        .context()
        .addCookies([{ name: AUTH_COOKIES.redirect, value: encodeURIComponent(unsafe), url: baseURL! }]);
      await loginAs(page, SUPERADMIN);
      await expect(page).toHaveURL(
        (url) => url.origin === new URL(baseURL!).origin && url.pathname === '/portale',
      );
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(PORTAL_HEADING);
      const names = (await page.context().cookies()).map((c) => c.name);
      expect(names, 'the return path is used once').not.toContain(AUTH_COOKIES.redirect);
      await expectNoAxeViolations(page);
    });
  }

  test('no token is readable by scripts after login', async ({ page }) => {
    await page.goto('/auth/login');
    const loginResponse = page.waitForResponse(
      (r) => r.url().endsWith('/api/auth/login') && r.request().method() === 'POST',
    );
    await submitLogin(page, SUPERADMIN);
    const { token } = (await (await loginResponse).json()) as { token: string };
    expect(token.length).toBeGreaterThan(10);
    await expect(page).toHaveURL((url) => url.pathname === '/portale');
    await appReady(page);

    const readable = await page.evaluate(() => ({
      local: Object.entries(localStorage),
      session: Object.entries(sessionStorage),
      cookie: document.cookie,
    }));
    expect(readable.local).toEqual([]);
    // Only the reload throttle record may live in sessionStorage (seed §9), never a credential.
    expect(readable.session.map(([key]) => key).filter((key) => key !== 'portale:reload')).toEqual([]);
    const readableNames = readable.cookie
      .split('; ')
      .filter(Boolean)
      .map((c) => c.slice(0, c.indexOf('=')))
      .sort();
    expect(readableNames).toEqual([AUTH_COOKIES.tokenExpiration, AUTH_COOKIES.strategy, 'XSRF-TOKEN'].sort());
    const everythingReadable = JSON.stringify(readable);
    expect(everythingReadable).not.toContain(token);

    const cookies = await page.context().cookies();
    const refresh = cookies.find((c) => c.name === AUTH_COOKIES.refreshToken);
    expect(refresh, 'refresh cookie').toBeDefined();
    expect(refresh!.httpOnly).toBe(true);
    expect(refresh!.secure).toBe(true);
    expect(refresh!.sameSite).toBe('Lax');
    expect(everythingReadable).not.toContain(refresh!.value);
    for (const c of cookies) expect(c.value, `cookie ${c.name}`).not.toContain(token);
    await expectNoAxeViolations(page);
  });

  test('a full reload of /portale keeps the session', async ({ page }) => {
    await loginAs(page, SUPERADMIN);
    await page.reload();
    await appReady(page);
    await expect(page).toHaveURL((url) => url.pathname === '/portale');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(PORTAL_HEADING);
    await expect(page.getByRole('button', { name: 'Esci' })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
