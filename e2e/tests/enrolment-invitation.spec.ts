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
import { mailLink, smsCode } from '../outbox.ts';

// Issue 32: an enrolment that names an existing account only invites it. The demo first contact is
// named principal of another institute: the invitation waits on their portal home, cannot be accepted
// with a codice fiscale that is not theirs, and is declined; their account stays as it was.

const API_ORIGIN = `http://localhost:${process.env.E2E_API_PORT}`;
const INVITED = 'referente@demo.test';

/** Enrols a not yet enrolled institute of Pavia naming `email` as principal and first contact; its codice meccanografico. */
async function enrolNaming(webOrigin: string, email: string): Promise<string> {
  return (await enrolInstitute(webOrigin, email)).ministryCode;
}

/** An API context of the web's origin with its XSRF header. */
async function apiContext(webOrigin: string) {
  const api = await request.newContext({ baseURL: API_ORIGIN, extraHTTPHeaders: { origin: webOrigin } });
  await api.head('/sanctum/csrf-cookie');
  const headers = {
    'x-xsrf-token': (await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')!.value,
  };
  return { api, headers };
}

/** Enrols a not yet enrolled institute of Pavia naming `email` as principal and first contact. */
async function enrolInstitute(
  webOrigin: string,
  email: string,
  firstContactEmail?: string,
): Promise<{ ministryCode: string; instituteId: number; name: string }> {
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
          firstContact: firstContactEmail
            ? {
                firstName: 'Fabio',
                lastName: 'Fisso',
                email: firstContactEmail,
                taxCode: 'FSSFBA80A01G388E',
                phone: `+3934${String(randomInt(10_000_000, 99_999_999))}`,
              }
            : null,
          schoolSiteIds: [institute.schoolSites[0].id],
          privacyAccepted: true,
        },
      });
      if (res.status() === 409) continue;
      expect(res.status(), await res.text()).toBe(201);
      return { ministryCode: option.ministryCode, instituteId: option.id, name: option.name };
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

const NEW_PASSWORD = 'Quaderno-Girasole-47';

/** Chooses the password from the e-mailed link and verifies a new mobile number by SMS, through the API. */
async function activateAccount(webOrigin: string, email: string, templateKey: string) {
  const { api, headers } = await apiContext(webOrigin);
  try {
    const token = new URL(await mailLink(email, templateKey)).searchParams.get('token')!;
    const reset = await api.post('/api/auth/reset-password', {
      headers,
      data: { token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(reset.status(), await reset.text()).toBe(200);
    const login = await api.post('/api/auth/login', { headers, data: { email, password: NEW_PASSWORD } });
    expect(login.status(), await login.text()).toBe(200);
    // The XSRF pair is bound to the session: read it again with the bearer.
    const authorization = `Bearer ${(await login.json()).token}`;
    await api.head('/sanctum/csrf-cookie', { headers: { authorization } });
    const xsrf = (await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
    const auth = { 'x-xsrf-token': xsrf, authorization };
    const me = await (await api.get('/api/auth/me', { headers: auth })).json();
    if (!me.user.phoneVerified) {
      const phone = `+3933${String(randomInt(10_000_000, 99_999_999))}`;
      const started = await api.post('/api/account/phone-verifications', { headers: auth, data: { phone } });
      expect(started.status(), await started.text()).toBe(201);
      const { verificationId } = await started.json();
      const confirmed = await api.post(`/api/phone-verifications/${verificationId}/confirm`, {
        headers: auth,
        data: { code: await smsCode(phone) },
      });
      expect(confirmed.status(), await confirmed.text()).toBe(200);
    }
  } finally {
    await api.dispose();
  }
}

// Decision 047: at the start of a school year the principal changes. Staff invite the new one from the
// institute's page; the new principal accepts on the portal and sees the school; the old one no longer does.
test('passaggio di consegne: il nuovo dirigente accetta l’invito e vede l’istituto, il precedente non più', async ({
  page,
  browser,
  baseURL,
}) => {
  const stamp = randomInt(1, 2 ** 40).toString(36);
  const oldEmail = `uscente.${stamp}@esempio.it`;
  const newEmail = `nuovo.${stamp}@esempio.it`;
  // The first contact is someone else: the old principal's only link to the school is the one handed over.
  const school = await enrolInstitute(baseURL!, oldEmail, `referente.${stamp}@esempio.it`);
  await activateAccount(baseURL!, oldEmail, 'email.iscrizione-invito');

  await signIn(page, 'cromos@demo.test', { path: `/portale/istituti/${school.instituteId}` });
  const handover = page.getByTestId('handover');
  await expect(handover.getByRole('heading', { name: 'Nuovo dirigente o referente' })).toBeVisible();
  await handover.getByLabel('Dirigente scolastico').check();
  await handover.getByLabel('Nome', { exact: true }).fill('Nadia');
  await handover.getByLabel('Cognome').fill('Nuova');
  await handover.getByLabel('E-mail personale').fill(newEmail);
  await handover.getByLabel('Codice fiscale').fill('NVONDA80A41G388G');
  await handover.getByRole('button', { name: 'Invia l’invito' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Invito inviato a' })).toContainText(newEmail);
  const row = handover.getByRole('row').filter({ hasText: newEmail });
  await expect(row).toContainText('In attesa');
  await expectAccessibleAtBothWidths(page);

  await activateAccount(baseURL!, newEmail, 'email.passaggio-invito');
  const newcomer = await browser.newPage();
  await rememberConsentChoice(newcomer.context(), baseURL!);
  await loginAs(newcomer, newEmail, NEW_PASSWORD);
  await newcomer.goto('/portale');
  await appReady(newcomer);
  const invitation = newcomer.getByTestId('enrolment-invitation').filter({ hasText: school.ministryCode });
  await expect(invitation).toContainText('Sei indicato come nuovo Dirigente scolastico');
  await invitation.getByRole('button', { name: 'Accetta l’invito' }).click();
  await expect(newcomer.getByTestId('user-roles')).toContainText('Dirigente scolastico');
  // The adhesion was not signed yet: the new principal is sent to sign it, for this school.
  await newcomer.goto('/portale');
  await appReady(newcomer);
  await expect(newcomer.getByRole('main')).toContainText(school.ministryCode);
  await newcomer.close();

  const former = await browser.newPage();
  await rememberConsentChoice(former.context(), baseURL!);
  await loginAs(former, oldEmail, NEW_PASSWORD);
  await former.goto('/portale');
  await appReady(former);
  await expect(former.getByTestId('user-roles')).not.toContainText('Dirigente scolastico');
  await expect(former.getByRole('main')).not.toContainText(school.ministryCode);
  await former.close();
});
