import { apiAs } from '../api-session.ts';
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
  planReportableVisit,
  storedReports,
} from '../offline-support.ts';

// Issue 39, the photos (decision 055): a photo added offline is compressed and kept with the draft,
// then sent with tus after the report when the network returns; the server has one report and one photo.
// The upload is cut after its first part (a 4G drop): it resumes from the server's offset, it does not
// start again. With the photo on the server, the detector's visits page and the staff review of the
// visit pass axe at both widths, and the detector deletes the photo from its thumbnail (asked first).

test('offline: il rilevatore aggiunge una foto alla bozza senza rete; tornata la rete, resoconto e foto arrivano una volta sola', async ({
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
  await controlledBySw(page);
  const visitsPath = `/portale/istituti/plessi/${siteId}/visite`;
  await page.goto(visitsPath);
  await appReady(page);

  // A 3200 × 3200 picture (a square photo of a phone camera) (PNG, drawn by the browser), with the grain of a
  // real photo in 2 × 2 blocks (scaling down to 1600 px keeps it): compressed, it still takes more
  // than one 1 MB part of the upload.
  const picture = Buffer.from(
    await page.evaluate(() => {
      const [w, h] = [3200, 3200];
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const ctx = canvas.getContext('2d')!;
      const image = ctx.createImageData(w, h);
      let seed = 42;
      for (let y = 0; y < h; y += 2)
        for (let x = 0; x < w; x += 2)
          for (let c = 0; c < 3; c += 1) {
            seed = (seed * 1103515245 + 12345) % 2147483648;
            const v = seed % 256;
            for (const [dx, dy] of [
              [0, 0],
              [1, 0],
              [0, 1],
              [1, 1],
            ] as const)
              image.data[((y + dy) * w + x + dx) * 4 + c] = v;
          }
      for (let i = 3; i < image.data.length; i += 4) image.data[i] = 255;
      ctx.putImageData(image, 0, 0);
      return canvas.toDataURL('image/png').split(',')[1]!;
    }),
    'base64',
  );

  await context.setOffline(true);
  await page.goto(visitsPath);
  await appReady(page);
  const visit = page.locator(`[data-visit-id="${visitId}"]`);
  const text = 'Resoconto con una foto scattata senza rete: cortile e ingresso.';
  await visit.getByRole('textbox', { name: 'Resoconto della visita' }).fill(text);
  await visit.getByLabel('Scatta o scegli una foto').setInputFiles({
    name: 'cortile.png',
    mimeType: 'image/png',
    buffer: picture,
  });
  await expect(visit.getByText('Foto aggiunta: 1 di 5.')).toBeVisible();
  await expect(visit.getByRole('img', { name: 'Foto 1 di 1' })).toBeVisible();
  await expect(visit.getByRole('button', { name: 'Rimuovi la foto 1' })).toBeVisible();
  // Compressed on the device: JPEG, 1600 px on the longest side, kept with the draft.
  const stored = await page.evaluate(
    () =>
      new Promise<Array<{ type: string; width: number; height: number; size: number }>>((resolve) => {
        const open = indexedDB.open('portale-visit-reports');
        open.onsuccess = () => {
          const all = open.result.transaction('photos').objectStore('photos').getAll();
          all.onsuccess = () => {
            open.result.close();
            resolve(all.result);
          };
        };
      }),
  );
  expect(stored).toEqual([expect.objectContaining({ type: 'image/jpeg', width: 1600, height: 1600 })]);
  expect(stored[0]!.size).toBeLessThan(picture.length);
  expect(stored[0]!.size).toBeGreaterThan(1024 * 1024);
  // One draft of the visit, though the text and the photo were saved at once.
  expect((await storedReports(page)).filter((r) => r.visitId === visitId)).toHaveLength(1);
  await expectAccessibleAtBothWidths(page);

  await visit.getByRole('button', { name: 'Invia il resoconto' }).click();
  await expect(page.getByText('Sei senza rete: il resoconto è salvato sul dispositivo')).toBeVisible();

  // The network returns: the report, then its photo (tus), once. The connection drops during the
  // photo's second part: the upload asks the server where it stopped and goes on from there.
  const patches: Array<{ offset: number; cut: boolean }> = [];
  await page.route('**/api/report-photo-uploads/**', async (route) => {
    const request = route.request();
    if (request.method() !== 'PATCH') return route.continue();
    const offset = Number(await request.headerValue('upload-offset'));
    const cut = offset > 0 && !patches.some((p) => p.cut);
    patches.push({ offset, cut });
    return cut ? route.abort('internetdisconnected') : route.continue();
  });
  await context.setOffline(false);
  await expect
    .poll(async () => (await storedReports(page)).find((r) => r.visitId === visitId)?.status, {
      timeout: 60_000,
    })
    .toBe('sent');
  // First part from 0; the second cut; then the same offset again, never 0.
  expect(patches[0]).toEqual({ offset: 0, cut: false });
  expect(patches[1]).toEqual({ offset: 1024 * 1024, cut: true });
  expect(patches.slice(2)[0]).toEqual({ offset: 1024 * 1024, cut: false });
  expect(patches.slice(1).every((p) => p.offset > 0)).toBe(true);
  const check = await detectorApi(baseURL!);
  try {
    const photos = await check.api.get(`/api/visits/${visitId}/photos`, { headers: check.headers });
    expect(photos.status(), await photos.text()).toBe(200);
    expect((await photos.json()).items).toEqual([
      expect.objectContaining({ index: 0, mediaType: 'image/jpeg', sizeBytes: stored[0]!.size }),
    ]);
  } finally {
    await check.api.dispose();
  }
  // The sent report shows its photo; the detector's visits page with a photo, at both widths.
  await page.goto(visitsPath);
  await appReady(page);
  await expect(visit.getByRole('img', { name: 'Foto 1 del resoconto' })).toBeVisible();
  await expectAccessibleAtBothWidths(page);

  // Staff review the visit: its photo on the review page, at both widths (decision 055, amendment).
  const staff = await apiAs(baseURL!, 'sylla@demo.test');
  let reviewItem: number;
  try {
    const queue = await staff.api.get('/api/reviews/visite?state=in_attesa&sort=-submittedAt', {
      headers: staff.headers,
    });
    expect(queue.status(), await queue.text()).toBe(200);
    const items = (await queue.json()).items as Array<{ id: number; subjectId: number }>;
    reviewItem = items.find((i) => i.subjectId === visitId)!.id;
  } finally {
    await staff.api.dispose();
  }
  const staffContext = await browser.newContext({ baseURL: baseURL! });
  await rememberConsentChoice(staffContext, baseURL!);
  const staffPage = await staffContext.newPage();
  await staffPage.setViewportSize(DESKTOP);
  await signIn(staffPage, 'sylla@demo.test', {
    path: `/portale/revisioni/visite/revisione?item=${reviewItem}`,
  });
  const reviewed = staffPage.getByTestId('review-item');
  await expect(reviewed.getByRole('img', { name: 'Foto 1 del resoconto' })).toBeVisible();
  await expect(reviewed.getByRole('button', { name: 'Elimina la foto 1' })).toBeVisible();
  await expectAccessibleAtBothWidths(staffPage);
  await staffContext.close();

  // The report is not reviewed yet: its detector deletes the photo, asked first.
  await visit.getByRole('button', { name: 'Elimina la foto 1' }).click();
  await expect(
    visit.getByRole('group', { name: 'Eliminare la foto 1 del resoconto? Non si potrà recuperare.' }),
  ).toBeFocused();
  await expectAccessibleAtBothWidths(page);
  await visit.getByRole('button', { name: 'Conferma: elimina la foto 1' }).click();
  await expect(visit.getByRole('status')).toHaveText('Foto 1 eliminata.');
  await expect(visit.getByRole('img', { name: 'Foto 1 del resoconto' })).toHaveCount(0);
  const after = await detectorApi(baseURL!);
  try {
    const photos = await after.api.get(`/api/visits/${visitId}/photos`, { headers: after.headers });
    expect((await photos.json()).items).toEqual([]);
  } finally {
    await after.api.dispose();
  }
  await context.close();
});
