// Registry lists at national scale, on PostgreSQL (issue 7 §4, issue 8 §2): each API figure is printed
// beside its reference measured in the same run — the same SQL through a raw pg pool, and a bare
// Fastify route answering the same JSON. Then a full CSV export of every plesso: time and API memory.
// Usage: node bench/registry.mjs  (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/postgres;
// the script creates and keeps the database `portale_bench`, seeded once with the whole registry).
import { execFileSync } from 'node:child_process';
import { openSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { closedLoop, fmt, freePort, load, startServer } from './lib/measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const benchUrl = Object.assign(new URL(adminUrl), { pathname: '/portale_bench' }).toString();
const CONNECTIONS = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const SCENARIOS = [
  { label: 'plessi, prima pagina (per nome)', path: '/api/school-sites', query: '' },
  { label: 'plessi, pagina 500', path: '/api/school-sites', query: 'page=500' },
  { label: 'plessi, ricerca «liceo scientifico»', path: '/api/school-sites', query: 'q=liceo scientifico' },
  { label: 'plessi, ricerca «citta» (accenti)', path: '/api/school-sites', query: 'q=citta' },
  {
    label: 'plessi, Lombardia primaria per comune ↓',
    path: '/api/school-sites',
    query: 'region=Lombardia&level=primaria&sort=-municipalityName',
  },
  { label: 'istituti, ricerca «roma»', path: '/api/institutes', query: 'q=roma' },
  {
    label: 'istituti, stato adesione e paritarie',
    path: '/api/institutes',
    query: 'adhesionState=nessuna&stateSchool=false&sort=-schoolSiteCount',
  },
];

async function ensureDatabase() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rowCount } = await admin.query("select 1 from pg_database where datname = 'portale_bench'");
  if (!rowCount) await admin.query('create database portale_bench');
  await admin.end();
}

async function login(api) {
  const csrf = await fetch(`${api}/sanctum/csrf-cookie`, { method: 'HEAD' });
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(';')[0]);
  const xsrf = decodeURIComponent(cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.split('=')[1] ?? '');
  const res = await fetch(`${api}/api/auth/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-xsrf-token': xsrf,
      cookie: cookies.join('; '),
      origin: 'http://127.0.0.1:3000',
    },
    body: JSON.stringify({ email: 'sylla@demo.test', password: 'Portale.Demo.2026' }),
  });
  const body = await res.json();
  if (!body.token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.token;
}

function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

async function main() {
  await ensureDatabase();
  mkdirSync(`${root}bench/results`, { recursive: true });
  const apiPort = await freePort();
  const api = `http://127.0.0.1:${apiPort}`;
  console.log('Avvio dell’API su PostgreSQL (al primo avvio carica l’intera anagrafe)…');
  const server = await startServer(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    env: {
      DATABASE_URL: benchUrl,
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      MFA_ROLES: '',
      SEED_REGISTRY: 'full',
      SEED_DEMO: 'true',
      RATE_LIMIT_MAX: '100000000',
      RATE_LIMIT_USER_MAX: '100000000',
      WEB_ORIGIN: 'http://127.0.0.1:3000',
    },
    readyUrl: `${api}/api/health`,
    logFile: openSync(`${root}bench/results/registry-api.log`, 'a'),
  });
  const pool = new pg.Pool({ connectionString: benchUrl, max: 10 });
  const bareFile = `${root}bench/results/bare-body.json`;
  let bare;
  try {
    const token = await login(api);
    const headers = { authorization: `Bearer ${token}` };
    const queries = JSON.parse(
      execFileSync('npx', ['tsx', 'bench/lib/registry-sql.ts', JSON.stringify(SCENARIOS)], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, NODE_NO_WARNINGS: '1' },
      })
        .split('\n')
        .find((l) => l.startsWith('[')),
    );
    const first = await fetch(`${api}${SCENARIOS[0].path}`, { headers });
    writeFileSync(bareFile, await first.text());
    const barePort = await freePort();
    bare = await startServer('node', ['bench/lib/bare-server.mjs', bareFile], {
      env: { PORT: String(barePort) },
      readyUrl: `http://127.0.0.1:${barePort}/`,
    });
    const bareFigures = await load(`http://127.0.0.1:${barePort}/`, {
      connections: CONNECTIONS,
      duration: SECONDS,
    });

    const rows = [];
    for (const [i, scenario] of SCENARIOS.entries()) {
      const url = `${api}${scenario.path}${scenario.query ? `?${encodeURI(scenario.query)}` : ''}`;
      const check = await fetch(url, { headers });
      if (!check.ok) throw new Error(`${url}: ${check.status} ${await check.text()}`);
      const total = (await check.json()).total;
      const apiFigures = await load(url, { connections: CONNECTIONS, duration: SECONDS, headers });
      const { page, count } = queries[i];
      // The API runs the page and the count side by side: so does the reference. The API names the
      // page's statement (each connection parses and plans it once, rawRows): so does the reference.
      const pageStatement = { name: `reference_${i}`, text: page.sql, values: page.params };
      const sqlFigures = await closedLoop(
        () => Promise.all([pool.query(pageStatement), pool.query(count.sql, count.params)]),
        { concurrency: CONNECTIONS, seconds: SECONDS },
      );
      rows.push({ scenario: scenario.label, total, apiFigures, sqlFigures });
    }

    // Full CSV export of every plesso: time, rows and the API's resident memory (sampled).
    let peak = rssOf(server.pid);
    const base = peak;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.pid))), 50);
    const started = performance.now();
    const res = await fetch(`${api}/api/school-sites/export?format=csv`, { headers });
    const text = await res.text();
    const exportMs = performance.now() - started;
    clearInterval(sampler);
    const exportRows = text.trim().split('\r\n').length - 1;

    console.log(
      `\nMacchina: ${(await import('node:os')).cpus().length} core, Node ${process.version}; ${CONNECTIONS} connessioni, ${SECONDS} s per misura; latenze in ms.`,
    );
    console.log(
      `Riferimento Fastify nudo (stesso JSON della prima pagina): ${fmt(bareFigures.rps, 0)} req/s, p50 ${fmt(bareFigures.p50)} p95 ${fmt(bareFigures.p95)}\n`,
    );
    console.log(
      '| Scenario | righe | API req/s | API p50 | API p95 | SQL p50 | SQL p95 | API p95 / SQL p95 | API req/s / Fastify nudo | errori |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      console.log(
        `| ${r.scenario} | ${r.total} | ${fmt(r.apiFigures.rps, 0)} | ${fmt(r.apiFigures.p50)} | ${fmt(r.apiFigures.p95)} | ${fmt(r.sqlFigures.p50)} | ${fmt(r.sqlFigures.p95)} | ${fmt(r.apiFigures.p95 / r.sqlFigures.p95, 2)}× | ${fmt((100 * r.apiFigures.rps) / bareFigures.rps, 1)} % | ${r.apiFigures.errors + r.sqlFigures.errors} |`,
      );
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(
      `\nMediana dei rapporti p95 API/SQL: ${fmt(median(rows.map((r) => r.apiFigures.p95 / r.sqlFigures.p95)), 2)}×`,
    );
    console.log(
      `Esportazione CSV di tutti i plessi: ${exportRows} righe, ${fmt(text.length / 1_048_576)} MiB in ${fmt(exportMs / 1000, 2)} s; memoria dell’API ${fmt(base, 0)} → picco ${fmt(peak, 0)} MiB (+${fmt(peak - base, 0)}).`,
    );
  } finally {
    await pool.end();
    await bare?.stop();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
