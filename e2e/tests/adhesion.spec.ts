import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  appReady,
  DESKTOP,
  expect,
  expectAccessibleAtBothWidths,
  expectCalmPoliteRegions,
  rememberConsentChoice,
  signIn,
  test,
  watchPoliteRegions,
} from '../fixtures.ts';
import { ENROLLED_PASSWORD as PASSWORD, enrolInstitute, type Enrolled } from '../registrations.ts';

// The signing journey changes an institute's state, and the e2e run shares one API and database: it
// enrols an institute of its own (public API, as the enrolment form does) with a new principal and
// first contact, so the demo accounts other specs rely on stay as they are.

const SMS_DIR = fileURLToPath(new URL('../../var/e2e/sms', import.meta.url));

/** The signature SMS files written to a number (template sms.firma-adesione), newest first. */
async function signatureSms(phone: string): Promise<string[]> {
  const files = (await readdir(SMS_DIR).catch(() => [] as string[]))
    .filter((f) => f.includes('sms.firma-adesione'))
    .sort()
    .reverse();
  const texts: string[] = [];
  for (const file of files) {
    const raw = await readFile(`${SMS_DIR}/${file}`, 'utf8');
    if (raw.includes(phone)) texts.push(raw);
  }
  return texts;
}

/**
 * The code of the newest signature SMS to a number, once more than `seen` of them have been
 * delivered (the outbox worker writes them a moment after the request).
 */
async function signatureCode(phone: string, seen = 0): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const texts = await signatureSms(phone);
        if (texts.length <= seen) return false;
        code = /\b(\d{6})\b/.exec(texts[0]!.split('\n\n').slice(1).join('\n'))?.[1] ?? '';
        return code !== '';
      },
      { message: `sms.firma-adesione to ${phone}`, timeout: 15_000 },
    )
    .toBe(true);
  return code;
}

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

test('adesione: il dirigente demo che non ha firmato arriva alla pagina dell’adesione e vede i due modi di firmare', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, 'dirigente-senza-firma@demo.test');
  await expect(page).toHaveURL(/\/iscrizioni\/adesione-formale$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Adesione formale' })).toBeVisible();
  await expect(page.getByTestId('document-sha256')).toHaveText(/^[0-9a-f]{64}$/);
  await expect(page.getByRole('heading', { name: 'Firma online' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Carica il documento firmato digitalmente' })).toBeVisible();
  // The demo principal has no codice fiscale: the upload says so and links the profile.
  await expect(page.getByText(/indica prima il tuo codice fiscale/)).toBeVisible();
  await expectAccessibleAtBothWidths(page);
});

test.describe.serial('adesione di un istituto appena iscritto', () => {
  let school: Enrolled;
  /** When the last signature code was asked: a new one may be asked 60 s later. */
  let lastCodeAt = 0;

  test.beforeAll(async ({ baseURL }) => {
    test.setTimeout(60_000);
    school = await enrolInstitute(baseURL!);
  });

  test('il referente prepara e rilegge il documento, ma non può firmarlo', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, school.firstContact.email, {
      password: PASSWORD,
      path: '/iscrizioni/adesione-formale',
    });
    await expect(page.getByRole('heading', { level: 1, name: 'Adesione formale' })).toBeVisible();
    await expect(page.getByText(school.ministryCode).first()).toBeVisible();
    await expect(
      page.getByText('Solo il dirigente scolastico può firmare il documento di adesione'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Invia il codice via SMS' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Firma il documento' })).toHaveCount(0);
    const sha = await page.getByTestId('document-sha256').textContent();
    await page.getByRole('button', { name: 'Rigenera il documento con i dati attuali' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Il documento è stato preparato' }),
    ).toBeVisible();
    // The same data give the same document.
    await expect(page.getByTestId('document-sha256')).toHaveText(sha!);
    await expectAccessibleAtBothWidths(page);
  });

  test('il dirigente accede, scarica il PDF, firma online con il codice SMS e arriva al portale', async ({
    page,
  }) => {
    // Twelve axe runs and two uploads: on a slow CI machine this journey has taken more than 90 s.
    test.setTimeout(240_000);
    await page.setViewportSize(DESKTOP);
    await signIn(page, school.principal.email, { password: PASSWORD });
    // The sign-principal-document guard sends a principal who has not signed here.
    await expect(page).toHaveURL(/\/iscrizioni\/adesione-formale$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Adesione formale' })).toBeVisible();
    await expect(page.getByTestId('next-step')).toContainText('Rileggi il documento di adesione e firmalo');
    await expectAccessibleAtBothWidths(page);

    const sha = (await page.getByTestId('document-sha256').textContent())!;
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Scarica il documento (PDF)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`adesione-${school.ministryCode}-v1.pdf`);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha);

    // An upload the verifier refuses is told next to the file field, and nothing changes.
    const fileField = page.getByLabel('File firmato (.pdf, .p7m o .p7s)');
    await fileField.setInputFiles({
      name: 'adesione.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('Questo non è un PDF firmato'),
    });
    await page.getByRole('button', { name: 'Carica e firma' }).click();
    await expect(page.getByText(/non è in un formato supportato/)).toBeVisible();
    await expect(fileField).toHaveAttribute('aria-invalid', 'true');
    await fileField.setInputFiles({ name: 'adesione.pdf', mimeType: 'application/pdf', buffer: bytes });
    await page.getByRole('button', { name: 'Carica e firma' }).click();
    await expect(page.getByText(/non contiene una firma digitale/)).toBeVisible();
    await expect(page.getByTestId('next-step')).toContainText('Rileggi il documento di adesione e firmalo');
    await expectAccessibleAtBothWidths(page);

    await page.getByRole('button', { name: 'Invia il codice via SMS' }).click();
    lastCodeAt = Date.now();
    const codeField = page.getByLabel('Codice ricevuto via SMS');
    await expect(codeField).toBeFocused();
    await expectAccessibleAtBothWidths(page);
    // The resend countdown is shown, not read aloud every second (issue 34).
    await watchPoliteRegions(page);
    await expectCalmPoliteRegions(page, 3_000);

    // A wrong code is told next to the field, and the step stays open.
    const code = await signatureCode(school.principal.phone);
    await codeField.fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Conferma la firma' }).click();
    await expect(page.getByText('Il codice non è corretto. Tentativi rimasti: 4.')).toBeVisible();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Il codice non è corretto. Tentativi rimasti: 4.' }),
    ).toBeVisible();
    await expect(page.getByLabel('Codice ricevuto via SMS')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessibleAtBothWidths(page);

    await page.getByLabel('Codice ricevuto via SMS').fill(code);
    await page.getByRole('button', { name: 'Conferma la firma' }).click();
    const notice = page.getByTestId('signed-notice');
    await expect(notice).toContainText('Adesione firmata');
    await expect(notice).toContainText(sha);
    await expect(notice).toContainText('Firma online con codice SMS');
    await expect(page.getByText('Adesione firmata', { exact: true }).first()).toBeVisible();
    await expectAccessibleAtBothWidths(page);

    await notice.getByRole('link', { name: 'Vai al portale' }).click();
    await expect(page).toHaveURL(/\/portale$/);
    await appReady(page);
    const home = page.getByTestId('school-home');
    await expect(home).toContainText(school.instituteName);
    await expect(home).toContainText(school.ministryCode);
    await expect(page.getByTestId('school-next-step')).toContainText('in revisione');
    await expect(home.getByRole('table')).toBeVisible();
    await expectAccessibleAtBothWidths(page);
  });

  test('lo staff chiede correzioni, il dirigente legge la nota e firma di nuovo, lo staff approva: l’istituto è attivo', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const NOTE = 'Aggiungete tra i plessi partecipanti anche la sede staccata e firmate di nuovo.';
    await page.setViewportSize(DESKTOP);
    await signIn(page, 'sylla@demo.test');

    /** Opens this institute's pending adhesion in the review screen and records a decision. */
    async function decide(choice: 'Chiedi correzioni' | 'Approva', note?: string) {
      await page.goto(`/portale/revisioni/adesioni?state=in_attesa&q=${school.ministryCode}`);
      await appReady(page);
      await expect(page.getByTestId('list-status')).not.toHaveText('Caricamento dei risultati…');
      await page.getByRole('table').getByRole('link').first().click();
      await appReady(page);
      await expect(page.getByTestId('review-adhesion')).toContainText(school.ministryCode);
      const form = page.getByTestId('review-decision');
      await form.getByText(choice, { exact: true }).click();
      // The reviewer flags what to correct (issue 35, item 2); the principal sees it beside the note.
      if (choice === 'Chiedi correzioni')
        await form.getByText('Plessi partecipanti', { exact: true }).click();
      if (note) await form.getByLabel('Nota').fill(note);
      await form.getByRole('button', { name: 'Registra la decisione' }).click();
      await expect(page.getByTestId('review-outcome')).toContainText(
        choice === 'Approva' ? 'Approvata' : 'Da correggere',
      );
    }

    await decide('Chiedi correzioni', NOTE);

    // The principal, in a browser of their own, is sent back to the adhesion page with the note.
    const context = await browser.newContext({
      baseURL: baseURL!,
      locale: 'it-IT',
      timezoneId: 'Europe/Rome',
    });
    await rememberConsentChoice(context, baseURL!);
    const principal = await context.newPage();
    try {
      await principal.setViewportSize(DESKTOP);
      await signIn(principal, school.principal.email, { password: PASSWORD });
      await expect(principal).toHaveURL(/\/iscrizioni\/adesione-formale$/);
      await expect(principal.getByRole('note').filter({ hasText: NOTE })).toBeVisible();
      await expect(principal.getByTestId('flagged-fields')).toHaveText(
        'Dati da correggere: Plessi partecipanti.',
      );
      await expectAccessibleAtBothWidths(principal);
      // A new signature code may be asked a minute after the previous one.
      const wait = 61_000 - (Date.now() - lastCodeAt);
      if (wait > 0) await principal.waitForTimeout(wait);
      const seen = (await signatureSms(school.principal.phone)).length;
      await principal.getByRole('button', { name: 'Invia il codice via SMS' }).click();
      await principal
        .getByLabel('Codice ricevuto via SMS')
        .fill(await signatureCode(school.principal.phone, seen));
      await principal.getByRole('button', { name: 'Conferma la firma' }).click();
      await expect(principal.getByTestId('signed-notice')).toContainText('Adesione firmata');

      await decide('Approva');

      await principal.goto('/portale');
      await appReady(principal);
      await expect(principal.getByTestId('school-home')).toContainText('Attivo');
      await expectAccessibleAtBothWidths(principal);
    } finally {
      await context.close();
    }
  });
});
