// The map of every plesso (issue 11 §3) over the whole national registry on PostgreSQL, in Debian's
// Chromium (headless, --disable-gpu: WebGL through SwiftShader, on the CPU) through Playwright. Prints:
// - the time from navigation to the first clustered view drawn (the map's first `idle` with the
//   plessi loaded: a full page load, and a navigation inside the app from the side menu);
// - frames per second while panning and zooming (requestAnimationFrame callbacks and frames MapLibre
//   drew, during scripted pans and zooms over the clusters of the whole country);
// - GET /api/map/school-sites for the whole country (gzip): time and size, the 304 of a revalidation,
//   the first call after a write (decision 020: after a write of the programme, one narrow query and
//   the plessi kept in memory; after a plesso moves, the whole query), beside the raw SQL of both
//   queries, timed in the same run on the same database.
// Run `npm run build` first (not needed with BENCH_ONLY=api: the API figures alone).
// Usage: node bench/map-browser.mjs (DATABASE_URL as bench/registry.mjs: the database
// `portale_bench`, created and seeded with the whole registry when missing).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import pg from 'pg';
import { fmt, freePort, startServer } from './lib/measure.mjs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/lib/chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const benchUrl = Object.assign(new URL(adminUrl), { pathname: '/portale_bench' }).toString();
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const API_RUNS = Number(process.env.BENCH_API_RUNS ?? 15);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];

// The repository's own query for the whole country (bench/lib/map-sql.ts prints it).
const RAW = JSON.parse(
  execFileSync('npx', ['tsx', 'bench/lib/map-sql.ts'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
  }),
);

async function ensureDatabase() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rowCount } = await admin.query("select 1 from pg_database where datname = 'portale_bench'");
  if (!rowCount) await admin.query('create database portale_bench');
  await admin.end();
}

async function apiToken(api, origin) {
  const csrf = await fetch(`${api}/sanctum/csrf-cookie`, { method: 'HEAD' });
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(';')[0]);
  const xsrf = decodeURIComponent(cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.split('=')[1] ?? '');
  const res = await fetch(`${api}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-xsrf-token': xsrf, cookie: cookies.join('; '), origin },
    body: JSON.stringify({ email: 'sylla@demo.test', password: 'Portale.Demo.2026' }),
  });
  const body = await res.json();
  if (!body.token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.token;
}

async function measureApi(api, token, origin) {
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip', origin };
  const times = [];
  let bytes = 0;
  let raw = 0;
  let etag = '';
  for (let i = 0; i < API_RUNS + 2; i++) {
    const started = performance.now();
    const res = await fetch(`${api}/api/map/school-sites`, { headers });
    // fetch decompresses: the body read is the whole answer, as a browser would receive it.
    const body = await res.arrayBuffer();
    const elapsed = performance.now() - started;
    if (res.status !== 200) throw new Error(`map API answered ${res.status}`);
    if (i >= 2) times.push(elapsed); // two warm-up calls
    raw = body.byteLength;
    etag = res.headers.get('etag');
  }
  // The compressed size as sent on the wire.
  const { request } = await import('node:http');
  bytes = await new Promise((resolve, reject) => {
    const req = request(`${api}/api/map/school-sites`, { headers }, (res) => {
      let n = 0;
      res.on('data', (chunk) => (n += chunk.length));
      res.on('end', () => resolve(n));
    });
    req.on('error', reject);
    req.end();
  });
  const revalidations = [];
  for (let i = 0; i < API_RUNS; i++) {
    const started = performance.now();
    const res = await fetch(`${api}/api/map/school-sites`, {
      headers: { ...headers, 'if-none-match': etag },
    });
    await res.arrayBuffer();
    if (res.status !== 304) throw new Error(`revalidation answered ${res.status}`);
    revalidations.push(performance.now() - started);
  }
  const client = new pg.Client({ connectionString: benchUrl });
  await client.connect();
  // The first call after a write builds the answer again (decision 020). A plesso's participation is
  // flipped before each call (a write of the programme: the kept plessi serve, with one narrow query),
  // or its longitude moved (a write that moves a plesso: the whole query runs), then put back.
  const {
    rows: [site],
  } = await client.query(
    'select id, participating, longitude from school_sites where longitude is not null order by id limit 1',
  );
  const afterWrite = async (statement) => {
    const times = [];
    for (let i = 0; i < 7; i++) {
      await client.query(statement, [site.id]);
      const started = performance.now();
      const res = await fetch(`${api}/api/map/school-sites`, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`map API answered ${res.status}`);
      times.push(performance.now() - started);
    }
    return times;
  };
  const afterProgrammeWrite = await afterWrite(
    'update school_sites set participating = not participating where id = $1',
  );
  const afterMove = await afterWrite(
    'update school_sites set longitude = longitude + (case when longitude > 12 then -0.001 else 0.001 end) where id = $1',
  );
  await client.query('update school_sites set participating = $2, longitude = $3 where id = $1', [
    site.id,
    site.participating,
    site.longitude,
  ]);
  const timeSql = async ({ sql, params }) => {
    const times = [];
    for (let i = 0; i < API_RUNS + 2; i++) {
      const started = performance.now();
      await client.query(sql, params);
      if (i >= 2) times.push(performance.now() - started);
    }
    return times;
  };
  const sqlTimes = await timeSql(RAW.whole);
  const programmeSqlTimes = await timeSql(RAW.programme);
  const { rows } = await client.query('select count(*)::int as n from school_sites');
  await client.end();
  return {
    times,
    revalidations,
    afterProgrammeWrite,
    afterMove,
    sqlTimes,
    programmeSqlTimes,
    bytes,
    raw,
    count: rows[0].n,
  };
}

/** BENCH_ONLY=api: the API figures alone, without the browser. */
const ONLY_API = process.env.BENCH_ONLY === 'api';
class ApiOnly extends Error {}

function printApi(apiFigures) {
  console.log(
    `\nGET /api/map/school-sites, tutta Italia (${API_RUNS} chiamate dopo 2 di riscaldamento, gzip):`,
  );
  console.log(
    `- risposta 200: mediana ${fmt(median(apiFigures.times))} ms, p90 ${fmt(p90(apiFigures.times))} ms; ${fmt(apiFigures.bytes / 1024)} KiB gzip (${fmt(apiFigures.raw / 1024)} KiB JSON)`,
  );
  console.log(`- rivalidazione con If-None-Match (304): mediana ${fmt(median(apiFigures.revalidations))} ms`);
  console.log(
    `- prima chiamata dopo una scrittura del programma (partecipazione; i plessi tenuti in memoria servono): mediana ${fmt(median(apiFigures.afterProgrammeWrite))} ms, p90 ${fmt(p90(apiFigures.afterProgrammeWrite))} ms`,
  );
  console.log(
    `- prima chiamata dopo lo spostamento di un plesso (la risposta si ricostruisce da capo): mediana ${fmt(median(apiFigures.afterMove))} ms, p90 ${fmt(p90(apiFigures.afterMove))} ms`,
  );
  console.log(
    `- riferimento: le sole query SQL del repository con pg: intera mediana ${fmt(median(apiFigures.sqlTimes))} ms (p90 ${fmt(p90(apiFigures.sqlTimes))}), ristretta mediana ${fmt(median(apiFigures.programmeSqlTimes))} ms (p90 ${fmt(p90(apiFigures.programmeSqlTimes))})`,
  );
}

const [apiPort, webPort] = [await freePort(), await freePort()];
const web = `http://localhost:${webPort}`;
const api = `http://localhost:${apiPort}`;
const servers = [];
let browser;
try {
  await ensureDatabase();
  console.log('Avvio dell’API su PostgreSQL (al primo avvio carica l’intera anagrafe)…');
  servers.push(
    await startServer(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
      env: {
        DATABASE_URL: benchUrl,
        HOST: '127.0.0.1',
        PORT: String(apiPort),
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        MFA_ROLES: '',
        SEED_REGISTRY: 'full',
        WEB_ORIGIN: web,
        RATE_LIMIT_MAX: '100000',
        RATE_LIMIT_USER_MAX: '100000',
      },
      readyUrl: `http://127.0.0.1:${apiPort}/api/health`,
    }),
  );
  if (!ONLY_API)
    servers.push(
      await startServer(process.execPath, ['apps/web/server/serve.mjs'], {
        env: { HOST: '127.0.0.1', PORT: String(webPort), API_ORIGIN: api, LOG_LEVEL: 'warn' },
        readyUrl: `http://127.0.0.1:${webPort}/build.json`,
      }),
    );

  const token = await apiToken(api, web);
  const apiFigures = await measureApi(api, token, web);
  if (ONLY_API) {
    printApi(apiFigures);
    throw new ApiOnly();
  }

  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
  });
  const context = await browser.newContext({
    locale: 'it-IT',
    timezoneId: 'Europe/Rome',
    viewport: { width: 1280, height: 900 },
  });
  // A visitor who already chose about cookies (the banner would cover the map).
  await context.addCookies(
    [
      ['ncc_c', 'necessarianalitici'],
      ['ncc_e', 'necessari'],
      ['ncc_v', '2026-01'],
      ['ncc_r', String(Date.now())],
    ].map(([name, value]) => ({ name, value, url: web })),
  );
  const page = await context.newPage();
  await page.goto(`${web}/auth/login`);
  await page.getByLabel(/e-mail/i).fill('sylla@demo.test');
  await page.getByLabel(/^password/i).fill('Portale.Demo.2026');
  await page.getByRole('button', { name: /accedi/i }).click();
  await page.waitForURL(`${web}/portale`);

  const firstClusters = () =>
    page.waitForFunction(() => window.__portaleMap?.firstClustersAt ?? null, null, { timeout: 60_000 });
  const fullLoad = [];
  const inApp = [];
  for (let i = 0; i < RUNS; i++) {
    // A full page load: navigation start (performance.timeOrigin) to the first clustered view.
    await page.goto(`${web}/portale/mappa`);
    await firstClusters();
    fullLoad.push(
      await page.evaluate(() => performance.getEntriesByName('portale-map-first-clusters')[0].startTime),
    );

    // Inside the app: the click on the side menu's link to the first clustered view.
    await page.goto(`${web}/portale`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const started = await page.evaluate(() => performance.now());
    await page.getByRole('navigation').getByRole('link', { name: 'Mappa', exact: true }).first().click();
    const at = await (await firstClusters()).jsonValue();
    inApp.push(at - started);
  }
  const total = await page.evaluate(() => window.__portaleMap.drawnTotal());

  // Pan and zoom over the whole country's clusters: frames per second.
  await page.goto(`${web}/portale/mappa`);
  await firstClusters();
  await page.getByTestId('school-map').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${root}bench/results/mappa.png` });
  const motion = await page.evaluate(async () => {
    const { map } = window.__portaleMap;
    const run = async (label, move) => {
      let frames = 0;
      let drawn = 0;
      let longest = 0;
      let last = performance.now();
      let going = true;
      const tick = (now) => {
        frames++;
        longest = Math.max(longest, now - last);
        last = now;
        if (going) requestAnimationFrame(tick);
      };
      const onRender = () => drawn++;
      map.on('render', onRender);
      const started = performance.now();
      requestAnimationFrame(tick);
      await move();
      going = false;
      const seconds = (performance.now() - started) / 1000;
      map.off('render', onRender);
      return { label, fps: frames / seconds, drawnFps: drawn / seconds, longest, seconds };
    };
    const ease = (options) =>
      new Promise((resolve) => {
        map.once('moveend', resolve);
        map.easeTo({ ...options, duration: 1500, essential: true });
      });
    const results = [];
    map.jumpTo({ center: [12.5, 42.0], zoom: 5.2 });
    await new Promise((resolve) => map.once('idle', resolve));
    results.push(
      await run('spostamenti sull’Italia (zoom 5,2)', async () => {
        await ease({ center: [9.2, 45.5] });
        await ease({ center: [14.3, 40.9] });
        await ease({ center: [12.5, 42.0] });
      }),
    );
    results.push(
      await run('zoom da 5 a 11 e ritorno (Roma)', async () => {
        await ease({ center: [12.5, 41.9], zoom: 11 });
        await ease({ center: [12.5, 42.0], zoom: 5.2 });
      }),
    );
    results.push(
      await run('spostamenti a zoom 9 (Milano → Torino)', async () => {
        map.jumpTo({ center: [9.19, 45.46], zoom: 9 });
        await ease({ center: [7.68, 45.07] });
        await ease({ center: [9.19, 45.46] });
      }),
    );
    return results;
  });

  // Pictures to look at (git-ignored bench/results/): the progress page and the staff home.
  await page.goto(`${web}/portale/avanzamento`);
  await page.getByTestId('progress-chart').locator('svg').first().waitFor();
  await page.screenshot({ path: `${root}bench/results/avanzamento.png`, fullPage: true });
  await page.goto(`${web}/portale`);
  await page.getByTestId('programme-trends').locator('li[data-metric]').first().waitFor();
  await page.screenshot({ path: `${root}bench/results/portale-andamento.png`, fullPage: true });

  console.log(
    `\nMappa dei plessi (/portale/mappa), anagrafe completa su PostgreSQL (${apiFigures.count} plessi), Chromium headless senza GPU (WebGL su SwiftShader):`,
  );
  console.log(`- plessi disegnati nella prima vista (gruppi + singoli): ${total}`);
  console.log(
    `- dalla navigazione alla prima vista a gruppi, caricamento completo della pagina: mediana ${fmt(median(fullLoad), 0)} ms (prove: ${fullLoad.map((x) => x.toFixed(0)).join(', ')})`,
  );
  console.log(
    `- dal clic sul menu alla prima vista a gruppi (navigazione nell'app): mediana ${fmt(median(inApp), 0)} ms (prove: ${inApp.map((x) => x.toFixed(0)).join(', ')})`,
  );
  for (const m of motion)
    console.log(
      `- ${m.label}: ${fmt(m.fps, 0)} fotogrammi/s (requestAnimationFrame), ${fmt(m.drawnFps, 0)} disegnati da MapLibre/s, fotogramma più lungo ${fmt(m.longest, 0)} ms, in ${fmt(m.seconds, 1)} s`,
    );
  printApi(apiFigures);
} catch (error) {
  if (!(error instanceof ApiOnly)) throw error;
} finally {
  await browser?.close();
  for (const server of servers.reverse()) await server.stop();
}
process.exit(0);
