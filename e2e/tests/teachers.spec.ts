import { readFile } from 'node:fs/promises';
import {
  appReady,
  DESKTOP,
  expect,
  expectAccessibleAtBothWidths,
  expectNoAxeViolations,
  listSettled,
  signIn,
  rememberConsentChoice,
  test,
} from '../fixtures.ts';
import { registerTeacher } from '../registrations.ts';

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

test('insegnanti: lo staff cerca, filtra, apre il profilo ed esporta', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const lastName = `Docente${Date.now()}`;
  await registerTeacher(baseURL!, lastName);
  await page.setViewportSize(DESKTOP);
  await signIn(page, 'sylla@demo.test', { path: '/portale/insegnanti' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Insegnanti');
  await listSettled(page);
  await expectAccessibleAtBothWidths(page);

  const filters = page.getByRole('search', { name: 'Cerca negli insegnanti' });
  await filters.getByLabel('Cerca').fill(lastName.toLowerCase());
  await filters.getByLabel('Regione').selectOption('Lombardia');
  await filters.getByLabel('Revisione della registrazione').selectOption('in_attesa');
  await filters.getByRole('button', { name: 'Applica i filtri' }).click();
  await expect(page).toHaveURL(/region=Lombardia/);
  await listSettled(page);
  await expect(page.getByTestId('list-status')).toHaveText('1 insegnante trovato, pagina 1 di 1.');
  const table = page.getByRole('table', { name: 'Insegnanti ed educatori registrati' });
  await expect(table).toContainText('In attesa');
  await expect(table).toContainText('PV');

  await table.getByRole('link', { name: `${lastName} Ornella` }).click();
  const panel = page.getByTestId('teacher-panel');
  await expect(panel.getByRole('heading', { level: 2, name: `Ornella ${lastName}` })).toBeFocused();
  await expect(panel).toContainText('Matematica');
  await expect(panel).toContainText('Registrazione: In attesa');
  await expect(page).toHaveURL(/teacherId=\d+/);
  await expectAccessibleAtBothWidths(page);

  await page.reload();
  await appReady(page);
  await expect(page.getByTestId('teacher-panel')).toBeVisible();
  await expect(page.getByTestId('list-status')).toHaveText('1 insegnante trovato, pagina 1 di 1.');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Esporta CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^insegnanti-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await download.path())!, 'utf8'))
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`${lastName};Ornella;`);

  await page.getByTestId('teacher-panel').getByRole('link', { name: 'Chiudi la scheda' }).click();
  await expect(page.getByTestId('teacher-panel')).toHaveCount(0);
  await expect(page).not.toHaveURL(/teacherId/);
});

test('insegnanti: un profilo che non esiste si dice nella pagina', async ({ page }) => {
  await signIn(page, 'sylla@demo.test', { path: '/portale/insegnanti?teacherId=999999' });
  await expect(page.getByRole('alert')).toContainText('Insegnante non trovato');
  await expectNoAxeViolations(page);
});
