import { randomInt } from 'node:crypto';
import { expect, request, type APIRequestContext } from '@playwright/test';
import { mailLink, SHARED_OUTBOX, smsCode, type Outbox } from './outbox.ts';

const API_ORIGIN = `http://localhost:${process.env.E2E_API_PORT}`;

/**
 * Registers a teacher of a Pavia plesso through the public API, as the registration form does: the
 * registration enters the `insegnanti` review queue.
 */
export async function registerTeacher(webOrigin: string, lastName: string): Promise<void> {
  const api = await request.newContext({ baseURL: API_ORIGIN, extraHTTPHeaders: { origin: webOrigin } });
  try {
    await api.head('/sanctum/csrf-cookie');
    const xsrf = (await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
    const sites = await (await api.get('/api/school-sites/search?q=pavia')).json();
    const res = await api.post('/api/registrations', {
      headers: { 'x-xsrf-token': xsrf },
      data: {
        kind: 'insegnante',
        firstName: 'Ornella',
        lastName,
        email: `${lastName.toLowerCase()}@esempio.it`,
        phone: '+39 333 765 4321',
        password: 'Quaderno-Girasole-47',
        taxCode: 'RSSMRA85T10A562S',
        schoolSiteId: sites.items[0].id,
        subjects: ['Matematica'],
        privacyAccepted: true,
      },
    });
    expect(res.status(), await res.text()).toBe(202);
  } finally {
    await api.dispose();
  }
}

/** The password the principal and first contact of an enrolled institute choose. */
export const ENROLLED_PASSWORD = 'Registro-Lavagna-73';
/** The codice fiscale of an enrolled institute's principal (Elisa Nerini). */
export const ENROLLED_PRINCIPAL_TAX_CODE = 'NRILSE75C50H501G';

export interface Enrolled {
  ministryCode: string;
  instituteName: string;
  principal: { email: string; phone: string };
  firstContact: { email: string };
}

/** The API an institute is enrolled on: the shared e2e API, or one a spec started (own-api.ts). */
export interface EnrolTarget {
  apiOrigin: string;
  outbox: Outbox;
}
const SHARED_TARGET: EnrolTarget = { apiOrigin: API_ORIGIN, outbox: SHARED_OUTBOX };

async function apiContext(
  webOrigin: string,
  apiOrigin = API_ORIGIN,
): Promise<{ api: APIRequestContext; xsrf: string }> {
  const api = await request.newContext({ baseURL: apiOrigin, extraHTTPHeaders: { origin: webOrigin } });
  await api.head('/sanctum/csrf-cookie');
  const xsrf = (await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
  return { api, xsrf };
}

/** Sets the password of a new account from the link of its enrolment e-mail. */
async function choosePassword(api: APIRequestContext, xsrf: string, email: string, outbox: Outbox) {
  const token = new URL(await mailLink(email, 'email.iscrizione-invito', outbox)).searchParams.get('token')!;
  const res = await api.post('/api/auth/reset-password', {
    headers: { 'x-xsrf-token': xsrf },
    data: { token, password: ENROLLED_PASSWORD, password_confirmation: ENROLLED_PASSWORD },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** Enrols a not yet enrolled institute of Pavia with a new principal and first contact, as the enrolment form does. */
export async function enrolInstitute(
  webOrigin: string,
  target: EnrolTarget = SHARED_TARGET,
): Promise<Enrolled> {
  const { api, xsrf } = await apiContext(webOrigin, target.apiOrigin);
  const headers = { 'x-xsrf-token': xsrf };
  try {
    const stamp = `${Date.now()}${randomInt(1000)}`;
    const phone = `+3933${String(randomInt(10_000_000, 99_999_999))}`;
    const started = await api.post('/api/phone-verifications', { headers, data: { phone } });
    expect(started.status(), await started.text()).toBe(201);
    const { verificationId } = await started.json();
    const confirmed = await api.post(`/api/phone-verifications/${verificationId}/confirm`, {
      headers,
      data: { code: await smsCode(phone, target.outbox) },
    });
    expect(confirmed.ok(), await confirmed.text()).toBe(true);
    const options = (await (await api.get('/api/enrolments/institutes?q=pavia')).json()).items.filter(
      (i: { enrollable: boolean }) => i.enrollable,
    );
    expect(options.length).toBeGreaterThan(0);
    // A random one: another spec enrolling in parallel most likely picks another institute.
    for (const option of [...options].sort(() => Math.random() - 0.5)) {
      const institute = await (await api.get(`/api/enrolments/institutes/${option.id}`)).json();
      if (!institute.schoolSites?.length) continue;
      const principal = {
        firstName: 'Elisa',
        lastName: 'Nerini',
        email: `preside.${stamp}@scuola-esempio.it`,
        taxCode: ENROLLED_PRINCIPAL_TAX_CODE,
        phone,
      };
      const firstContact = {
        firstName: 'Luigi',
        lastName: 'Verdi',
        email: `referente.${stamp}@scuola-esempio.it`,
        taxCode: 'VRDLGU70A01H501O',
        phone: `+3934${String(randomInt(10_000_000, 99_999_999))}`,
      };
      const res = await api.post('/api/enrolments', {
        headers,
        data: {
          verificationId,
          instituteId: option.id,
          principal,
          firstContact,
          schoolSiteIds: [institute.schoolSites[0].id],
          privacyAccepted: true,
        },
      });
      if (res.status() === 409) continue;
      expect(res.status(), await res.text()).toBe(201);
      await choosePassword(api, xsrf, principal.email, target.outbox);
      await choosePassword(api, xsrf, firstContact.email, target.outbox);
      return {
        ministryCode: option.ministryCode,
        instituteName: option.name,
        principal: { email: principal.email, phone },
        firstContact: { email: firstContact.email },
      };
    }
    throw new Error('No enrollable institute with plessi in Pavia');
  } finally {
    await api.dispose();
  }
}
