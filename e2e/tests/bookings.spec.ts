import type { Page } from '@playwright/test';
import {
  appReady,
  expect,
  expectAccessibleAtBothWidths,
  expectNoAxeViolations,
  signIn,
  rememberConsentChoice,
  test,
} from '../fixtures.ts';
import { mailLink } from '../outbox.ts';

const STAFF = 'cromos@demo.test';

/** `YYYY-MM-DDTHH:mm` `days` from now (the form reads it as Rome time). */
function local(days: number, time: string): string {
  return `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T${time}`;
}

/** The item of the public list for a slot title. */
const slotItem = (page: Page, title: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

test.describe('prenotazioni', () => {
  test.describe.configure({ timeout: 180_000 });

  test('staff create a slot; the public books the last place, a full slot refuses, the e-mail link cancels; staff see the bookings', async ({
    page,
    browser,
    baseURL,
  }) => {
    const title = `Incontro e2e ${Date.now()}`;
    const email = `prenota.${Date.now()}@example.org`;

    // Staff create a one-place slot.
    await signIn(page, STAFF, { path: '/portale/prenotazioni' });
    await expect(page.getByRole('heading', { level: 1, name: 'Prenotazioni' })).toBeVisible();
    await expectAccessibleAtBothWidths(page);
    const form = page.getByTestId('nuovo-form');
    await form.getByRole('button', { name: 'Crea l’appuntamento' }).click();
    await expect(form.getByText('Inserisci un titolo da 3 a 200 caratteri.')).toBeVisible();
    await expectNoAxeViolations(page, { skipSeenStructure: false });
    await form.getByLabel('Titolo').fill(title);
    await form.getByLabel('Inizio').fill(local(10, '15:00'));
    await form.getByLabel('Fine').fill(local(10, '17:00'));
    await form.getByLabel('Luogo').fill('Roma, Sala e2e');
    await form.getByLabel('Posti').fill('1');
    await form.getByLabel('Pubblicato: visibile e prenotabile sul sito').check({ force: true });
    await form.getByRole('button', { name: 'Crea l’appuntamento' }).click();
    await expect(page.getByTestId('slot-message')).toHaveText('Appuntamento creato.');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(title);
    const slotUrl = page.url();
    await expectAccessibleAtBothWidths(page);

    // Two visitors open the form; the first takes the only place, the second is refused.
    const visitor = await browser.newContext();
    await rememberConsentChoice(visitor, baseURL!);
    const late = await browser.newContext();
    await rememberConsentChoice(late, baseURL!);
    const guest = await visitor.newPage();
    const latecomer = await late.newPage();
    for (const p of [guest, latecomer]) {
      await p.goto('/prenotazioni');
      await appReady(p);
      await expect(slotItem(p, title).getByTestId('slot-free')).toHaveText('1 posto libero');
      await slotItem(p, title)
        .getByRole('button', { name: /Prenota un posto/ })
        .click();
    }
    await expectAccessibleAtBothWidths(guest);

    const item = slotItem(guest, title);
    await item.getByRole('button', { name: 'Prenota', exact: true }).click();
    await expect(
      item.getByText("Per prenotare devi dichiarare di aver letto l'informativa sulla privacy."),
    ).toBeVisible();
    await item.getByLabel('Nome e cognome').fill('Giulia Bianchi');
    await item.getByLabel('Indirizzo e-mail').fill(email);
    await item.getByLabel('Istituto (facoltativo)').fill('IC Roma e2e');
    await item.getByLabel(/Ho letto l’informativa/).check({ force: true });
    await item.getByRole('button', { name: 'Prenota', exact: true }).click();
    await expect(item.getByRole('status').filter({ hasText: 'Prenotazione confermata.' })).toBeVisible();
    await expect(item.getByTestId('slot-full')).toHaveText('Completo');
    await expectAccessibleAtBothWidths(guest);

    const lateItem = slotItem(latecomer, title);
    await lateItem.getByLabel('Nome e cognome').fill('Marco Neri');
    await lateItem.getByLabel('Indirizzo e-mail').fill(`tardi.${Date.now()}@example.org`);
    await lateItem.getByLabel(/Ho letto l’informativa/).check({ force: true });
    await lateItem.getByRole('button', { name: 'Prenota', exact: true }).click();
    await expect(
      lateItem.getByRole('alert').filter({ hasText: 'Non ci sono più posti liberi per questo appuntamento' }),
    ).toBeVisible();
    await expect(lateItem.getByTestId('slot-full')).toHaveText('Completo');
    await expect(lateItem.getByRole('button', { name: /Prenota un posto/ })).toHaveCount(0);

    // Staff see the booking.
    await page.goto(slotUrl);
    await appReady(page);
    const table = page.getByRole('table');
    await expect(table.getByRole('row').filter({ hasText: email })).toContainText('Confermata');
    await expect(page.getByTestId('slot-facts')).toContainText('1 prenotati su 1 (completo)');
    const download = page.waitForEvent('download');
    await page.getByTestId('export').getByRole('button', { name: /CSV/ }).click();
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);

    // The e-mail's link cancels, after a confirmation step.
    const link = await mailLink(email, 'email.prenotazione-confermata');
    const cancelPath = new URL(link);
    await guest.goto(cancelPath.pathname + cancelPath.search);
    await appReady(guest);
    const panel = guest.getByTestId('cancel-panel');
    await expect(panel).toContainText('Stai per annullare la prenotazione di Giulia Bianchi');
    await expectAccessibleAtBothWidths(guest);
    await panel.getByRole('button', { name: 'Sì, annulla la prenotazione' }).click();
    await expect(panel.getByRole('status')).toContainText('La prenotazione è stata annullata');
    await expect(slotItem(guest, title).getByTestId('slot-free')).toHaveText('1 posto libero');

    // The same link again opens nothing.
    await guest.reload();
    await appReady(guest);
    await expect(guest.getByTestId('cancel-panel').getByRole('alert')).toContainText(
      'Prenotazione non trovata',
    );

    await page.reload();
    await appReady(page);
    await expect(page.getByRole('table').getByRole('row').filter({ hasText: email })).toContainText(
      'Annullata',
    );

    // Unpublished: gone from the public page.
    await page.getByRole('button', { name: 'Ritira dal sito' }).click();
    await expect(page.getByTestId('slot-message')).toContainText('Appuntamento ritirato');
    await guest.goto('/prenotazioni');
    await appReady(guest);
    await expect(slotItem(guest, title)).toHaveCount(0);
    await visitor.close();
    await late.close();
  });
});
