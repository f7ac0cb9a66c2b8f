import { appendFileSync } from 'node:fs';
import {
  appReady,
  DESKTOP,
  expect,
  expectAccessibleAtBothWidths,
  rememberConsentChoice,
  submitLogin,
  test,
} from '../fixtures.ts';
import {
  controlledBySw,
  DETECTOR,
  planReportableVisit,
  storedReports,
  visitsOf,
} from '../offline-support.ts';
import { startWebCopy } from '../own-api.ts';

// Issue 39: "an app update never hides or drops drafts; a schema upgrade of the local store carries
// unsent records forward". Only a browser has a service worker and IndexedDB, and only the real build
// has the worker: this spec serves a copy of the build of its own (the other specs keep theirs), puts
// a draft of the first version of the device's store in the browser, lets the app upgrade the store,
// then publishes a new worker and updates to it.

let web: Awaited<ReturnType<typeof startWebCopy>> | undefined;
test.beforeAll(async () => {
  web = await startWebCopy();
});
test.afterAll(() => web?.stop());

/** Writes a draft as the first version of the store kept it (`drafts`, decision 043), before the app runs. */
async function putVersionOneDraft(
  page: import('@playwright/test').Page,
  draft: { clientReportId: string; visitId: number; report: string },
): Promise<void> {
  await page.evaluate(
    (d) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('portale-visit-reports', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('drafts', { keyPath: 'clientReportId' });
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('drafts', 'readwrite');
          tx.objectStore('drafts').put({ ...d, teachersMet: [], savedAt: new Date().toISOString() });
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    draft,
  );
}

test('aggiornamento: una bozza della versione precedente del dispositivo e una nuova versione dell’app non perdono nulla', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const origin = web!.webOrigin;
  const { siteId, visitId } = await planReportableVisit(origin);
  const text = `Bozza scritta con la versione precedente dell’app (visita ${visitId}).`;
  const clientReportId = crypto.randomUUID();

  const context = await browser.newContext({ baseURL: origin });
  await rememberConsentChoice(context, origin);
  const page = await context.newPage();
  await page.setViewportSize(DESKTOP);
  // A page of the origin that runs no app code, to write the old store before the app opens it.
  await page.goto('/build.json');
  await putVersionOneDraft(page, { clientReportId, visitId, report: text });

  await page.goto('/auth/login');
  await appReady(page);
  await submitLogin(page, DETECTOR);
  await expect(page).toHaveURL(/\/portale/);
  await appReady(page);
  await controlledBySw(page);

  // The app upgraded the store: the old draft is a draft of the current store, and back in its form.
  const visitsPath = `/portale/istituti/plessi/${siteId}/visite`;
  await page.goto(visitsPath);
  await appReady(page);
  const box = () =>
    page.locator(`[data-visit-id="${visitId}"]`).getByRole('textbox', { name: 'Resoconto della visita' });
  await expect(box()).toHaveValue(text);
  expect((await storedReports(page)).filter((r) => r.visitId === visitId)).toEqual([
    expect.objectContaining({ clientReportId, status: 'draft', report: text }),
  ]);

  // A new version of the app is published: its worker waits, the detector is told, the draft stays.
  appendFileSync(`${web!.dist}/sw.js`, `\n// e2e: a new version of the worker (${Date.now()})\n`);
  await expect(async () => {
    await page.reload();
    await appReady(page);
    await expect(page.getByTestId('app-update')).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId('app-update')).toContainText('Le bozze e i resoconti non inviati restano');
  await expect(box()).toHaveValue(text);
  await expectAccessibleAtBothWidths(page);

  // "Aggiorna": the new worker takes over and reloads the page; the draft is still there.
  await Promise.all([
    page.waitForEvent('load'),
    page.getByTestId('app-update').getByRole('button', { name: 'Aggiorna' }).click(),
  ]);
  await appReady(page);
  await expect(page.getByTestId('app-update')).toHaveCount(0);
  expect(
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return { waiting: !!registration?.waiting, controlled: !!navigator.serviceWorker.controller };
    }),
  ).toEqual({ waiting: false, controlled: true });
  await expect(box()).toHaveValue(text);

  // The carried draft is a report like any other: sent once.
  await page
    .locator(`[data-visit-id="${visitId}"]`)
    .getByRole('button', { name: 'Invia il resoconto' })
    .click();
  await expect
    .poll(async () => (await storedReports(page)).find((r) => r.visitId === visitId)?.status, {
      timeout: 30_000,
    })
    .toBe('sent');
  expect((await visitsOf(origin, siteId)).filter((v) => v.report === text)).toEqual([
    expect.objectContaining({ id: visitId, state: 'svolta' }),
  ]);
  await context.close();
});
