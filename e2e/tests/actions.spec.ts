import { request } from '@playwright/test';
import { DEMO_PASSWORD } from '../demo-accounts.ts';
import {
  appReady,
  DESKTOP,
  expect,
  expectAccessibleAtBothWidths,
  listSettled,
  signIn,
  rememberConsentChoice,
  test,
} from '../fixtures.ts';

const API_ORIGIN = `http://localhost:${process.env.E2E_API_PORT}`;

/** The demo principal's institute code, read through the API (the UI shows it on their home too). */
async function demoInstituteCode(webOrigin: string): Promise<string> {
  const api = await request.newContext({ baseURL: API_ORIGIN, extraHTTPHeaders: { origin: webOrigin } });
  try {
    await api.head('/sanctum/csrf-cookie');
    const xsrf = (await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
    const login = await api.post('/api/auth/login', {
      headers: { 'x-xsrf-token': xsrf },
      data: { email: 'dirigente@demo.test', password: DEMO_PASSWORD },
    });
    expect(login.status(), await login.text()).toBe(200);
    const home = await api.get('/api/adhesions/current/overview', {
      headers: { authorization: `Bearer ${(await login.json()).token}` },
    });
    expect(home.status()).toBe(200);
    return (await home.json()).institute.ministryCode as string;
  } finally {
    await api.dispose();
  }
}

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

test('azioni: il super-admin crea un modello, lo staff lo assegna in blocco, il dirigente lo completa con un file, lo staff verifica', async ({
  page,
  browser,
  baseURL,
}) => {
  // About 50 s on a fast machine; slow CI machines have run journeys 3–5× slower.
  test.setTimeout(360_000);
  const code = await demoInstituteCode(baseURL!);
  const title = `Verbale di prova ${Date.now()}`;

  // The super-admin creates a model (a file as evidence, for institutes).
  await page.setViewportSize(DESKTOP);
  await signIn(page, 'superadmin@demo.test', { path: '/portale/azioni-modelli' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Modelli di azione');
  await listSettled(page);
  // The demo models are there.
  await expect(page.getByRole('table', { name: 'Modelli di azione' })).toContainText(
    'Delibera del collegio dei docenti',
  );
  await expectAccessibleAtBothWidths(page);
  const create = page.getByTestId('nuovo-form');
  // A refused model first: per-field messages.
  await create.getByLabel('Titolo').fill('x');
  await create.getByRole('button', { name: 'Crea il modello' }).click();
  await expect(create.getByText('Inserisci un titolo da 3 a 200 caratteri.')).toBeVisible();
  await expect(create.getByLabel('Titolo')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessibleAtBothWidths(page);
  await create.getByLabel('Titolo').fill(title);
  await create.getByLabel('Categoria').fill('Adesione');
  await create
    .getByLabel('Descrizione (cosa deve fare il destinatario)')
    .fill('Caricare il verbale firmato della riunione di avvio.');
  await create.getByLabel('Destinatari', { exact: true }).selectOption('istituto');
  await create.getByLabel('Durata in giorni').fill('20');
  await create.getByLabel('Prova richiesta').selectOption('file');
  await create.getByRole('button', { name: 'Crea il modello' }).click();
  await expect(page.getByText(`Modello «${title}» creato.`)).toBeVisible();
  await listSettled(page);
  await expect(page.getByRole('table', { name: 'Modelli di azione' })).toContainText(title);
  // Edit it: the form opens with the focus on its heading.
  await page.getByRole('table', { name: 'Modelli di azione' }).getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { name: `Modifica «${title}»` })).toBeFocused();
  const edit = page.getByTestId('modifica-form');
  await edit.getByLabel('Durata in giorni').fill('25');
  await edit.getByRole('button', { name: 'Salva il modello' }).click();
  await expect(page.getByText(`Modello «${title}» salvato.`)).toBeVisible();
  // The list reloads after the save (dimmed while it does): axe checks the settled page.
  await listSettled(page);
  await expectAccessibleAtBothWidths(page);

  // Staff: assign it in bulk to the institutes matching the demo institute's code, counted then confirmed.
  const staffContext = await browser.newContext({ baseURL: baseURL! });
  await rememberConsentChoice(staffContext, baseURL!);
  const s = await staffContext.newPage();
  await s.setViewportSize(DESKTOP);
  await signIn(s, 'sylla@demo.test', { path: '/portale/azioni' });
  await expect(s.getByRole('heading', { level: 1 })).toHaveText('Azioni');
  await listSettled(s);
  await expectAccessibleAtBothWidths(s);
  // Overdue actions of the demo seed are filterable and marked.
  const filters = s.getByRole('search', { name: 'Cerca nelle azioni' });
  await filters.getByLabel('Scadenza', { exact: true }).selectOption('true');
  await filters.getByRole('button', { name: 'Applica i filtri' }).click();
  await listSettled(s);
  await expect(s).toHaveURL(/overdue=true/);
  await expect(s.getByRole('table', { name: 'Azioni' }).getByText('Scaduta').first()).toBeVisible();

  const bulk = s.getByTestId('bulk-form');
  await bulk.getByLabel('Modello').selectOption({ label: `${title} (Istituto, 25 giorni)` });
  // Every filter of the API is on the form: the count says what it counted; a change after it asks for a new count.
  await bulk.getByLabel('Regione').selectOption('Emilia-Romagna');
  await bulk.getByLabel('Stato di adesione').selectOption({ label: 'Attivo' });
  await bulk.getByRole('button', { name: 'Conta i destinatari' }).click();
  const preview = s.getByTestId('bulk-preview');
  await expect(preview.getByTestId('bulk-preview-filter')).toHaveText(
    'Destinatari contati: istituti · regione Emilia-Romagna · stato di adesione Attivo.',
  );
  await bulk.getByLabel('Stato di adesione').selectOption('');
  await expect(preview).toContainText('conta di nuovo i destinatari');
  await expect(s.getByRole('button', { name: /^Conferma: crea/ })).toHaveCount(0);
  await bulk.getByLabel('Regione').selectOption('');
  await bulk.getByLabel('Nome o codice del destinatario').fill(code);
  await bulk.getByRole('button', { name: 'Conta i destinatari' }).click();
  await expect(preview).toContainText('1 destinatario');
  await expect(preview).toContainText('1 nuova azione da creare, 0 già presenti');
  await expectAccessibleAtBothWidths(s);
  await s.getByRole('button', { name: 'Conferma: crea 1 azione' }).click();
  await expect(s.getByTestId('bulk-result')).toContainText('1 azione creata, 0 già presenti');

  // The demo principal sees it on their home, starts it and completes it with a file.
  const principalContext = await browser.newContext({ baseURL: baseURL! });
  await rememberConsentChoice(principalContext, baseURL!);
  const p = await principalContext.newPage();
  await p.setViewportSize(DESKTOP);
  await signIn(p, 'dirigente@demo.test');
  const panel = p.getByTestId('due-actions');
  await expect(panel).toBeVisible();
  const card = panel.getByTestId('due-action').filter({ hasText: title });
  await expect(card).toContainText('Da fare');
  await expectAccessibleAtBothWidths(p);
  await card.getByRole('button', { name: 'Inizia' }).click();
  await expect(panel.getByRole('status')).toContainText(`«${title}» è in corso.`);
  await expect(card).toContainText('In corso');
  // Not a PDF, PNG or JPEG: refused by the API, the message beside the field.
  await card.getByLabel(/File di prova/).setInputFiles({
    name: 'verbale.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('non sono un pdf'),
  });
  await card.getByRole('button', { name: 'Carica il file e completa' }).click();
  await expect(card.getByText(/Il file non è un PDF, un PNG o un JPEG/)).toBeVisible();
  await expect(card.getByLabel(/File di prova/)).toHaveAttribute('aria-invalid', 'true');
  await expectAccessibleAtBothWidths(p);
  await card
    .getByLabel(/File di prova/)
    .setInputFiles({ name: 'verbale.pdf', mimeType: 'application/pdf', buffer: PDF });
  await card.getByRole('button', { name: 'Carica il file e completa' }).click();
  await expect(panel.getByRole('status')).toContainText(`«${title}» è completata`);
  await expect(panel.getByTestId('due-action').filter({ hasText: title })).toHaveCount(0);
  await expect(panel.getByRole('heading', { name: 'Completate di recente' })).toBeVisible();

  // Staff: find it completed, open the detail, download the evidence and verify.
  await s.goto(`/portale/azioni?q=${code}&state=completata`);
  await appReady(s);
  await listSettled(s);
  await s
    .getByRole('table', { name: 'Azioni' })
    .getByRole('row', { name: new RegExp(title) })
    .getByRole('link')
    .click();
  const detail = s.getByTestId('action-detail');
  await expect(detail).toContainText(title);
  await expect(detail).toContainText('Completata');
  const downloading = s.waitForEvent('download');
  await detail.getByRole('button', { name: /^Scarica verbale\.pdf/ }).click();
  expect((await downloading).suggestedFilename()).toBe('verbale.pdf');
  await expectAccessibleAtBothWidths(s);
  // Sending back needs a note.
  await detail.getByRole('button', { name: 'Rimanda indietro' }).click();
  await expect(detail.getByText(/Scrivi una nota/)).toBeVisible();
  await detail.getByRole('button', { name: 'Verifica' }).click();
  await expect(detail.getByText('Azione verificata.')).toBeVisible();
  await expect(detail).toContainText('Verificata');
  await expectAccessibleAtBothWidths(s);

  // The principal sees it verified.
  await p.reload();
  await appReady(p);
  await expect(p.getByTestId('due-actions').getByRole('listitem').filter({ hasText: title })).toContainText(
    'Verificata',
  );

  await principalContext.close();
  await staffContext.close();
});
