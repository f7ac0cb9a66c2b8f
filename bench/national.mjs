// Staff screens and public results at national volume, on PostgreSQL (issue 40). The script creates a
// database, migrates it and loads the whole registry with the demo accounts (the API's own start, as
// `npm start` seeds), then synthetic volume at `--scale S` with set-based SQL (bench/lib/national-data.mjs):
// S = 1 is 200k teachers with users and reviews, 100k survey responses, 60k visits, 2M audit rows.
// It then starts the API on it and, for every staff list, queue, dashboard, progress, audit and
// results endpoint, runs 10 concurrent clients (autocannon) beside the same statements on a raw pg
// pool in the same run (bench/lib/national-sql.ts records them from the repository code), and prints a
// table of p50/p95 and the ratio. Closed surveys' results are computed by the API's background job at
// its start, from no stored results (decision 058: as when a survey closes), timed alone with the API's
// RSS before and at its peak while /api/health is probed every 50 ms; then the API is restarted and the
// first results call of the new process (what a visitor meets) is timed alone the same way.
// /api/health is also loaded on its own.
// Last line: `national: scale S, worst p95 N ms (endpoint), results first call N ms, health p95 N ms`.
//
// Usage: node bench/national.mjs [--scale S] [--keep] [--seconds N] [--only generate]
//   --scale S   volume factor (default 1; fractions allowed, e.g. 0.1)
//   --keep      keep the database `portale_national_s<S>` (and reuse it, without generating again,
//               when it already holds that scale); without it a fresh `portale_national_<pid>` is
//               created and dropped at the end
//   --db NAME   the database's name instead of the ones above (kept too when --keep is given)
//   --seconds N length of each measurement (default BENCH_SECONDS or 8)
//   --only generate   stop after the data is there (to time or prepare a kept database)
// DATABASE_URL: the server (default postgres://postgres@127.0.0.1:5432/postgres).
import { execFileSync } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { generate, generatedScale } from './lib/national-data.mjs';
import { closedLoop, fmt, freePort, load, startServer, summarise } from './lib/measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    keep: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    only: { type: 'string' },
    db: { type: 'string' },
  },
});
const SCALE = Number(args.scale);
if (!(SCALE > 0)) throw new Error('--scale must be a positive number');
const SECONDS = Number(args.seconds ?? process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 10;
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName =
  args.db ??
  (args.keep ? `portale_national_s${String(SCALE).replace('.', '_')}` : `portale_national_${process.pid}`);
if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error(`--db: not a plain database name: ${dbName}`);
const benchUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
const PASSWORD = 'Portale.Demo.2026';

async function admin(text) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

async function login(api, email) {
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
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const body = await res.json();
  if (!body.token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.token;
}

/** A GET that waits as long as the answer takes (fetch gives up after 300 s without headers). */
function getWithoutTimeout(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, text }));
      })
      .on('error', reject);
  });
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

function apiEnv(port) {
  return {
    DATABASE_URL: benchUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    MFA_ROLES: '',
    SEED_REGISTRY: 'full',
    SEED_DEMO: 'true',
    RATE_LIMIT_MAX: '100000000',
    RATE_LIMIT_USER_MAX: '100000000',
    WEB_ORIGIN: 'http://127.0.0.1:3000',
  };
}

async function startApi(port, logFile) {
  return startServer(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    env: apiEnv(port),
    readyUrl: `http://127.0.0.1:${port}/api/health`,
    timeoutMs: 900_000,
    logFile,
  });
}

/**
 * Times `action` alone on the running API: the API's RSS before and at its peak (sampled every 50 ms)
 * and /api/health probed every 50 ms meanwhile.
 */
async function alone(server, api, action) {
  const rssBefore = rssOf(server.pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(server.pid))), 50);
  const health = [];
  let probing = true;
  const prober = (async () => {
    while (probing) {
      const t = performance.now();
      await fetch(`${api}/api/health`).then((r) => r.arrayBuffer());
      health.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const started = performance.now();
  try {
    const value = await action();
    return { value, ms: performance.now() - started, rssBefore, rssPeak, health };
  } finally {
    probing = false;
    await prober;
    clearInterval(sampler);
  }
}

/** The closed surveys' stored results the API's background job is to write (decision 058), once each. */
async function storedResults(client) {
  const { rows } = await client.query(
    `select (select count(*)::int from surveys, lateral unnest(case participants when 'entrambi' then array['insegnanti','codici'] else array[participants] end) g where state = 'chiusa') expected,
            (select count(*)::int from survey_result_snapshots) stored,
            (select coalesce(sum(compute_ms), 0)::int from survey_result_snapshots) compute_ms`,
  );
  return rows[0];
}

async function main() {
  mkdirSync(`${root}bench/results`, { recursive: true });
  const logFile = openSync(`${root}bench/results/national-api.log`, 'a');
  const exists = (await admin(`select 1 from pg_database where datname = '${dbName}'`)).rowCount > 0;
  if (!exists) await admin(`create database ${dbName}`);

  // 1. Migrate and seed (registry and demo accounts) through the API's own start, then stop it.
  const port = await freePort();
  const api = `http://127.0.0.1:${port}`;
  let server;
  let bare;
  let pool;
  try {
    let started = performance.now();
    console.log(`Database ${dbName}: migrazioni e anagrafe completa (avvio dell’API)…`);
    server = await startApi(port, logFile);
    console.log(`  pronta in ${fmt((performance.now() - started) / 1000)} s`);
    await server.stop();
    server = undefined;

    // 2. Synthetic volume, unless this database already holds it.
    const client = new pg.Client({ connectionString: benchUrl });
    await client.connect();
    const done = await generatedScale(client);
    if (done && done.scale !== SCALE) throw new Error(`${dbName} already holds scale ${done.scale}`);
    if (done) console.log(`Volume di scala ${SCALE} già presente (generato in ${fmt(done.seconds)} s).`);
    else {
      console.log(`Generazione della scala ${SCALE}…`);
      const seconds = await generate(client, SCALE);
      console.log(`Generata in ${fmt(seconds)} s.`);
    }
    const sizes = (
      await client.query(
        `select (select count(*) from teacher_profiles) t, (select count(*) from users) u, (select count(*) from survey_responses) r, (select count(*) from visits) v, (select count(*) from audit_log) a, pg_size_pretty(pg_database_size(current_database())) size`,
      )
    ).rows[0];
    await client.end();
    console.log(
      `Righe: ${sizes.t} insegnanti, ${sizes.u} utenti, ${sizes.r} risposte, ${sizes.v} visite, ${sizes.a} audit; ${sizes.size}.`,
    );
    if (args.only === 'generate') return;

    // 3. The API on the loaded database. Its background job (decision 058) computes and stores the
    // closed surveys' results at start, as when a survey closes: timed alone, from no stored results.
    {
      const c = new pg.Client({ connectionString: benchUrl });
      await c.connect();
      await c.query(
        `do $$ begin if to_regclass('survey_result_snapshots') is not null then delete from survey_result_snapshots; end if; end $$`,
      );
      await c.end();
    }
    started = performance.now();
    server = await startApi(port, logFile);
    console.log(`API pronta in ${fmt((performance.now() - started) / 1000)} s (migrazioni nuove comprese).`);
    const watcher = new pg.Client({ connectionString: benchUrl });
    await watcher.connect();
    const stored = await alone(server, api, async () => {
      for (;;) {
        const s = await storedResults(watcher);
        if (s.stored >= s.expected) return s;
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    await watcher.end();
    const storedHealth = summarise(stored.health, 1, 0);
    console.log(
      `Risultati delle indagini chiuse calcolati in background all’avvio: ${stored.value.stored} in ${fmt(stored.ms, 0)} ms (calcolo ${fmt(stored.value.compute_ms, 0)} ms); RSS ${fmt(stored.rssBefore, 0)} → picco ${fmt(stored.rssPeak, 0)} MiB (+${fmt(stored.rssPeak - stored.rssBefore, 0)}); /api/health nel frattempo p95 ${fmt(storedHealth.p95)} ms, massimo ${fmt(Math.max(...stored.health))} ms.`,
    );
    // A new process: the first visitor's call reads the stored results (nothing in its memory).
    await server.stop();
    started = performance.now();
    server = await startApi(port, logFile);
    console.log(`API riavviata in ${fmt((performance.now() - started) / 1000)} s.`);
    const token = await login(api, 'superadmin@demo.test');
    const headers = { authorization: `Bearer ${token}` };
    pool = new pg.Pool({ connectionString: benchUrl, max: CONNECTIONS });
    const adminId = (await pool.query(`select id from users where email = 'superadmin@demo.test'`)).rows[0]
      .id;
    const region = 'Lombardia';
    const SCENARIOS = [
      { label: 'insegnanti, prima pagina (per nome)', path: '/api/teachers', query: '' },
      {
        label: 'insegnanti, in attesa, per data ↓',
        path: '/api/teachers',
        query: 'reviewState=in_attesa&sort=-createdAt',
      },
      { label: 'insegnanti, Lombardia', path: '/api/teachers', query: `region=${region}` },
      { label: 'utenti, prima pagina (per nome)', path: '/api/users', query: '' },
      { label: 'utenti, ruolo insegnante', path: '/api/users', query: 'role=teacher' },
      { label: 'revisioni insegnanti (coda)', path: '/api/reviews/insegnanti', query: '' },
      { label: 'revisioni insegnanti, in attesa', path: '/api/reviews/insegnanti', query: 'state=in_attesa' },
      { label: 'revisioni visite (coda)', path: '/api/reviews/visite', query: '' },
      { label: 'cruscotto', path: '/api/dashboard/summary', query: '' },
      { label: 'avanzamento per settimana', path: '/api/progress', query: 'groupBy=week' },
      { label: 'avanzamento per regione', path: '/api/progress', query: 'groupBy=region' },
      { label: 'avanzamento per stato', path: '/api/progress', query: 'groupBy=state' },
      { label: 'audit di un utente di staff', path: '/api/audit', query: `entity=user&entityId=${adminId}` },
      { label: 'audit di un insegnante', path: '/api/audit', query: 'entity=teacher&entityId=1234' },
      { label: 'risultati (in cache)', path: '/api/results', query: '' },
      { label: 'salute', path: '/api/health', query: '' },
    ];

    // The statements of each endpoint, recorded from the repository code (before any load).
    const statements = JSON.parse(
      execFileSync('npx', ['tsx', 'bench/lib/national-sql.ts', JSON.stringify(SCENARIOS)], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: benchUrl, NODE_NO_WARNINGS: '1' },
        maxBuffer: 64 << 20,
      })
        .split('\n')
        .find((l) => l.startsWith('[')),
    );

    // The floor of an HTTP endpoint over the same statements (decision 060): a bare Fastify route each.
    const named = statements.map((list, i) =>
      list.map((s, j) => ({ name: `national_${i}_${j}`, text: s.text, values: s.params })),
    );
    const statementsFile = `${root}bench/results/national-statements.json`;
    writeFileSync(statementsFile, JSON.stringify(named));
    const barePort = await freePort();
    bare = await startServer(process.execPath, ['bench/lib/bare-sql-server.mjs', statementsFile], {
      env: { DATABASE_URL: benchUrl, PORT: String(barePort) },
      readyUrl: `http://127.0.0.1:${barePort}/health`,
      logFile,
    });

    // The first results call of the new process, alone: its time, the API's memory, /api/health meanwhile.
    const firstRun = await alone(server, api, () => getWithoutTimeout(`${api}/api/results`));
    const first = firstRun.value;
    if (first.status !== 200) throw new Error(`/api/results: ${first.status} ${first.text}`);
    const firstBody = JSON.parse(first.text);
    const resultsFirstMs = firstRun.ms;
    const { rssBefore, rssPeak, health: healthDuring } = firstRun;
    const healthDuringFirst = summarise(healthDuring, 1, 0);

    const rows = [];
    for (const [i, scenario] of SCENARIOS.entries()) {
      const url = `${api}${scenario.path}${scenario.query ? `?${encodeURI(scenario.query)}` : ''}`;
      const check = await fetch(url, { headers });
      if (!check.ok) throw new Error(`${url}: ${check.status} ${await check.text()}`);
      const body = await check.json();
      const apiFigures = await load(url, { connections: CONNECTIONS, duration: SECONDS, headers });
      // The API runs a list's page and its count side by side: so does the reference.
      const sqlFigures = await closedLoop(() => Promise.all(named[i].map((s) => pool.query(s))), {
        concurrency: CONNECTIONS,
        seconds: SECONDS,
      });
      const bareFigures = await load(`http://127.0.0.1:${barePort}/s/${i}`, {
        connections: CONNECTIONS,
        duration: SECONDS,
      });
      rows.push({
        ...scenario,
        total: body.total ?? '',
        approx: body.totalApproximate ? '~' : '',
        statements: named[i].length,
        apiFigures,
        sqlFigures,
        bareFigures,
      });
      console.error(
        `  ${scenario.label}: API p95 ${fmt(apiFigures.p95)} ms, SQL p95 ${fmt(sqlFigures.p95)} ms, Fastify+SQL p95 ${fmt(bareFigures.p95)} ms`,
      );
    }

    console.log(
      `\nMacchina: ${cpus().length} core, Node ${process.version}; scala ${SCALE}; ${CONNECTIONS} client, ${SECONDS} s per misura; latenze in ms.`,
    );
    console.log(
      '| Endpoint | righe | istruzioni | API req/s | API p50 | API p95 | SQL p50 | SQL p95 | API p95 / SQL p95 | Fastify+SQL p95 | API p95 / Fastify+SQL p95 | errori |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      console.log(
        `| ${r.label} (\`${r.path}${r.query ? `?${r.query}` : ''}\`) | ${r.approx}${r.total} | ${r.statements} | ${fmt(r.apiFigures.rps, 0)} | ${fmt(r.apiFigures.p50)} | ${fmt(r.apiFigures.p95)} | ${fmt(r.sqlFigures.p50)} | ${fmt(r.sqlFigures.p95)} | ${fmt(r.apiFigures.p95 / r.sqlFigures.p95, 2)}× | ${fmt(r.bareFigures.p95)} | ${fmt(r.apiFigures.p95 / r.bareFigures.p95, 2)}× | ${r.apiFigures.errors + r.sqlFigures.errors + r.bareFigures.errors} |`,
      );
    }
    console.log(
      `\nPrima chiamata di /api/results (processo nuovo, risultati memorizzati): ${fmt(resultsFirstMs, 0)} ms (stato ${firstBody.status}, ${firstBody.respondents ?? '–'} rispondenti); RSS dell’API ${fmt(rssBefore, 0)} → picco ${fmt(rssPeak, 0)} MiB (+${fmt(rssPeak - rssBefore, 0)}); /api/health nel frattempo: ${healthDuring.length} sonde, p95 ${fmt(healthDuringFirst.p95)} ms, massimo ${fmt(Math.max(...healthDuring))} ms.`,
    );
    const staff = rows.filter((r) => r.path !== '/api/health');
    const worst = staff.reduce((a, b) => (b.apiFigures.p95 > a.apiFigures.p95 ? b : a));
    const health = rows.find((r) => r.path === '/api/health');
    const healthP95 = Math.max(health.apiFigures.p95, healthDuringFirst.p95, storedHealth.p95);
    console.log(
      `national: scale ${SCALE}, worst p95 ${fmt(worst.apiFigures.p95, 0)} ms (${worst.path}${worst.query ? `?${worst.query}` : ''}), results first call ${fmt(resultsFirstMs, 0)} ms, health p95 ${fmt(healthP95, 0)} ms`,
    );
  } finally {
    await pool?.end();
    await server?.stop();
    await bare?.stop();
    if (!args.keep) await admin(`drop database if exists ${dbName} with (force)`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
