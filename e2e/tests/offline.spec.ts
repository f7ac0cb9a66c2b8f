import {
  appReady,
  DESKTOP,
  expect,
  expectAccessibleAtBothWidths,
  rememberConsentChoice,
  signIn,
  test,
} from '../fixtures.ts';
import {
  controlledBySw,
  DETECTOR,
  detectorApi,
  openOffline,
  planReportableVisit,
  storedReports,
} from '../offline-support.ts';

test('offline: il rilevatore apre il plesso senza rete, scrive il resoconto, chiude e riapre la scheda, lo invia in coda e arriva una volta sola', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const { siteId, visitId } = await planReportableVisit(baseURL!);

  const context = await browser.newContext({ baseURL: baseURL! });
  await rememberConsentChoice(context, baseURL!);
  const page = await context.newPage();
  await page.setViewportSize(DESKTOP);
  await signIn(page, DETECTOR);
  // The detector's session registers the service worker; it takes this page at once (first install).
  await controlledBySw(page);

  // Online: the pages the detector will need, opened once.
  const sitePath = `/portale/istituti/rilevatori/plessi/${siteId}`;
  const visitsPath = `/portale/istituti/plessi/${siteId}/visite`;
  for (const path of [
    '/portale/istituti/rilevatori/plessi',
    sitePath,
    `/portale/istituti/plessi/${siteId}/insegnanti`,
    visitsPath,
  ]) {
    await page.goto(path);
    await appReady(page);
  }
  const siteName = (await page.getByRole('heading', { level: 1 }).innerText())
    .replace(/^Visite a /, '')
    .trim();

  // No network: the plesso and its visits open from the device.
  await context.setOffline(true);
  await page.goto(sitePath);
  await appReady(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(siteName);
  // The app says it is offline and what is not available; the device's reports and storage are shown.
  await expect(page.getByTestId('offline-notice')).toContainText('Sei offline:');
  await expect(page.getByTestId('offline-notice')).toContainText('Non sono disponibili');
  await expect(page.getByTestId('storage-persistence')).toContainText('Archiviazione');
  await expect(page.getByTestId('sync-status')).toContainText("Come installare l'app su iPhone e iPad");
  await expectAccessibleAtBothWidths(page);
  await page.goto(visitsPath);
  await appReady(page);
  const visit = page.locator(`[data-visit-id="${visitId}"]`);
  const text = `Resoconto scritto senza rete nel plesso ${siteName}: incontrato il referente.`;
  await visit.getByRole('textbox', { name: 'Resoconto della visita' }).fill(text);
  // The draft is on the device (saved as the detector types).
  await expect
    .poll(async () => (await storedReports(page)).find((r) => r.visitId === visitId)?.report)
    .toBe(text);
  await page.close();

  // The tab reopened, still offline: the draft is back in the form, in two tabs at once.
  const tabA = await openOffline(context, visitsPath);
  const tabB = await openOffline(context, visitsPath);
  for (const tab of [tabA, tabB])
    await expect(
      tab.locator(`[data-visit-id="${visitId}"]`).getByRole('textbox', { name: 'Resoconto della visita' }),
    ).toHaveValue(text);
  const [draft] = (await storedReports(tabA)).filter((r) => r.visitId === visitId);
  expect(draft).toMatchObject({ status: 'draft' });

  // Both tabs press "Invia": the same draft (one client id) is queued, nothing is sent yet.
  for (const tab of [tabA, tabB]) {
    await tab
      .locator(`[data-visit-id="${visitId}"]`)
      .getByRole('button', { name: 'Invia il resoconto' })
      .click();
    await expect(tab.getByText('Sei senza rete: il resoconto è salvato sul dispositivo')).toBeVisible();
  }
  // The detector sees it waiting on the device, and can export, retry or discard it on its own.
  await expect(tabA.getByTestId('sync-status')).toContainText('1 resoconto non inviato');
  await expect(tabA.getByTestId('sync-status')).toContainText("il più vecchio da meno di un'ora");
  await expect(tabA.getByTestId('offline-reports')).toContainText('In attesa di invio');
  await expectAccessibleAtBothWidths(tabA);
  expect((await storedReports(tabA)).filter((r) => r.visitId === visitId)).toEqual([
    expect.objectContaining({ clientReportId: draft!.clientReportId, status: 'queued' }),
  ]);

  // The network returns: both tabs flush (on `online`); the server makes one report.
  await context.setOffline(false);
  const ours = async () => (await storedReports(tabA)).find((r) => r.visitId === visitId);
  try {
    await expect.poll(async () => (await ours())?.status, { timeout: 30_000 }).toBe('sent');
  } catch (error) {
    // Known, not yet understood (closing note of 2026-11-29): on a loaded machine both tabs' first
    // refresh after the offline spell can be refused (401) and the session ends. The app then keeps
    // the report queued and asks to sign in again; once signed in, the report still arrives once.
    if (!(await ours())?.lastError?.includes('devi accedere al portale')) throw error;
    await signIn(tabA, DETECTOR, { path: visitsPath });
    await expect.poll(async () => (await ours())?.status, { timeout: 30_000 }).toBe('sent');
  }

  const check = await detectorApi(baseURL!);
  try {
    const visits = async () =>
      (await (await check.api.get(`/api/school-sites/${siteId}/visits`, { headers: check.headers })).json())
        .items as Array<{ id: number; state: string; report: string | null }>;
    const ours = (await visits()).filter((v) => v.report === text);
    expect(ours).toEqual([expect.objectContaining({ id: visitId, state: 'svolta' })]);
    // A replayed send (the answer lost on the way back): the stored answer, no second report.
    const replay = await check.api.post(`/api/visits/${visitId}/report`, {
      headers: check.headers,
      data: { report: text, teachersMet: [], clientReportId: draft!.clientReportId },
    });
    expect(replay.status(), await replay.text()).toBe(200);
    expect((await visits()).filter((v) => v.report === text)).toHaveLength(1);
    // The device told the server its queue (now empty): staff read it on the detectors list.
    await expect(tabA.getByTestId('sync-status')).toContainText('Nessun resoconto da inviare');
  } finally {
    await check.api.dispose();
  }
  const staff = await detectorApi(baseURL!, 'sylla@demo.test');
  try {
    await expect
      .poll(async () => {
        const list = await (
          await staff.api.get(`/api/detectors?q=${encodeURIComponent(DETECTOR)}`, { headers: staff.headers })
        ).json();
        return list.items.find((d: { email: string }) => d.email === DETECTOR)?.queueReportedAt ?? null;
      })
      .not.toBeNull();
  } finally {
    await staff.api.dispose();
  }
  await context.close();
});
