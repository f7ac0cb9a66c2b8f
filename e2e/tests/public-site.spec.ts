import { appReady, expect, expectNoAxeViolations, test } from '../fixtures.ts';

/** Every page of issue 3: its h1 and one piece of key content. */
const PAGES = [
  { path: '/', h1: 'L’indagine nazionale che dà voce alle scuole italiane', key: 'Il programma in numeri' },
  { path: '/team', h1: 'Team', key: 'Le organizzazioni partner' },
  { path: '/contatti', h1: 'Contatti', key: 'Domande frequenti' },
  { path: '/documentazione', h1: 'Documentazione', key: 'Guida per le scuole' },
  { path: '/edu', h1: 'Area educatori', key: 'Come accedere' },
  { path: '/landing/edu', h1: 'Educatori', key: 'Perché partecipare' },
  { path: '/landing/azioni', h1: 'Le azioni del programma', key: 'Che cosa sono le azioni' },
  { path: '/landing/registrazioni/insegnante', h1: 'Registrazione insegnanti', key: 'Registrati come insegnante' },
  { path: '/landing/registrazioni/educatore', h1: 'Registrazione educatori', key: 'Registrati come educatrice o educatore' },
  { path: '/landing/registrazioni/altro', h1: 'Registrazione: altri partecipanti', key: 'Registrati con un altro ruolo' },
  { path: '/indagine', h1: 'Indagine', key: 'Indagine nazionale sulle scuole 2025/26' },
  { path: '/policy/cookie', h1: 'Cookie policy', key: 'auth._refresh_token.local' },
  { path: '/test-char-9534310001a', h1: 'Pagina di prova', key: 'àèéìòù' },
  { path: '/privacy', h1: 'Informativa sulla privacy', key: 'I tuoi diritti' },
  { path: '/note-legali', h1: 'Note legali', key: 'Diritti sui contenuti' },
  { path: '/dichiarazione-accessibilita', h1: 'Dichiarazione di accessibilità', key: 'Stato di conformità' },
];

/** Decided visitors: the banner is tested in consent.spec.ts, here it would hide content. */
test.beforeEach(async ({ context, baseURL }) => {
  const url = baseURL!;
  await context.addCookies(
    [
      ['ncc_c', 'necessarianalitici'],
      ['ncc_e', 'necessari'],
      ['ncc_v', '2026-01'],
      ['ncc_r', String(Date.now())],
    ].map(([name, value]) => ({ name: name!, value: value!, url })),
  );
});

for (const viewport of [{ width: 1280, height: 900 }, { width: 375, height: 740 }]) {
  test.describe(`public pages at ${viewport.width}px`, () => {
    test.use({ viewport });
    for (const p of PAGES) {
      test(`${p.path} renders its h1, key content and passes axe`, async ({ page }) => {
        await page.goto(p.path);
        await appReady(page);
        await expect(page.locator('h1')).toHaveCount(1);
        await expect(page.locator('h1')).toHaveText(p.h1);
        await expect(page.getByText(p.key, { exact: false }).first()).toBeVisible();
        await expect(page).toHaveTitle(/Portale Scuole/);
        const description = await page.locator('meta[name="description"]').getAttribute('content');
        expect(description?.length).toBeGreaterThan(20);
        for (const link of ['Informativa privacy', 'Note legali', 'Cookie policy', 'Dichiarazione di accessibilità']) {
          await expect(page.locator('#footer').getByRole('link', { name: link })).toBeVisible();
        }
        if (viewport.width === 375) expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await expectNoAxeViolations(page);
      });
    }
  });
}

test('home shows live key figures from the API', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('figure-institutesEnrolled')).toHaveText(/^\d[\d.]*$/);
  await expect(page.getByTestId('figure-registeredTeachers')).toHaveText(/^\d[\d.]*$/);
});

test('a document downloads as a PDF', async ({ page }) => {
  await page.goto('/documentazione');
  const link = page.getByRole('link', { name: /Scarica il PDF «Regolamento del programma»/ });
  const response = await page.request.get((await link.getAttribute('href'))!);
  expect(response.headers()['content-type']).toBe('application/pdf');
  expect((await response.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
});

test.describe.serial('contact form', () => {
  test('invalid input shows Italian errors per field and sends nothing', async ({ page }) => {
    await page.goto('/contatti');
    let posted = false;
    page.on('request', (r) => (posted ||= r.method() === 'POST' && r.url().includes('/api/public/contact')));
    await page.getByLabel('Indirizzo e-mail').fill('non-valida');
    await page.getByRole('button', { name: 'Invia il messaggio' }).click();
    await expect(page.getByRole('alert')).toContainText('Alcuni dati non sono validi');
    await expect(page.getByTestId('error-email')).toHaveText('Inserisci un indirizzo e-mail valido.');
    await expect(page.getByTestId('error-message')).toContainText('almeno 20 caratteri');
    await expect(page.getByLabel('Indirizzo e-mail')).toHaveAttribute('aria-invalid', 'true');
    await expectNoAxeViolations(page);
    expect(posted).toBe(false);
  });

  test('valid input is accepted with a confirmation; a flood gets 429', async ({ page }) => {
    await page.goto('/contatti');
    const send = async () => {
      await page.getByLabel('Nome e cognome').fill('Marco Bianchi');
      await page.getByLabel('Indirizzo e-mail').fill('marco.bianchi@example.it');
      await page.getByLabel('Argomento').selectOption('indagine');
      await page.getByLabel('Messaggio').fill('Vorrei sapere quando si chiude il questionario per gli insegnanti.');
      if (!(await page.getByLabel(/Ho letto l’informativa/).isChecked())) await page.locator('label[for="contatto-privacyAccepted"]').click({ position: { x: 10, y: 10 } });
      const response = page.waitForResponse((r) => r.url().includes('/api/public/contact') && r.request().method() === 'POST');
      await page.getByRole('button', { name: 'Invia il messaggio' }).click();
      return (await response).status();
    };
    expect(await send()).toBe(202);
    await expect(page.getByRole('status').filter({ hasText: 'il tuo messaggio è stato inviato' })).toBeVisible();
    let status = 202;
    for (let i = 0; i < 6 && status === 202; i++) status = await send();
    expect(status).toBe(429);
    await expect(page.getByRole('alert')).toHaveText('Hai inviato troppi messaggi in poco tempo. Riprova tra qualche minuto.');
  });
});
