import type { Page } from '@playwright/test';
import {
  appReady,
  DESKTOP,
  expect,
  expectAccessibleAtBothWidths,
  expectErrorScreen,
  listSettled,
  signIn,
  rememberConsentChoice,
  test,
} from '../fixtures.ts';
import { registerTeacher } from '../registrations.ts';

const QUEUE = '/portale/revisioni/insegnanti';

/** The counts of the state chips, by state. */
async function counts(page: Page): Promise<Record<string, number>> {
  const chips = page.getByTestId('review-counts').getByRole('link');
  const out: Record<string, number> = {};
  for (const chip of await chips.all())
    out[(await chip.getAttribute('data-state'))!] = Number(await chip.getAttribute('data-count'));
  return out;
}

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

test('revisioni: lo staff percorre la coda degli insegnanti, approva e chiede correzioni', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const stamp = Date.now();
  await registerTeacher(baseURL!, `Coda${stamp}a`);
  await registerTeacher(baseURL!, `Coda${stamp}b`);
  await page.setViewportSize(DESKTOP);
  await signIn(page, 'sylla@demo.test', { path: QUEUE });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Revisioni: registrazioni di insegnanti ed educatori',
  );
  await listSettled(page);
  const before = await counts(page);
  expect(before.in_attesa).toBeGreaterThanOrEqual(2);
  await expectAccessibleAtBothWidths(page);

  // The chips filter the list, and the URL keeps the filter.
  await page
    .getByTestId('review-counts')
    .getByRole('link', { name: /^In attesa:/ })
    .click();
  await expect(page).toHaveURL(/state=in_attesa/);
  await listSettled(page);
  await expect(page.getByTestId('review-counts').getByRole('link', { name: /^In attesa:/ })).toHaveAttribute(
    'aria-current',
    'true',
  );
  const table = page.getByRole('table', { name: 'Registrazioni di insegnanti ed educatori' });
  await expect(table).toContainText(`Coda${stamp}a Ornella`);

  // Walk the queue: the first item is approved…
  await page.getByTestId('start-review').click();
  await expect(page).toHaveURL(/\/portale\/revisioni\/insegnanti\/revisione$/);
  await appReady(page);
  const item = page.getByTestId('review-item');
  await expect(item).toBeVisible();
  await expectAccessibleAtBothWidths(page);
  const firstTitle = (await item.getByRole('heading', { level: 2 }).textContent())!;
  const firstId = await item.getAttribute('data-item-id');
  const form = page.getByTestId('review-decision');
  await form.getByText('Approva', { exact: true }).click();
  await form.getByRole('button', { name: 'Registra la decisione' }).click();
  await expect(page.getByTestId('review-outcome')).toContainText(
    `Decisione registrata: «${firstTitle}» ora è nello stato «Approvata».`,
  );
  await expect(item).not.toHaveAttribute('data-item-id', firstId!);

  // …the next asks for changes: without a note it is refused beside the field, with one it is recorded.
  const secondTitle = (await item.getByRole('heading', { level: 2 }).textContent())!;
  await form.getByText('Chiedi correzioni', { exact: true }).click();
  await expect(form.getByLabel('Chiedi correzioni')).toBeChecked();
  await form.getByRole('button', { name: 'Registra la decisione' }).click();
  const note = form.getByLabel('Nota');
  await expect(note).toHaveAttribute('aria-invalid', 'true');
  await expect(form).toContainText('Scrivi una nota');
  await expectAccessibleAtBothWidths(page);
  await note.fill('Indica il plesso in cui insegni quest’anno.');
  await form.getByRole('button', { name: 'Registra la decisione' }).click();
  await expect(page.getByTestId('review-outcome')).toContainText(
    `«${secondTitle}» ora è nello stato «Da correggere»`,
  );

  // The counts follow.
  await page.getByRole('link', { name: 'Torna alla coda' }).first().click();
  await appReady(page);
  await listSettled(page);
  const after = await counts(page);
  expect(after.approvata).toBe(before.approvata! + 1);
  expect(after.da_correggere).toBe(before.da_correggere! + 1);
  expect(after.in_attesa).toBe(before.in_attesa! - 2);

  // A decided item opened from the list shows its history and cannot be decided again.
  await page.goto(`${QUEUE}?state=da_correggere&q=${encodeURIComponent(secondTitle.split(' ')[0]!)}`);
  await appReady(page);
  await listSettled(page);
  await page.getByRole('table').getByRole('link', { name: secondTitle }).click();
  await appReady(page);
  await expect(page.getByTestId('review-decided')).toContainText('Da correggere');
  await expect(page.getByTestId('review-history')).toContainText('Indica il plesso in cui insegni');
  await expect(page.getByTestId('review-history')).toContainText('Stefano Sylla');
});

test('revisioni: lo staff esamina un’adesione firmata e la approva', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page, 'cromos@demo.test', { path: '/portale/revisioni/adesioni/revisione' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Revisione: adesioni formali');
  const adhesion = page.getByTestId('review-adhesion');
  await expect(adhesion).toBeVisible();
  await expect(adhesion).toContainText('Codice meccanografico');
  await expect(adhesion).toContainText(/Firmatario|Firma non disponibile/);
  await expect(
    adhesion.getByRole('button', { name: 'Scarica il documento di adesione (PDF)' }),
  ).toBeVisible();
  await expectAccessibleAtBothWidths(page);
  const title = (await page.getByTestId('review-item').getByRole('heading', { level: 2 }).textContent())!;
  const form = page.getByTestId('review-decision');
  await form.getByText('Approva', { exact: true }).click();
  await form.getByRole('button', { name: 'Registra la decisione' }).click();
  await expect(page.getByTestId('review-outcome')).toContainText(`«${title}» ora è nello stato «Approvata»`);
});

test('revisioni: una coda vuota lo dice, con il ritorno alla coda', async ({ page }) => {
  await signIn(page, 'cromos@demo.test');
  // Whatever the demo data holds, the API answers that nothing waits (the explicit empty answer of `next`).
  await page.route('**/api/reviews/insegnanti/next', (route) =>
    route.fulfill({ json: { item: null, pending: 0 } }),
  );
  await page.goto(`${QUEUE}/revisione`);
  await appReady(page);
  const empty = page.getByTestId('review-empty');
  await expect(empty.getByRole('heading', { level: 2 })).toHaveText('Nessun elemento da revisionare');
  await expect(page.getByTestId('review-pending')).toHaveText('0 elementi in attesa');
  await expectAccessibleAtBothWidths(page);
  await empty.getByRole('link', { name: 'Torna alla coda' }).click();
  await appReady(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Revisioni: registrazioni di insegnanti ed educatori',
  );
  await listSettled(page);
});

test('revisioni: user.index vede la coda ma non la revisione', async ({ page }) => {
  await signIn(page, 'utenti@demo.test', { path: QUEUE });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Revisioni: registrazioni di insegnanti ed educatori',
  );
  await listSettled(page);
  await expect(page.getByTestId('review-counts')).toBeVisible();
  await expect(page.getByTestId('start-review')).toHaveCount(0);
  await page.goto(`${QUEUE}/revisione`);
  await appReady(page);
  await expectErrorScreen(page, 403);
});

test('revisioni: un tipo sconosciuto è una pagina non trovata', async ({ page }) => {
  await signIn(page, 'sylla@demo.test');
  for (const path of [
    '/portale/revisioni/sconosciuto',
    '/portale/revisioni/sconosciuto/revisione',
    `${QUEUE}/revisione?item=abc`,
  ]) {
    await page.goto(path);
    await appReady(page);
    await expectErrorScreen(page, 404);
  }
});
