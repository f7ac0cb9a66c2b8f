import { expect, request } from '@playwright/test';

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
