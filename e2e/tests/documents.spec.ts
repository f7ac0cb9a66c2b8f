import { readFile } from 'node:fs/promises';
import {
  appReady,
  expect,
  expectAccessibleAtBothWidths,
  expectNoAxeViolations,
  signIn,
  rememberConsentChoice,
  test,
} from '../fixtures.ts';

const STAFF = 'sylla@demo.test';

const pdf = (text: string) =>
  Buffer.from(
    `%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
    'latin1',
  );

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

test.describe('documenti', () => {
  test.describe.configure({ timeout: 180_000 });

  test('staff upload and publish a PDF; the public lists and downloads it; unpublishing hides it', async ({
    page,
    browser,
    baseURL,
  }) => {
    const title = `Guida e2e ${Date.now()}`;
    await signIn(page, STAFF, { path: '/portale/documenti' });
    await expect(page.getByRole('heading', { level: 1, name: 'Documenti' })).toBeVisible();
    await expectAccessibleAtBothWidths(page);

    const form = page.getByTestId('upload-form');
    // Not a PDF, whatever its name: refused next to the file input.
    await form.getByLabel('Titolo').fill(title);
    await form.getByLabel('Categoria').selectOption('guide');
    await form.getByLabel('Descrizione').fill('Una guida caricata dai test end-to-end.');
    await form.getByLabel('File PDF').setInputFiles({
      name: 'immagine.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    });
    await form.getByRole('button', { name: 'Carica il documento' }).click();
    await expect(
      page.getByText('Il file non è un PDF: carica un documento in formato PDF.').first(),
    ).toBeVisible();
    await expectNoAxeViolations(page, { skipSeenStructure: false });

    await form.getByLabel('Titolo').fill(title);
    await form.getByLabel('Categoria').selectOption('guide');
    await form
      .getByLabel('File PDF')
      .setInputFiles({ name: 'guida-e2e.pdf', mimeType: 'application/pdf', buffer: pdf(title) });
    await form.getByRole('button', { name: 'Carica il documento' }).click();
    await expect(page.getByTestId('document-message')).toHaveText(
      'Documento caricato. Non è ancora pubblicato.',
    );
    await expect(page.getByTestId('document-facts')).toContainText('Non pubblicato');
    await expectAccessibleAtBothWidths(page);

    // Not published yet: the public does not see it. (The public list is cacheable for a minute: each
    // look is a new visitor, with an empty browser cache.)
    const newVisitor = async () => {
      const context = await browser.newContext();
      await rememberConsentChoice(context, baseURL!);
      const p = await context.newPage();
      await p.goto('/documentazione');
      await appReady(p);
      return p;
    };
    let visitor = await newVisitor();
    await expect(visitor.getByRole('heading', { name: 'Guide operative' })).toBeVisible();
    await expect(visitor.getByRole('heading', { name: title })).toHaveCount(0);

    await page.getByRole('button', { name: 'Pubblica nella pagina Documentazione' }).click();
    await expect(page.getByTestId('document-message')).toContainText('Documento pubblicato');

    await visitor.context().close();
    visitor = await newVisitor();
    const section = visitor.getByRole('region', { name: 'Guide operative' });
    await expect(section.getByRole('heading', { name: title })).toBeVisible();
    await expectAccessibleAtBothWidths(visitor);
    const download = visitor.waitForEvent('download');
    await section
      .getByRole('listitem')
      .filter({ hasText: title })
      .getByRole('link', { name: /Scarica il PDF/ })
      .click();
    const file = await (await download).path();
    expect((await readFile(file)).subarray(0, 5).toString()).toBe('%PDF-');

    // Unpublished: gone from the public page.
    await page.getByRole('button', { name: 'Ritira dalla pagina Documentazione' }).click();
    await expect(page.getByTestId('document-message')).toContainText('Documento ritirato');
    await visitor.context().close();
    visitor = await newVisitor();
    await expect(visitor.getByRole('heading', { name: 'Guide operative' })).toBeVisible();
    await expect(visitor.getByRole('heading', { name: title })).toHaveCount(0);

    // The list shows it, unpublished.
    await page.goto(`/portale/documenti?q=${encodeURIComponent(title)}`);
    await appReady(page);
    await expect(page.getByRole('table').getByRole('row').filter({ hasText: title })).toContainText('No');
    await visitor.context().close();
  });
});
