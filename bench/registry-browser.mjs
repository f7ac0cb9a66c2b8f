// The first page of /portale/istituti in a real browser (issue 7 §4: interactive ≤ 1 s after
// navigation), over the whole national registry on PostgreSQL. Debian's Chromium through Playwright;
// prints the median of several navigations inside the app (side navigation) and of full page loads.
// Run `npm run build` first. Usage: node bench/registry-browser.mjs (DATABASE_URL as bench/registry.mjs).
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { fmt, freePort, startServer } from './lib/measure.mjs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/lib/chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const benchUrl = Object.assign(new URL(adminUrl), { pathname: '/portale_bench' }).toString();
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const [apiPort, webPort] = [await freePort(), await freePort()];
const web = `http://localhost:${webPort}`;
const api = `http://localhost:${apiPort}`;
const servers = [];
let browser;
try {
  servers.push(
    await startServer(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
      env: {
        DATABASE_URL: benchUrl,
        HOST: '127.0.0.1',
        PORT: String(apiPort),
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        MFA_ROLES: '',
        SEED_REGISTRY: 'full',
        WEB_ORIGIN: web,
        RATE_LIMIT_MAX: '100000',
        RATE_LIMIT_USER_MAX: '100000',
      },
      readyUrl: `http://127.0.0.1:${apiPort}/api/health`,
    }),
  );
  servers.push(
    await startServer(process.execPath, ['apps/web/server/serve.mjs'], {
      env: { HOST: '127.0.0.1', PORT: String(webPort), API_ORIGIN: api, LOG_LEVEL: 'warn' },
      readyUrl: `http://127.0.0.1:${webPort}/build.json`,
    }),
  );
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
  });
  const page = await browser.newPage({ locale: 'it-IT', timezoneId: 'Europe/Rome' });
  await page.goto(`${web}/auth/login`);
  await page.getByLabel(/e-mail/i).fill('sylla@demo.test');
  await page.getByLabel(/^password/i).fill('Portale.Demo.2026');
  await page.getByRole('button', { name: /accedi/i }).click();
  await page.waitForURL(`${web}/portale`);

  const rows = page.locator('main table tbody tr');
  const inApp = [];
  const fullLoad = [];
  for (let i = 0; i < RUNS; i++) {
    await page.goto(`${web}/portale`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const started = Date.now();
    await page.getByRole('navigation').getByRole('link', { name: 'Istituti', exact: true }).first().click();
    await rows.first().waitFor();
    await page.getByRole('searchbox').or(page.getByLabel(/cerca/i)).first().waitFor({ state: 'visible' });
    inApp.push(Date.now() - started);

    const loadStart = Date.now();
    await page.goto(`${web}/portale/istituti?sort=-municipalityName&page=3`);
    await rows.first().waitFor();
    fullLoad.push(Date.now() - loadStart);
  }
  // A picture of what staff see, to look at (git-ignored bench/results/).
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${root}bench/results/istituti.png` });
  await page.goto(`${web}/portale`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.screenshot({ path: `${root}bench/results/portale-staff.png`, fullPage: true });
  console.log(
    `Prima pagina di /portale/istituti (${RUNS} prove, anagrafe completa su PostgreSQL, Chromium headless):`,
  );
  console.log(`- navigazione dal menu: mediana ${fmt(median(inApp), 0)} ms (prove: ${inApp.join(', ')})`);
  console.log(
    `- caricamento completo con sessione da ripristinare: mediana ${fmt(median(fullLoad), 0)} ms (prove: ${fullLoad.join(', ')})`,
  );
} finally {
  await browser?.close();
  for (const server of servers.reverse()) await server.stop();
}
process.exit(0);
