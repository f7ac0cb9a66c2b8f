import type { Page } from '@playwright/test';
import {
  appReady,
  expect,
  expectAccessibleAtBothWidths,
  expectChartsDrawn,
  expectErrorScreen,
  listSettled,
  loginAs,
  rememberConsentChoice,
  test,
} from '../../fixtures.ts';

// The whole life of a survey, across four people: staff build and open it, a teacher makes an access
// code for a class, pupils answer through /{code}, staff close it, anyone reads the results. One survey
// is open at a time, so this closes the demo open survey (which PROVA01 and the other specs answer):
// it runs in the `journeys` project, after every other spec (playwright.config.ts).

const STAFF = 'cromos@demo.test';
const TEACHER = 'insegnante@demo.test';
const DEMO_OPEN = 'Indagine nazionale sulle scuole 2026';
const RESPONDENTS = 5;

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

async function openSurveyPage(page: Page, title: string) {
  await page.goto(`/portale/indagini?q=${encodeURIComponent(title)}`);
  await appReady(page);
  await listSettled(page);
  await page.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
}

async function transition(page: Page, label: 'Apri l’indagine' | 'Chiudi l’indagine', state: string) {
  await page.getByRole('button', { name: label }).click();
  await page
    .getByRole('button', { name: `Conferma: ${label.charAt(0).toLowerCase()}${label.slice(1)}` })
    .click();
  await expect(page.getByTestId('survey-state')).toHaveText(new RegExp(`^${state}( |$)`));
}

test.describe('la vita di un’indagine', () => {
  test.describe.configure({ timeout: 300_000 });

  test('costruita e aperta dallo staff, codici di una classe, risposte anonime, chiusura, risultati pubblici', async ({
    page,
    browser,
    baseURL,
  }) => {
    const title = `Indagine del percorso ${Date.now()}`;
    const classLabel = `Percorso ${Date.now() % 100_000}`;

    await test.step('lo staff chiude l’indagine aperta e ne costruisce una nuova', async () => {
      await loginAs(page, STAFF);
      await openSurveyPage(page, DEMO_OPEN);
      await transition(page, 'Chiudi l’indagine', 'Chiusa');

      await page.goto('/portale/indagini');
      await appReady(page);
      const form = page.getByTestId('nuova-form');
      await form.getByLabel('Titolo').fill(title);
      await form
        .getByLabel('Scopo dell’indagine')
        .fill('Sapere se le classi usano la biblioteca della scuola.');
      await form.getByLabel('Chi partecipa').fill('Alunne e alunni delle classi quinte');
      // For code holders only (decision 046): pupils answer it through their class's code.
      await form.getByLabel('Studenti e famiglie (con codice di accesso)').check({ force: true });
      const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });
      await form.getByLabel('Data di apertura').fill(today);
      await form.getByLabel('Data di chiusura').fill(`${Number(today.slice(0, 4)) + 1}${today.slice(4)}`);
      await form.getByRole('button', { name: 'Crea l’indagine' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);

      const editor = page.getByTestId('question-editor');
      await editor.getByLabel('Tipo della nuova domanda').selectOption('scelta_singola');
      await editor.getByRole('button', { name: 'Aggiungi una domanda' }).click();
      const first = editor.getByTestId('editor-question').first();
      await first.getByLabel('Testo della domanda').fill('Usi la biblioteca della scuola?');
      await first.getByLabel('Opzione 1', { exact: true }).fill('Sì, ogni settimana');
      await first.getByLabel('Opzione 2', { exact: true }).fill('Qualche volta');
      await first.getByLabel('Risposta obbligatoria').check({ force: true });
      await editor.getByLabel('Tipo della nuova domanda').selectOption('scala');
      await editor.getByRole('button', { name: 'Aggiungi una domanda' }).click();
      await editor
        .getByTestId('editor-question')
        .nth(1)
        .getByLabel('Testo della domanda')
        .fill('Quanto ti piace leggere?');
      await editor.getByRole('button', { name: 'Salva le domande' }).click();
      await expect(page.getByTestId('survey-message')).toHaveText('Domande salvate.');

      await transition(page, 'Apri l’indagine', 'Aperta');
      await expectAccessibleAtBothWidths(page);
    });

    let code = '';
    await test.step('un’insegnante crea un codice per la sua classe', async () => {
      const teacher = await browser.newContext({ baseURL });
      await rememberConsentChoice(teacher, baseURL!);
      const tab = await teacher.newPage();
      await loginAs(tab, TEACHER);
      if (new URL(tab.url()).pathname !== '/portale') await tab.goto('/portale');
      await appReady(tab);
      await expect(tab.getByTestId('teacher-code-survey')).toContainText(title);
      await expect(tab.getByTestId('teacher-no-survey')).toHaveText(
        'In questo momento non c’è un’indagine aperta per insegnanti ed educatori.',
      );
      const form = tab.getByTestId('create-codes-form');
      await form.getByLabel('Classe').fill(classLabel);
      await form.getByLabel('Quanti codici').fill('1');
      await form.getByLabel('Utilizzi per codice').fill(String(RESPONDENTS));
      await form.getByRole('button', { name: 'Crea i codici' }).click();
      const created = tab.getByTestId('codes-created');
      await expect(created).toContainText(`per la classe ${classLabel}`);
      code = /: ([A-Za-z0-9]{7})\./.exec((await created.textContent()) ?? '')![1]!;
      await expect(tab.getByTestId(`code-${code}`)).toContainText(`0 su ${RESPONDENTS}`);
      await teacher.close();
    });

    await test.step(`${RESPONDENTS} alunni rispondono con il codice; poi il codice è esaurito`, async () => {
      const guests = await browser.newContext({ baseURL });
      await rememberConsentChoice(guests, baseURL!);
      const guest = await guests.newPage();
      for (let i = 0; i < RESPONDENTS; i++) {
        await guest.goto(`/${code}`);
        await appReady(guest);
        await expect(guest.getByRole('heading', { level: 1, name: title })).toBeVisible();
        await expect(guest.getByTestId('access-code-context')).toContainText(classLabel);
        if (i === 0) await expectAccessibleAtBothWidths(guest);
        await guest
          .getByRole('group', { name: /Usi la biblioteca della scuola/ })
          .getByLabel(i < 3 ? 'Sì, ogni settimana' : 'Qualche volta')
          .check({ force: true });
        await guest
          .getByRole('group', { name: /Quanto ti piace leggere/ })
          .getByLabel(String(3 + (i % 3)), { exact: true })
          .check({ force: true });
        await guest.getByRole('button', { name: 'Invia le risposte' }).click();
        await expect(
          guest.getByRole('heading', { level: 1, name: 'Grazie per la partecipazione' }),
        ).toBeVisible();
      }
      await guest.goto(`/${code}`);
      await expectErrorScreen(guest, 404, `Page Not Found: /${code}`);
      await guests.close();
    });

    await test.step('lo staff vede le risposte e chiude l’indagine', async () => {
      await openSurveyPage(page, title);
      await expect(page.getByTestId('survey-responses')).toHaveText(String(RESPONDENTS));
      await transition(page, 'Chiudi l’indagine', 'Chiusa');
    });

    await test.step('chiunque legge i risultati: il gruppo nazionale di 5, le righe sotto 5 protette', async () => {
      const visitors = await browser.newContext({ baseURL });
      await rememberConsentChoice(visitors, baseURL!);
      const visitor = await visitors.newPage();
      await visitor.goto('/risultati');
      await appReady(visitor);
      const chooser = visitor.getByLabel('Indagine', { exact: true });
      // Closed today, before its planned last day: the list says so.
      const option = chooser.locator('option', { hasText: title });
      await expect(option).toHaveText(
        `${title} (chiusa il ${new Date().toLocaleDateString('it-IT', { timeZone: 'Europe/Rome', dateStyle: 'long' })})`,
      );
      await chooser.selectOption((await option.getAttribute('value'))!);
      await visitor.getByRole('button', { name: 'Mostra i risultati' }).click();
      await expect(visitor.getByRole('heading', { level: 2, name: title })).toBeVisible();
      await expect(visitor.getByTestId('results-group')).toContainText(
        `${RESPONDENTS} persone hanno risposto`,
      );
      const questions = visitor.getByTestId('results-question');
      await expect(questions).toHaveCount(2);
      await expectChartsDrawn(visitor, 2);
      // 3 and 2 answers: both below 5, so both rows are protected.
      await expect(questions.first().locator('td[data-protected="true"]')).toHaveCount(2);
      await expectAccessibleAtBothWidths(visitor);
      await visitors.close();
    });
  });
});
