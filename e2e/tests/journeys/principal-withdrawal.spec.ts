import type { Page } from '@playwright/test';
import {
  appReady,
  expect,
  expectAccessibleAtBothWidths,
  loginAs,
  rememberConsentChoice,
  test,
} from '../../fixtures.ts';

// A principal withdraws their active institute from their home (product §5). Staff first approve the
// signed adhesions waiting in the queue up to theirs (unless another spec approved it already): this
// changes demo data the other specs count, so it runs in the `journeys` project, after them all.

const PRINCIPAL = 'dirigente@demo.test';
const STAFF = 'cromos@demo.test';

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

async function principalHome(page: Page) {
  if (new URL(page.url()).pathname !== '/portale') await page.goto('/portale');
  await appReady(page);
  return page.getByTestId('school-home');
}

test('la dirigente ritira dalla sua home l’adesione dell’istituto attivo, con il motivo', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  await loginAs(page, PRINCIPAL);
  let home = await principalHome(page);
  const institute = (await home.getByRole('heading', { level: 3 }).first().textContent())!.trim();

  await test.step('lo staff approva le adesioni firmate in coda, fino a quella dell’istituto', async () => {
    const staff = await browser.newContext({ baseURL });
    await rememberConsentChoice(staff, baseURL!);
    const tab = await staff.newPage();
    await loginAs(tab, STAFF);
    for (let i = 0; i < 30; i++) {
      await tab.goto('/portale/revisioni/adesioni/revisione');
      await appReady(tab);
      const item = tab.getByTestId('review-item');
      await expect(item.or(tab.getByTestId('review-empty'))).toBeVisible();
      if (!(await item.isVisible())) break;
      const title = (await item.getByRole('heading', { level: 2 }).textContent())!.trim();
      const form = tab.getByTestId('review-decision');
      await form.getByText('Approva', { exact: true }).click();
      await form.getByRole('button', { name: 'Registra la decisione' }).click();
      await expect(tab.getByTestId('review-outcome')).toContainText('ora è nello stato «Approvata»');
      if (title === institute) break;
    }
    await staff.close();
  });

  await page.reload();
  home = await principalHome(page);
  await expect(home).toContainText('Attivo');
  const form = home.getByRole('form', { name: 'Ritira l’adesione' });
  await expect(form).toBeVisible();
  await expectAccessibleAtBothWidths(page);

  // A reason of spaces passes the browser's check and is refused by the API, beside the field.
  await form.getByLabel('Motivo del ritiro (obbligatorio)').fill('   ');
  await form.getByRole('button', { name: 'Ritira l’adesione dell’istituto' }).click();
  await expect(form.getByLabel('Motivo del ritiro (obbligatorio)')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessibleAtBothWidths(page);

  await form
    .getByLabel('Motivo del ritiro (obbligatorio)')
    .fill('Il collegio dei docenti ha deciso di sospendere la partecipazione.');
  await form.getByRole('button', { name: 'Ritira l’adesione dell’istituto' }).click();
  await expect(home).toContainText('Ritirato');
  await expect(
    home.getByText('Adesione ritirata. Il dirigente e il referente sono stati avvisati.'),
  ).toBeVisible();
  await expect(home.getByRole('form', { name: 'Ritira l’adesione' })).toHaveCount(0);
  await expectAccessibleAtBothWidths(page);
});
