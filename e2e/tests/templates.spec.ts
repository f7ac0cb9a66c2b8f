import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import {
  appReady,
  DESKTOP,
  expect,
  expectAccessibleAtBothWidths,
  expectErrorScreen,
  listSettled,
  signIn,
  PHONE,
  rememberConsentChoice,
  test,
} from '../fixtures.ts';
import { mailText } from '../outbox.ts';

const ADMIN = 'superadmin@demo.test';
/** The account whose password-reset e-mail shows the template in use (the link is never used). */
const RECIPIENT = 'cromos@demo.test';
const KEY = 'email.reset-password';

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

/** A visitor asks for a password reset of RECIPIENT: the e-mail is rendered from the template in use. */
async function askForReset(browser: Browser, baseURL: string) {
  const context = await browser.newContext();
  await rememberConsentChoice(context, baseURL);
  const page = await context.newPage();
  await page.goto('/auth/forgot-password');
  await appReady(page);
  await page.getByLabel('Indirizzo e-mail').fill(RECIPIENT);
  await page.getByRole('button', { name: 'Invia il collegamento' }).click();
  await expect(page.getByRole('status').filter({ hasText: /\S/ })).toContainText(
    'Se l’indirizzo è registrato',
  );
  await context.close();
}

/**
 * Axe at both widths on the page with an e-mail preview: the sandboxed frame (no scripts, by design)
 * cannot host axe (and axe's cross-frame run waits for it), so the page is checked in one pass
 * without descending into the frame; the frame element itself (its title) is checked.
 */
async function expectAccessibleWithPreviewFrame(page: Page) {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    const results = await new AxeBuilder({ page })
      .options({ resultTypes: ['violations'], iframes: false })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .setLegacyMode(true)
      .analyze();
    expect(
      results.violations.map((v) => ({
        id: v.id,
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      })),
    ).toEqual([]);
  }
  await page.setViewportSize(DESKTOP);
}

const versionInUse = async (page: Page) =>
  Number(
    await page
      .getByTestId('template-facts')
      .locator('dd')
      .nth(1)
      .innerText()
      .then((t) => t.match(/\d+/)![0]),
  );

test.describe('template', () => {
  test.describe.configure({ timeout: 240_000 });

  test('the super-admin edits the reset e-mail, previews it, the next e-mail uses it, then restores the old version', async ({
    page,
    browser,
    baseURL,
  }) => {
    const marker = `Prova e2e ${Date.now()}`;

    await signIn(page, ADMIN, { path: '/portale/template' });
    await expect(page.getByRole('heading', { level: 1, name: 'Template' })).toBeVisible();
    await listSettled(page);
    await expectAccessibleAtBothWidths(page);

    // The list: search and channel filter in the URL.
    await page.getByLabel('Cerca', { exact: true }).fill('password');
    await expect(page).toHaveURL(/q=password/);
    await listSettled(page);
    await page.getByRole('link', { name: KEY, exact: true }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get('chiave') === KEY);
    await expect(page.getByRole('heading', { level: 2, name: `Modello ${KEY}` })).toBeVisible();
    await expectAccessibleAtBothWidths(page);
    const original = await versionInUse(page);

    // An unknown placeholder is refused beside the field.
    const body = page.getByLabel('Testo', { exact: true });
    await body.fill('Gentile {{nome}}, apri {{link}}');
    await page.getByRole('button', { name: 'Salva come nuova versione' }).click();
    await expect(page.locator('#template-body-error')).toContainText(
      'Il segnaposto {{nome}} non è previsto per questo modello',
    );
    await expect(body).toHaveAttribute('aria-invalid', 'true');
    await expectAccessibleAtBothWidths(page);

    // Write the new text, inserting the placeholders from the list.
    await page.getByLabel('Oggetto').fill(`Nuova password: ${marker}`);
    await body.fill('Gentile ');
    await page.getByRole('button', { name: 'Inserisci {{firstName}}' }).click();
    await body.press('End');
    await body.pressSequentially(`,\n\n**${marker}**: scegli la nuova password da qui:\n`);
    await page.getByRole('button', { name: 'Inserisci {{link}}' }).click();
    await expect(body).toHaveValue(
      `Gentile {{firstName}},\n\n**${marker}**: scegli la nuova password da qui:\n{{link}}`,
    );

    // Preview: the e-mail as it will look, in a sandboxed frame.
    await page.getByRole('button', { name: 'Anteprima con dati di esempio' }).click();
    const frame = page.getByTitle('Anteprima dell’e-mail con dati di esempio');
    await expect(frame).toHaveAttribute('sandbox', '');
    await expect(
      page.frameLocator('iframe[title="Anteprima dell’e-mail con dati di esempio"]').locator('strong'),
    ).toHaveText(marker);
    await expect(page.getByTestId('template-preview')).toContainText(`Oggetto: Nuova password: ${marker}`);
    await expectAccessibleWithPreviewFrame(page);

    await page.getByRole('button', { name: 'Salva come nuova versione' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Modello salvato' })).toHaveText(
      `Modello salvato: è ora in uso la versione ${original + 1}.`,
    );
    await expect.poll(() => versionInUse(page)).toBe(original + 1);

    // The next e-mail uses the new version.
    await askForReset(browser, baseURL!);
    await expect.poll(async () => mailText(RECIPIENT, KEY), { timeout: 20_000 }).toContain(marker);
    const edited = await mailText(RECIPIENT, KEY);
    expect(edited).toContain(`<strong>${marker}</strong>`);
    expect(edited).toMatch(/\/auth\/reset-password\?token=/);

    // Restore the version it replaced (with a confirmation).
    await page.getByRole('button', { name: `Ripristina la versione ${original}` }).click();
    await expect(page.getByText(`Ripristinare la versione ${original}?`)).toBeVisible();
    await expectAccessibleAtBothWidths(page);
    await page.getByRole('button', { name: 'Conferma il ripristino' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'ripristinata' })).toHaveText(
      `Versione ${original} ripristinata: è ora in uso come versione ${original + 2}.`,
    );
    await expect(page.getByTestId('template-facts')).toContainText(`ripristino della versione ${original}`);
    await expect(page.getByLabel('Oggetto')).toHaveValue('Scegli una nuova password');

    await askForReset(browser, baseURL!);
    await expect
      .poll(
        async () => {
          const text = await mailText(RECIPIENT, KEY);
          return (
            !text.includes(marker) &&
            text.includes('abbiamo ricevuto una richiesta per reimpostare la password')
          );
        },
        { timeout: 20_000 },
      )
      .toBe(true);
  });

  test('the adhesion document previews as a real PDF', async ({ page }) => {
    await signIn(page, ADMIN, { path: '/portale/template?chiave=documento.adesione' });
    await expect(page.getByRole('heading', { level: 2, name: 'Modello documento.adesione' })).toBeVisible();
    await page.getByRole('button', { name: 'Anteprima con dati di esempio' }).click();
    const link = page.getByRole('link', { name: 'Scarica l’anteprima PDF' });
    await expect(link).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('anteprima-documento.adesione.pdf');
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expectAccessibleAtBothWidths(page);
  });

  test('staff other than the super-admin get the 403 page', async ({ page }) => {
    await signIn(page, 'sylla@demo.test', { path: '/portale/template' });
    await expectErrorScreen(page, 403);
  });
});
