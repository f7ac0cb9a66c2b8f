import type { Page } from '@playwright/test';
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

const STAFF = 'cromos@demo.test';
const TEACHER = 'insegnante@demo.test';
/** The demo open survey (seeded on every start; one survey is open at a time, so the e2e never closes it). */
const OPEN_TITLE = 'Indagine nazionale sulle scuole 2026';

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

/** The labels of the editor's questions, in order. */
const editorLabels = (page: Page) => page.getByTestId('editor-question').getByLabel('Testo della domanda');

async function expectOrder(page: Page, labels: string[]) {
  const fields = editorLabels(page);
  await expect(fields).toHaveCount(labels.length);
  for (const [i, label] of labels.entries()) await expect(fields.nth(i)).toHaveValue(label);
}

test.describe('indagini', () => {
  test.describe.configure({ timeout: 180_000 });

  test('staff build a survey with questions, reorder them by keyboard, and may open it only when no other survey is open', async ({
    page,
  }) => {
    const title = `Indagine e2e ${Date.now()}`;
    await signIn(page, STAFF, { path: '/portale/indagini' });
    await listSettled(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Indagini' })).toBeVisible();
    await expect(page.getByRole('link', { name: OPEN_TITLE })).toBeVisible();
    await expectAccessibleAtBothWidths(page);

    // Bad input: per-field Italian errors.
    const form = page.getByTestId('nuova-form');
    await form.getByRole('button', { name: 'Crea l’indagine' }).click();
    await expect(form.getByText('Inserisci un titolo da 3 a 200 caratteri.')).toBeVisible();
    await expectNoAxeViolations(page);
    await form.getByLabel('Titolo').fill(title);
    await form.getByLabel('Scopo dell’indagine').fill('Sapere come le scuole usano i laboratori.');
    await form.getByLabel('Chi partecipa').fill('Insegnanti della primaria');
    await form.getByLabel('Data di apertura').fill('2027-01-10');
    await form.getByLabel('Data di chiusura').fill('2027-01-01');
    await form.getByRole('button', { name: 'Crea l’indagine' }).click();
    await expect(
      form.getByText('La data di chiusura non può essere precedente alla data di apertura.'),
    ).toBeVisible();
    await form.getByLabel('Data di chiusura').fill('2027-03-31');
    await form.getByRole('button', { name: 'Crea l’indagine' }).click();
    await expect(page.getByTestId('survey-message')).toHaveText(
      'Indagine creata in bozza: ora aggiungi le domande.',
    );
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByTestId('survey-state')).toHaveText('Bozza');

    // Three questions of different types.
    const editor = page.getByTestId('question-editor');
    await editor.getByLabel('Tipo della nuova domanda').selectOption('scelta_singola');
    await editor.getByRole('button', { name: 'Aggiungi una domanda' }).click();
    await expect(editorLabels(page).first()).toBeFocused();
    await editorLabels(page).first().fill('Quale laboratorio usi di più?');
    const first = editor.getByTestId('editor-question').first();
    await first.getByLabel('Opzione 1', { exact: true }).fill('Scienze');
    await first.getByLabel('Opzione 2', { exact: true }).fill('Informatica');
    await first.getByRole('button', { name: 'Aggiungi un’opzione' }).click();
    await first.getByLabel('Opzione 3', { exact: true }).fill('Arte');
    await first.getByLabel('Risposta obbligatoria').check({ force: true });
    // The survey is for both groups (the default): each question says whom it is for (decision 046).
    await first.getByLabel('Chi vede la domanda').selectOption('insegnanti');
    await editor.getByLabel('Tipo della nuova domanda').selectOption('scala');
    await editor.getByRole('button', { name: 'Aggiungi una domanda' }).click();
    await editorLabels(page).nth(1).fill('Quanto è attrezzato?');
    await editor.getByLabel('Tipo della nuova domanda').selectOption('testo_breve');
    await editor.getByRole('button', { name: 'Aggiungi una domanda' }).click();
    // Saving with an empty question: the error is shown on that question.
    await editor.getByRole('button', { name: 'Salva le domande' }).click();
    await expect(
      editor
        .getByTestId('editor-question')
        .nth(2)
        .getByText('Scrivi il testo della domanda (da 3 a 500 caratteri).'),
    ).toBeVisible();
    await editorLabels(page).nth(2).fill('Che cosa manca?');

    // Reorder by keyboard: the third question up twice, announced each time.
    const up = editor.getByRole('button', { name: 'Sposta su la domanda 3 «Che cosa manca?»' });
    await up.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('question-announcement')).toHaveText(
      'Domanda 3 «Che cosa manca?» spostata in posizione 2 di 3.',
    );
    await expectOrder(page, ['Quale laboratorio usi di più?', 'Che cosa manca?', 'Quanto è attrezzato?']);
    await expect(
      editor.getByRole('button', { name: 'Sposta su la domanda 2 «Che cosa manca?»' }),
    ).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('question-announcement')).toHaveText(
      'Domanda 2 «Che cosa manca?» spostata in posizione 1 di 3.',
    );
    await expectOrder(page, ['Che cosa manca?', 'Quale laboratorio usi di più?', 'Quanto è attrezzato?']);
    // At the top, «Sposta su» is disabled: the focus went to «Sposta giù».
    await expect(
      editor.getByRole('button', { name: 'Sposta giù la domanda 1 «Che cosa manca?»' }),
    ).toBeFocused();
    await expect(editor.getByText('Ci sono modifiche non salvate.')).toBeVisible();
    await expectAccessibleAtBothWidths(page);

    // Reorder by mouse: drag the third question by its handle to the top (all cards in view).
    await page.setViewportSize({ width: DESKTOP.width, height: 2400 });
    const handle = editor.getByRole('button', {
      name: 'Trascina per spostare la domanda 3 «Quanto è attrezzato?»',
    });
    const from = (await handle.boundingBox())!;
    const top = (await editor.getByTestId('editor-question').first().boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 20, { steps: 5 });
    await page.mouse.move(from.x + from.width / 2, top.y + 10, { steps: 20 });
    await page.mouse.up();
    await expectOrder(page, ['Quanto è attrezzato?', 'Che cosa manca?', 'Quale laboratorio usi di più?']);
    await expect(page.getByTestId('question-announcement')).toHaveText(
      'Domanda 3 «Quanto è attrezzato?» spostata in posizione 1 di 3.',
    );
    await page.setViewportSize(DESKTOP);

    await editor.getByRole('button', { name: 'Salva le domande' }).click();
    await expect(page.getByTestId('survey-message')).toHaveText('Domande salvate.');
    await expect(editor.getByText('Ci sono modifiche non salvate.')).toHaveCount(0);
    await page.reload();
    await appReady(page);
    await expectOrder(page, ['Quanto è attrezzato?', 'Che cosa manca?', 'Quale laboratorio usi di più?']);
    await expect(page.getByTestId('survey-responses')).toHaveText('0');
    await expect(page.getByTestId('survey-participants')).toHaveText(
      'Insegnanti ed educatori, studenti e famiglie',
    );
    await expect(editor.getByTestId('editor-question').nth(2).getByLabel('Chi vede la domanda')).toHaveValue(
      'insegnanti',
    );

    // Opening asks for confirmation; another survey is open, so it is refused with the reason.
    await page.getByRole('button', { name: 'Apri l’indagine' }).click();
    await expect(page.getByTestId('confirm-open')).toBeFocused();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Conferma: apri l’indagine' }).click();
    await expect(page.getByTestId('survey-message')).toHaveText(
      `C’è già un’indagine aperta per insegnanti ed educatori («${OPEN_TITLE}»): chiudila prima di aprirne un’altra per le stesse persone, oppure scegli chi risponde in modo che le due indagini non si sovrappongano.`,
    );
    await expect(page.getByTestId('survey-state')).toHaveText('Bozza');
    await expectAccessibleAtBothWidths(page);

    // The list finds it.
    await page.goto(`/portale/indagini?q=${encodeURIComponent(title)}`);
    await appReady(page);
    await listSettled(page);
    await expect(page.getByRole('link', { name: title })).toBeVisible();
  });

  test('a teacher answers the open survey at /indagine once; a second try is refused and shows what was sent', async ({
    page,
    context,
  }) => {
    // A visitor reads what it is and how to get an access code.
    await page.goto('/indagine');
    await appReady(page);
    await expect(page.getByRole('heading', { level: 2, name: OPEN_TITLE })).toBeVisible();
    await expect(page.getByText(/codice di accesso/).first()).toBeVisible();
    await expect(page.getByTestId('survey-form')).toHaveCount(0);
    await expectAccessibleAtBothWidths(page);

    await signIn(page, TEACHER);
    // Two tabs open the questionnaire before either sends it.
    const second = await context.newPage();
    for (const p of [page, second]) {
      await p.goto('/indagine');
      await appReady(p);
      await expect(p.getByTestId('survey-form')).toBeVisible();
    }
    await expectAccessibleAtBothWidths(page);

    // Required questions left blank: refused per question.
    await page.getByRole('button', { name: 'Invia le risposte' }).click();
    const required = page.getByText('Questa domanda è obbligatoria: rispondi prima di inviare.');
    await expect(required).toHaveCount(2);
    await expectAccessibleAtBothWidths(page);

    const answer = async (p: Page) => {
      await p
        .getByRole('group', { name: /Da quanti anni lavori nella scuola/ })
        .getByLabel('Da 5 a 15')
        .check({ force: true });
      await p
        .getByRole('group', { name: /Su quali temi vorresti formazione/ })
        .getByLabel('Inclusione')
        .check({ force: true });
      await p
        .getByRole('group', { name: /Su quali temi vorresti formazione/ })
        .getByLabel('Valutazione')
        .check({ force: true });
      await p
        .getByRole('group', { name: /Quanto ti senti coinvolto/ })
        .getByLabel('4', { exact: true })
        .check({ force: true });
      await p.getByLabel(/Quale attività della tua scuola consiglieresti/).fill('Il laboratorio di robotica');
    };
    await answer(page);
    await page.getByRole('button', { name: 'Invia le risposte' }).click();
    await expect(page.getByTestId('survey-message')).toHaveText(
      'Grazie! Le tue risposte sono state registrate.',
    );
    await expect(page.getByTestId('survey-answered')).toBeVisible();
    const sent = page.getByTestId('questionnaire-answers');
    await expect(sent).toContainText('Da 5 a 15');
    await expect(sent).toContainText('Inclusione; Valutazione');
    await expect(sent).toContainText('4 su 5');
    await expect(sent).toContainText('Il laboratorio di robotica');
    await expectAccessibleAtBothWidths(page);

    // The other tab still shows the form: sending again is refused with a clear message.
    await answer(second);
    await second.getByRole('button', { name: 'Invia le risposte' }).click();
    await expect(second.getByTestId('survey-message')).toHaveText(
      'Hai già risposto a questa indagine: si può rispondere una sola volta. Puoi rivedere le risposte che hai inviato.',
    );
    await expect(second.getByTestId('questionnaire-answers')).toContainText('Il laboratorio di robotica');
    await expectAccessibleAtBothWidths(second);

    // Coming back later shows what was sent, not the form.
    await page.goto('/indagine');
    await appReady(page);
    await expect(page.getByTestId('survey-answered')).toBeVisible();
    await expect(page.getByTestId('survey-form')).toHaveCount(0);
  });
});
