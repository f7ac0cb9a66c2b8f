import { REDIRECTS } from '@portale/shared/pages';
import { appReady, expect, expectNoAxeViolations, loginAs, test } from '../fixtures.ts';

// Seed §2: /portale applies its conditions in this order; each account fails exactly one of them.
const CASES = [
  { who: 'a guest', email: null, to: REDIRECTS.login, heading: 'Accedi' },
  {
    who: 'a user who must change the password',
    email: 'cambio-password@demo.test',
    to: REDIRECTS.changePassword,
    heading: 'Cambia la password',
  },
  {
    who: 'a user with unverified contacts',
    email: 'da-verificare@demo.test',
    to: REDIRECTS.completeRegistration,
    heading: 'Completa la registrazione',
  },
  {
    who: 'a principal who has not signed',
    email: 'dirigente-senza-firma@demo.test',
    to: REDIRECTS.signPrincipalDocument,
    heading: 'Adesione formale',
  },
  {
    who: 'a principal who has signed',
    email: 'dirigente@demo.test',
    to: REDIRECTS.home,
    heading: 'Benvenuta/o, Daniela',
  },
] as const;

test.describe('/portale conditions', () => {
  for (const c of CASES) {
    test(`${c.who} opening /portale lands on ${c.to}`, async ({ page }) => {
      if (c.email) {
        // Login always goes to /portale, which applies the conditions.
        await loginAs(page, c.email);
        await expect(page).toHaveURL((url) => url.pathname === c.to);
      }
      await page.goto('/portale');
      await appReady(page);
      await expect(page).toHaveURL((url) => url.pathname === c.to);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(c.heading);
      await expect(page.getByTestId('error-screen')).toHaveCount(0);
      await expectNoAxeViolations(page);
    });
  }
});
