import { PAGES } from '@portale/shared/pages';
import { appReady, expect, expectNoAxeViolations, test } from '../fixtures.ts';

// Public pages of the default layout without a session guard ('/:token' is covered in errors.spec.ts).
const PUBLIC_PAGES = PAGES.filter(
  (p) => p.layout === 'default' && !p.path.includes(':') && !p.guards.includes('auth') && p.id !== 'home',
);

test.describe('public pages', () => {
  test('home renders its heading and passes axe', async ({ page }) => {
    await page.goto('/');
    await appReady(page);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('error-screen')).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

  for (const def of PUBLIC_PAGES) {
    test(`${def.path} renders "${def.title}" and passes axe`, async ({ page }) => {
      await page.goto(def.path);
      await appReady(page);
      expect(new URL(page.url()).pathname).toBe(def.path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(def.title);
      await expect(page.getByTestId('error-screen')).toHaveCount(0);
      await expectNoAxeViolations(page);
    });
  }
});
