import { randomInt } from 'node:crypto';
import { request } from '@playwright/test';
import {
  appReady,
  expect,
  expectAccessibleAtBothWidths,
  loginAs,
  rememberConsentChoice,
  signIn,
  test,
} from '../fixtures.ts';
import { smsCode } from '../outbox.ts';

// Issue 32: an enrolment that names an existing account only invites it. The demo first contact is
// named principal of another institute: the invitation waits on their portal home, cannot be accepted
// with a codice fiscale that is not theirs, and is declined; their account stays as it was.

const API_ORIGIN = `http://localhost:${process.env.E2E_API_PORT}`;
const INVITED = 'referente@demo.test';

/** Enrols a not yet enrolled institute of Pavia naming `email` as principal and first contact; its codice meccanografico. */
async function enrolNaming(webOrigin: string, email: string): Promise<string> {
  const api = await request.newContext({ baseURL: API_ORIGIN, extraHTTPHeaders: { origin: webOrigin } });
  try {
    await api.head('/sanctum/csrf-cookie');
    const headers = {
      'x-xsrf-token': (await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')!.value,
    };
    const phone = `+3933${String(randomInt(10_000_000, 99_999_999))}`;
    const { verificationId } = await (
      await api.post('/api/phone-verifications', { headers, data: { phone } })
    ).json();
    expect(
      (
        await api.post(`/api/phone-verifications/${verificationId}/confirm`, {
          headers,
          data: { code: await smsCode(phone) },
        })
      ).ok(),
    ).toBe(true);
    const options = (await (await api.get('/api/enrolments/institutes?q=pavia')).json()).items.filter(
      (i: { enrollable: boolean }) => i.enrollable,
    );
    for (const option of [...options].sort(() => Math.random() - 0.5)) {
      const institute = await (await api.get(`/api/enrolments/institutes/${option.id}`)).json();
      if (!institute.schoolSites?.length) continue;
      const principal = {
        firstName: 'Renato',
        lastName: 'Referente',
        email,
        taxCode: 'RFRRNT70A01G388F',
        phone,
      };
      const res = await api.post('/api/enrolments', {
        headers,
        data: {
          verificationId,
          instituteId: option.id,
          principal,
          firstContact: null,
          schoolSiteIds: [institute.schoolSites[0].id],
          privacyAccepted: true,
        },
      });
      if (res.status() === 409) continue;
      expect(res.status(), await res.text()).toBe(201);
      return option.ministryCode;
    }
    throw new Error('No enrollable institute with plessi in Pavia');
  } finally {
    await api.dispose();
  }
}

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

test('iscrizione: l’account esistente indicato come dirigente riceve un invito, che non vale con un codice fiscale non suo', async ({
  page,
  baseURL,
}) => {
  const ministryCode = await enrolNaming(baseURL!, INVITED);
  await loginAs(page, INVITED);
  await page.goto('/portale');
  await appReady(page);
  const roles = await page.getByTestId('user-roles').textContent();
  const invitation = page.getByTestId('enrolment-invitation').filter({ hasText: ministryCode });
  await expect(invitation).toContainText("Dirigente scolastico e Referente d'istituto");
  await expect(invitation).toContainText('Il tuo account non è stato modificato');
  await expectAccessibleAtBothWidths(page);

  await invitation.getByRole('button', { name: 'Accetta l’invito' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toContainText(
    'non corrisponde a quello del tuo account',
  );
  await expect(page.getByTestId('user-roles')).toHaveText(roles!);

  await invitation.getByRole('button', { name: 'Rifiuta' }).click();
  await expect(page.getByRole('status').filter({ hasText: /\S/ })).toContainText('Invito rifiutato');
  await expect(invitation).toHaveCount(0);
  await expect(page.getByTestId('user-roles')).toHaveText(roles!);
});

test('inviti di iscrizione: lo staff trova l’invito, lo invia di nuovo e lo annulla', async ({
  page,
  baseURL,
}) => {
  const ministryCode = await enrolNaming(baseURL!, INVITED);
  await signIn(page, 'cromos@demo.test', { path: `/portale/adesioni/inviti?q=${ministryCode}` });
  await expect(page.getByRole('heading', { level: 1, name: 'Inviti di iscrizione' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: ministryCode });
  await expect(row).toContainText(INVITED);
  await expect(row).toContainText('In attesa');
  await expectAccessibleAtBothWidths(page);

  await row.getByRole('button', { name: /^Invia di nuovo/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Invito inviato di nuovo' })).toContainText(
    INVITED,
  );

  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: /^Annulla l’invito/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Invito annullato' })).toBeVisible();
  await expect(row).toContainText('Annullato');
  await expect(row.getByRole('button')).toHaveCount(0);
  await expectAccessibleAtBothWidths(page);
});
