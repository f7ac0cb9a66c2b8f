import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { apiAs } from './api-session.ts';
import { appReady, DESKTOP, expect } from './fixtures.ts';

// What the offline specs share: an API session of the detector, a visit to report, the device's store.

export const DETECTOR = 'rilevatore@demo.test';

/** An API session of the detector (or another demo account). */
export function detectorApi(
  webOrigin: string,
  email: string = DETECTOR,
): Promise<{ api: APIRequestContext; headers: Record<string, string> }> {
  return apiAs(webOrigin, email);
}

/** Rome's wall clock a few minutes from now, as the visit form takes it: a visit later today is reportable today. */
export function romeLocalSoon(minutes: number): string {
  const parts = new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Rome',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(Date.now() + minutes * 60_000));
  return parts.replace(' ', 'T');
}

/** The records of the device's report store (IndexedDB), as the page sees them. */
export function storedReports(
  page: Page,
): Promise<
  Array<{ clientReportId: string; visitId: number; status: string; report: string; lastError: string | null }>
> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('portale-visit-reports');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('reports')) {
            db.close();
            resolve([]);
            return;
          }
          const all = db.transaction('reports').objectStore('reports').getAll();
          all.onsuccess = () => {
            db.close();
            resolve(all.result);
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

export async function controlledBySw(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => !!navigator.serviceWorker?.controller), { timeout: 20_000 })
    .toBe(true);
}

export async function openOffline(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize(DESKTOP);
  await page.goto(path);
  await appReady(page);
  return page;
}

/** A visit of the detector's first plesso, later today: reportable now. */
export async function planReportableVisit(webOrigin: string): Promise<{ siteId: number; visitId: number }> {
  const { api, headers } = await detectorApi(webOrigin);
  try {
    const listed = await api.get('/api/detectors/me/school-sites', { headers });
    expect(listed.status(), await listed.text()).toBe(200);
    const siteId: number = (await listed.json()).items[0].id;
    const planned = await api.post(`/api/school-sites/${siteId}/visits`, {
      headers,
      data: { scheduledAt: romeLocalSoon(3) },
    });
    expect(planned.status(), await planned.text()).toBe(201);
    return { siteId, visitId: (await planned.json()).id };
  } finally {
    await api.dispose();
  }
}

/** The detector's visits of a plesso as the API lists them (for the checks the UI does not show). */
export async function visitsOf(
  webOrigin: string,
  siteId: number,
): Promise<Array<{ id: number; state: string; report: string | null }>> {
  const { api, headers } = await detectorApi(webOrigin);
  try {
    return (await (await api.get(`/api/school-sites/${siteId}/visits`, { headers })).json()).items;
  } finally {
    await api.dispose();
  }
}
