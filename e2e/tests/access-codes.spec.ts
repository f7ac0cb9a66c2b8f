import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import {
  appReady,
  expect,
  expectAccessibleAtBothWidths,
  expectErrorScreen,
  expectNoAxeViolations,
  signIn,
  rememberConsentChoice,
  test,
} from '../fixtures.ts';

// The e2e API seeds the open demo survey, PROVA01 and the demo teacher's plesso and class codes.
const TEACHER = 'insegnante@demo.test';
const OPEN_SURVEY = 'Indagine nazionale sulle scuole 2026';

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

/** A question's group (choices, scale) by the start of its text. */
const question = (page: Page, text: RegExp) => page.getByRole('group', { name: text });

test.describe('codici di accesso', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a teacher creates codes for a class and prints them; a guest answers through /{code} (progress kept on reload) and sees the thank-you; a used-up or revoked code is the 404 page', async ({
    page,
    browser,
    baseURL,
  }) => {
    const classLabel = `E2E ${Date.now() % 100_000}`;

    await signIn(page, TEACHER);
    if (new URL(page.url()).pathname !== '/portale') await page.goto('/portale');
    await appReady(page);
    const home = page.getByTestId('teacher-home');
    await expect(home.getByTestId('teacher-survey')).toContainText(OPEN_SURVEY);
    await expect(
      home.getByRole('heading', { level: 3, name: 'I codici di accesso delle tue classi' }),
    ).toBeVisible();

    // Bad input: the message is beside the field.
    const form = page.getByTestId('create-codes-form');
    await form.getByRole('button', { name: 'Crea i codici' }).click();
    await expect(form.getByText(/Indica la classe/)).toBeVisible();
    await expectAccessibleAtBothWidths(page);

    await form.getByLabel('Classe').fill(classLabel);
    await form.getByLabel('Quanti codici').fill('2');
    await form.getByLabel('Utilizzi per codice').fill('1');
    await form.getByRole('button', { name: 'Crea i codici' }).click();
    const created = page.getByTestId('codes-created');
    await expect(created).toContainText(`Creati 2 codici per la classe ${classLabel}`);
    const [used, revoked] = /: ([A-Za-z0-9]{7}), ([A-Za-z0-9]{7})\./
      .exec((await created.textContent()) ?? '')!
      .slice(1) as [string, string];
    await expect(page.getByTestId(`code-${used}`)).toContainText('0 su 1');

    await test.step('the sheet downloads as a PDF', async () => {
      const downloading = page.waitForEvent('download');
      await created.getByRole('button', { name: 'Stampa i codici appena creati' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^codici-di-accesso-\d{4}-\d{2}-\d{2}\.pdf$/);
      expect((await readFile((await download.path())!)).subarray(0, 5).toString()).toBe('%PDF-');
      await expect(page.getByTestId('codes-notice')).toContainText('Foglio dei codici scaricato (2 codici)');
    });

    await test.step('the codes export as CSV', async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: /CSV/ }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^codici-di-accesso-.*\.csv$/);
      expect((await readFile((await download.path())!)).toString('utf8')).toContain(used);
    });

    await test.step('the teacher revokes one code', async () => {
      const row = page.getByTestId(`code-${revoked}`);
      await row.getByRole('button', { name: `Revoca il codice ${revoked}` }).click();
      await row.getByRole('button', { name: `Sì, revoca ${revoked}` }).click();
      await expect(page.getByTestId('codes-notice')).toContainText(`Il codice ${revoked} è stato revocato`);
      await expect(row).toContainText('Revocato');
    });

    const guestContext = await browser.newContext({ baseURL });
    await rememberConsentChoice(guestContext, baseURL!);
    const guest = await guestContext.newPage();
    await test.step('a guest opens the code and answers; a reload keeps the answers', async () => {
      await guest.goto(`/${used}`);
      await appReady(guest);
      await expect(guest.getByRole('heading', { level: 1, name: OPEN_SURVEY })).toBeVisible();
      await expect(guest.getByTestId('access-code-context')).toContainText(classLabel);
      await expectAccessibleAtBothWidths(guest);

      // Decision 046: students and families are not asked about a teacher's own work.
      await expect(guest.getByText(/Da quanti anni lavori nella scuola/)).toHaveCount(0);
      await expect(guest.getByText(/collaborazione tra colleghi/)).toHaveCount(0);
      await guest
        .getByLabel(/Quale attività della tua scuola consiglieresti/)
        .fill('Il laboratorio di lettura');
      await expect(guest.getByTestId('draft-status')).toHaveText('Risposte salvate su questo dispositivo.');
      await guest.reload();
      await appReady(guest);
      await expect(guest.getByLabel(/Quale attività della tua scuola consiglieresti/)).toHaveValue(
        'Il laboratorio di lettura',
      );
      await expect(guest.getByTestId('draft-status')).toHaveText(
        'Abbiamo ripreso le risposte salvate su questo dispositivo.',
      );

      // A required question left out: refused beside it, nothing sent.
      await guest.getByRole('button', { name: 'Invia le risposte' }).click();
      await expect(
        guest.getByRole('alert').filter({ hasText: 'Alcune risposte non sono valide' }),
      ).toBeVisible();
      await expect(question(guest, /Quanto ti senti coinvolto/)).toContainText(
        'Questa domanda è obbligatoria',
      );
      await expectNoAxeViolations(guest);

      await question(guest, /Quanto ti senti coinvolto/)
        .getByLabel('4', { exact: true })
        .check({ force: true });
      await guest.getByRole('button', { name: 'Invia le risposte' }).click();
      await expect(
        guest.getByRole('heading', { level: 1, name: 'Grazie per la partecipazione' }),
      ).toBeVisible();
      await expect(guest.getByTestId('access-code-thanks')).not.toContainText('Il laboratorio di lettura');
      expect(
        await guest.evaluate((code) => window.localStorage.getItem(`portale.codice.${code}`), used),
      ).toBeNull();
      await expectAccessibleAtBothWidths(guest);
    });

    await test.step('the used-up and the revoked code open the 404 page', async () => {
      for (const code of [used, revoked]) {
        await guest.goto(`/${code}`);
        await expectErrorScreen(guest, 404, `Page Not Found: /${code}`);
      }
      await expectNoAxeViolations(guest);
    });
    await guestContext.close();

    await page.reload();
    await appReady(page);
    await expect(page.getByTestId(`code-${used}`)).toContainText('1 su 1');
    await expect(page.getByTestId(`code-${used}`)).toContainText('Esaurito');
  });

  test('PROVA01 opens the open survey for its plesso', async ({ page }) => {
    await page.goto('/PROVA01');
    await appReady(page);
    await expect(page.getByRole('heading', { level: 1, name: OPEN_SURVEY })).toBeVisible();
    await expect(page.getByTestId('access-code-context')).toContainText('Plesso');
    await expect(page.getByTestId('questionnaire')).toBeVisible();
    await expectAccessibleAtBothWidths(page);
    // Typed in another case it is the same code (decision 037).
    await page.goto('/prova01');
    await appReady(page);
    await expect(page.getByRole('heading', { level: 1, name: OPEN_SURVEY })).toBeVisible();
    // An unknown code is the 404 page.
    await page.goto('/zzzzzz9');
    await expectErrorScreen(page, 404, 'Page Not Found: /zzzzzz9');
    // Well-formed but the name of an API path beside the codes: a code like any unknown one.
    await page.goto('/options');
    await expectErrorScreen(page, 404, 'Page Not Found: /options');
  });
});
