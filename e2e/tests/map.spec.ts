import type { Page } from '@playwright/test';
import {
  appReady,
  DESKTOP,
  expect,
  expectAccessibleAtBothWidths,
  pathOf,
  rememberConsentChoice,
  signIn,
  test,
} from '../fixtures.ts';

// The e2e API seeds the sample registry (provinces RM and PV): Lazio and Lombardia have plessi.
const STAFF = 'sylla@demo.test';

interface Hook {
  drawnTotal(): number;
  focusSite(id: number): Promise<{ x: number; y: number } | null>;
  siteIds(): number[];
  firstClustersAt: number | null;
  map: {
    getSource(id: string): { getData(): Promise<{ features: { id: number }[] }> } | undefined;
    loaded(): boolean;
    areTilesLoaded(): boolean;
    getZoom(): number;
    getCanvas(): HTMLCanvasElement;
    project(lngLat: [number, number]): { x: number; y: number };
    queryRenderedFeatures(options: {
      layers: string[];
    }): { properties: Record<string, unknown>; geometry: { coordinates: [number, number] } }[];
  };
}
type WithHook = Window & { __portaleMap?: Hook };

/** The number at the start of the status line ("4.262 plessi …"). */
async function totalOf(page: Page): Promise<number> {
  const text = (await page.getByTestId('map-total').textContent()) ?? '';
  const match = /^([\d.]+)/.exec(text.trim());
  if (!match) throw new Error(`No total in "${text}"`);
  return Number(match[1]!.replaceAll('.', ''));
}

/** The plessi the map draws now (clusters' counts plus single points), once it has settled. */
async function drawnTotal(page: Page): Promise<number> {
  return page.evaluate(() => (window as WithHook).__portaleMap?.drawnTotal() ?? -1);
}

async function mapDrawn(page: Page) {
  await expect(page.getByTestId('school-map').locator('canvas.maplibregl-canvas')).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => (window as WithHook).__portaleMap?.firstClustersAt ?? null), {
      timeout: 20_000,
    })
    .not.toBeNull();
}

test.beforeEach(async ({ context, baseURL }) => rememberConsentChoice(context, baseURL!));

test.describe('mappa dei plessi', () => {
  test.describe.configure({ timeout: 180_000 });

  test('la mappa disegna i plessi, la tabella gemella conta gli stessi, un filtro cambia entrambe, un plesso si apre', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, STAFF, { path: '/portale/mappa' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mappa');
    await mapDrawn(page);
    const everything = await totalOf(page);
    expect(everything).toBeGreaterThan(1000);
    const table = page.getByTestId('map-counts');
    await expect(table.locator('tr[data-region="Lazio"]')).toBeVisible();
    const lazio = Number(await table.locator('tr[data-region="Lazio"]').getAttribute('data-count'));
    const lombardia = Number(await table.locator('tr[data-region="Lombardia"]').getAttribute('data-count'));
    expect(lazio + lombardia).toBe(everything);
    // Every plesso is on the map, in clusters (the numbers) or alone.
    await expect.poll(() => drawnTotal(page)).toBe(everything);
    await expect(page.locator('.map-cluster-label').first()).toBeAttached();
    await expect(page.getByTestId('map-legend')).toContainText('Adesione firmata');
    await expectAccessibleAtBothWidths(page);

    await test.step('selezionare un gruppo avvicina la mappa finché si divide', async () => {
      await page.getByTestId('school-map').scrollIntoViewIfNeeded();
      const cluster = await page.evaluate(() => {
        const { map } = (window as WithHook).__portaleMap!;
        const feature = map.queryRenderedFeatures({ layers: ['clusters'] }).find((f) => f.properties.cluster);
        if (!feature) return null;
        const point = map.project(feature.geometry.coordinates);
        const rect = map.getCanvas().getBoundingClientRect();
        return { x: rect.left + point.x, y: rect.top + point.y, zoom: map.getZoom() };
      });
      expect(cluster).not.toBeNull();
      await page.mouse.click(cluster!.x, cluster!.y);
      await expect
        .poll(() => page.evaluate(() => (window as WithHook).__portaleMap!.map.getZoom()))
        .toBeGreaterThan(cluster!.zoom + 0.5);
    });

    await test.step('il filtro per regione cambia la mappa e la tabella', async () => {
      const filters = page.getByRole('search', { name: 'Filtra i plessi della mappa' });
      await filters.getByLabel('Regione').selectOption('Lombardia');
      await filters.getByRole('button', { name: 'Applica i filtri' }).click();
      await expect(page).toHaveURL(/\/portale\/mappa\?region=Lombardia$/);
      await expect.poll(() => totalOf(page)).toBe(lombardia);
      await expect(table.locator('tr[data-region]')).toHaveCount(1);
      await expect(table.locator('tr[data-province="PV"]')).toHaveAttribute('data-count', String(lombardia));
      // The cluster counts of the region's map add up to the table's count.
      await expect.poll(() => drawnTotal(page)).toBe(lombardia);
      const labels = await page
        .locator('.map-cluster-label')
        .evaluateAll((els) => els.map((el) => Number((el as HTMLElement).dataset.count)));
      expect(labels.length).toBeGreaterThan(0);
      expect(labels.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(lombardia);
    });

    await test.step('un filtro sul grado restringe ancora, e il link della tabella porta alla provincia', async () => {
      await page.goto('/portale/mappa?region=Lazio&level=primaria');
      await mapDrawn(page);
      const primarie = await totalOf(page);
      expect(primarie).toBeLessThan(lazio);
      await expect.poll(() => drawnTotal(page)).toBe(primarie);
      await table.getByRole('link', { name: 'Provincia RM (Lazio)' }).click();
      await expect(page).toHaveURL(/region=Lazio/);
      await expect(page).toHaveURL(/province=RM/);
      await expect(page).toHaveURL(/level=primaria/);
    });

    await test.step('selezionare un plesso apre i suoi dati e il link alla scheda', async () => {
      await page.goto('/portale/mappa?province=PV');
      await mapDrawn(page);
      const id = await page.evaluate(() => (window as WithHook).__portaleMap!.siteIds()[0]!);
      // The point's position is in the viewport's pixels: the map must be on screen.
      await page.getByTestId('school-map').scrollIntoViewIfNeeded();
      const point = await page.evaluate((siteId) => (window as WithHook).__portaleMap!.focusSite(siteId), id);
      expect(point).not.toBeNull();
      await page.mouse.click(point!.x, point!.y);
      const popup = page.getByTestId('map-popup');
      await expect(popup).toBeVisible();
      await expect(popup).toContainText('Istituto:');
      await expect(popup).toContainText('(PV)');
      const name = (await popup.locator('p').first().textContent())!.trim();
      await popup.getByRole('link', { name: 'Apri la scheda del plesso' }).click();
      await expect.poll(() => pathOf(page)).toBe(`/portale/istituti/plessi/${id}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
    });
  });

  test('nessun plesso: uno stato vuoto chiaro; un filtro sconosciuto: un errore in italiano', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, STAFF, { path: '/portale/mappa?region=Sicilia' });
    await expect(page.getByTestId('map-empty')).toContainText('Nessun plesso corrisponde ai filtri');
    await expect(page.getByTestId('map-total')).toHaveText('0 plessi corrispondono ai filtri.');
    await expect(page.getByTestId('school-map')).toHaveCount(0);
    await expectAccessibleAtBothWidths(page);

    await page.goto('/portale/mappa?region=Atlantide');
    await appReady(page);
    await expect(page.getByTestId('map-problem')).toBeVisible();
    await expect(page.getByText('Valore non valido per «Regione».')).toBeVisible();
    await expectAccessibleAtBothWidths(page);
  });
});
