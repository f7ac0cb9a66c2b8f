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

test.describe('error screen', () => {
  test('an unknown path is a 404 with the seed texts and a way home', async ({ page }) => {
    await page.goto('/does/not/exist?q=1');
    await expectErrorScreen(page, 404, 'Page not found: /does/not/exist?q=1');
    const screen = page.getByTestId('error-screen');
    await expect(screen.getByRole('heading', { level: 1 })).toHaveText(TEXTS.notFoundTitle);
    await expect(screen.getByText(TEXTS.notFoundBody)).toBeVisible();
    await expect(page).toHaveTitle(/^Pagina non trovata/);
    await expectNoAxeViolations(page);

    await screen.getByRole('link', { name: TEXTS.home }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/' && url.search === '');
    await expect(page.getByTestId('error-screen')).toHaveCount(0);
    await appReady(page);
    await expectNoAxeViolations(page);
  });

  // A malformed code (`/abc`: the route's format rule, before any request) and a well-formed one that
  // opens nothing (`/abc1234`: the API's answer). The other malformed forms are a component test of the
  // route (apps/web/src/app/route-guards.test.tsx) and a unit test of the format (token.test.ts).
  for (const path of ['/abc', '/abc1234']) {
    test(`${path} is a token 404 (Page Not Found)`, async ({ page }) => {
      await page.goto(path);
      await expectErrorScreen(page, 404, `Page Not Found: ${path}`);
      await expect(page.getByText(TEXTS.notFoundBody)).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }

  test('a malformed id or an unknown review type is a 404 for a user allowed to see the section', async ({
    page,
  }) => {
    await signIn(page, 'superadmin@demo.test');
    // A malformed id and an unknown review type; every page's parameters are checked the same way by
    // its route's loader, for each kind of parameter in apps/web/src/app/route-guards.test.tsx.
    for (const path of ['/portale/istituti/abc', '/portale/revisioni/altro/revisione']) {
      await test.step(path, async () => {
        // Inside the app: the route's loader checks its parameters on every navigation.
        await navigateInApp(page, path);
        await expectErrorScreen(page, 404, `Page not found: ${path}`);
        await expect(page.getByText(TEXTS.notFoundBody)).toBeVisible();
        await expectNoAxeViolations(page);
      });
    }
  });
});
