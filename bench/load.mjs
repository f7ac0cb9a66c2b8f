// Load (issue 8 §5): 200 users at once for 60 s against the API on PostgreSQL with the whole national
// registry — logins, GET /api/auth/me, list and search pages, detail pages, a few writes (a plesso
// edited by staff, the contact form) — printing req/s, p50/p95/p99 and errors per kind and overall,
// beside a bare Fastify route driven the same way in the same run. Then GET /api/auth/me req/s against
// bare Fastify (autocannon), on PostgreSQL and on the embedded database (targets ≥ 50 % and ≥ 20 %).
// The abusive mixes of issue 32 (floods, two-letter searches, concurrent exports and uploads, with
// health and login p95 under each) are in bench/abuse.mjs.
//
// Usage: node bench/load.mjs
//   BENCH_SECONDS (60)     length of the mixed load      BENCH_USERS (200)   users at once
//   BENCH_THINK_MS (1000)  mean pause between a user's clicks (0: as fast as possible)
//   BENCH_RAMP_SECONDS     users start evenly over this time (default: a quarter of BENCH_SECONDS, at most 10)
//   BENCH_ME_SECONDS (3)   length of each /api/auth/me slice (each server is first warmed up for 2 s)
//   BENCH_ME_ROUNDS (5)    slices per server, alternated bare Fastify / API; the ratio printed is the median
//   BENCH_NODE_ARGS        extra node options for the API (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof")
//   BENCH_ONLY=me          only the GET /api/auth/me measurements (no mixed load)
//   DATABASE_URL           server to use (default postgres://postgres@127.0.0.1:5432/postgres); the
//                          script creates and keeps the database `portale_bench` (as bench/registry.mjs).
//
// What is realistic and what is not: every user has an address of its own (X-Forwarded-For from a
// trusted proxy, TRUST_PROXY=127.0.0.1, as behind the production load balancer), so the per-IP and
// per-user limits apply as in production and the mix must stay under them (a 429 counts as an error).
// The bench accounts have no second factor (MFA_ROLES empty), as bench/registry.mjs. The counters of
// the rate limits and the login throttle of `portale_bench` are emptied before the run (earlier runs
// would otherwise count against this one). A plesso edited by the mix is put back afterwards.
import { mkdtempSync, openSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { fmt, freePort, load, startServer, summarise } from './lib/measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const benchUrl = Object.assign(new URL(adminUrl), { pathname: '/portale_bench' }).toString();
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const USERS = Number(process.env.BENCH_USERS ?? 200);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1000);
const ME_SECONDS = Number(process.env.BENCH_ME_SECONDS ?? 3);
const ME_ROUNDS = Number(process.env.BENCH_ME_ROUNDS ?? 5);
const RAMP_MS = 1000 * Number(process.env.BENCH_RAMP_SECONDS ?? Math.min(10, SECONDS / 4));
const ONLY_ME = process.env.BENCH_ONLY === 'me';
const STAFF = Math.ceil(USERS * 0.6);
const PASSWORD = 'Portale.Demo.2026';
const WEB_ORIGIN = 'http://127.0.0.1:3000';

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** One HTTP request on a keep-alive connection; resolves with status, body text and Set-Cookie lines. */
function request(base, method, path, { headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: {
          ...headers,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, text, cookies: res.headers['set-cookie'] ?? [] }),
        );
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Latencies and failures per kind of request. */
class Stats {
  kinds = new Map();
  record(kind, ms, ok, status) {
    let k = this.kinds.get(kind);
    if (!k) this.kinds.set(kind, (k = { latencies: [], errors: 0, statuses: new Map() }));
    k.latencies.push(ms);
    if (!ok) {
      k.errors += 1;
      k.statuses.set(status, (k.statuses.get(status) ?? 0) + 1);
    }
  }
  /** Per kind, and overall (without the kinds in `leaveOut` in `withoutLogins`). */
  rows(seconds, leaveOut = ['login', 'csrf']) {
    const all = { latencies: [], errors: 0, statuses: new Map() };
    const rest = [];
    const rows = [];
    for (const [kind, k] of [...this.kinds].sort((a, b) => b[1].latencies.length - a[1].latencies.length)) {
      rows.push({ kind, ...summarise(k.latencies, seconds, k.errors), statuses: k.statuses });
      all.latencies.push(...k.latencies);
      if (!leaveOut.includes(kind)) rest.push(...k.latencies);
      all.errors += k.errors;
      for (const [s, n] of k.statuses) all.statuses.set(s, (all.statuses.get(s) ?? 0) + n);
    }
    return {
      rows,
      overall: { kind: 'totale', ...summarise(all.latencies, seconds, all.errors), statuses: all.statuses },
      withoutLogins: summarise(rest, seconds, 0),
    };
  }
}

const pick = (items) => items[Math.floor(Math.random() * items.length)];
const QUERIES = [
  'liceo scientifico',
  'roma',
  'citta',
  'milano',
  'istituto comprensivo',
  "sant'anna",
  'verdi',
  'napoli',
  'primaria',
  'torino',
];
const REGIONS = ['Lombardia', 'Lazio', 'Campania', 'Sicilia', 'Veneto', 'Piemonte', 'Toscana', 'Puglia'];
const LEVELS = ['infanzia', 'primaria', 'secondaria_primo_grado', 'secondaria_secondo_grado'];

/** One user: logs in, then clicks (a weighted choice of actions) with a pause between clicks. */
class User {
  jar = new Map();
  token = undefined;
  edited = undefined;
  constructor(base, index, stats, { staff, email, ip }) {
    Object.assign(this, { base, index, stats, staff, email, ip });
  }

  headers(extra = {}) {
    const h = { 'x-forwarded-for': this.ip, origin: WEB_ORIGIN, ...extra };
    if (this.jar.size) h.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.token) h.authorization = `Bearer ${this.token}`;
    return h;
  }

  async call(kind, method, path, body) {
    const headers = this.headers(
      method === 'GET' || method === 'HEAD'
        ? {}
        : { 'x-xsrf-token': decodeURIComponent(this.jar.get('XSRF-TOKEN') ?? '') },
    );
    const started = performance.now();
    let res;
    try {
      res = await request(this.base, method, path, { headers, body });
    } catch {
      this.stats.record(kind, performance.now() - started, false, 'rete');
      return undefined;
    }
    this.stats.record(kind, performance.now() - started, res.status < 400, res.status);
    for (const line of res.cookies) {
      const [pair] = line.split(';');
      const i = pair.indexOf('=');
      const value = pair.slice(i + 1);
      if (value) this.jar.set(pair.slice(0, i), value);
      else this.jar.delete(pair.slice(0, i));
    }
    return res;
  }

  async login() {
    this.token = undefined;
    await this.call('csrf', 'HEAD', '/sanctum/csrf-cookie');
    const res = await this.call('login', 'POST', '/api/auth/login', {
      email: this.email,
      password: PASSWORD,
    });
    if (res?.status === 200) this.token = JSON.parse(res.text).token;
  }

  json(res) {
    try {
      return res && res.status === 200 ? JSON.parse(res.text) : undefined;
    } catch {
      return undefined;
    }
  }

  async staffClick() {
    const r = Math.random();
    if (r < 0.15) return this.call('GET /api/auth/me', 'GET', '/api/auth/me');
    if (r < 0.35) {
      const query = pick([
        `page=${1 + Math.floor(Math.random() * 50)}`,
        `region=${encodeURIComponent(pick(REGIONS))}`,
        `q=${encodeURIComponent(pick(QUERIES))}`,
        'adhesionState=nessuna&stateSchool=true',
      ]);
      const list = this.json(await this.call('elenco istituti', 'GET', `/api/institutes?${query}`));
      if (list?.items?.length) this.instituteIds = list.items.map((i) => i.id);
      return undefined;
    }
    if (r < 0.6) {
      const query = pick([
        `q=${encodeURIComponent(pick(QUERIES))}`,
        `region=${encodeURIComponent(pick(REGIONS))}&level=${pick(LEVELS)}`,
        `q=${encodeURIComponent(pick(QUERIES))}&region=${encodeURIComponent(pick(REGIONS))}`,
        `page=${1 + Math.floor(Math.random() * 100)}&sort=-municipalityName`,
      ]);
      const list = this.json(await this.call('elenco e ricerca plessi', 'GET', `/api/school-sites?${query}`));
      if (list?.items?.length) this.siteIds = list.items.map((s) => s.id);
      return undefined;
    }
    if (r < 0.75 && this.instituteIds)
      return this.call('dettaglio istituto', 'GET', `/api/institutes/${pick(this.instituteIds)}`);
    if (r < 0.93 && this.siteIds)
      return this.call('dettaglio plesso', 'GET', `/api/school-sites/${pick(this.siteIds)}`);
    if (r < 0.97 && (this.siteIds || this.edited)) return this.editSite();
    if (r < 0.99) return this.call('GET /api/auth/me', 'GET', '/api/auth/me');
    await this.call('logout', 'POST', '/api/auth/logout');
    return this.login();
  }

  /** Turns `participating` of a plesso over, and back on the next edit: the registry ends as it began. */
  async editSite() {
    if (this.edited) {
      const { id, participating } = this.edited;
      const res = await this.call('modifica plesso (PATCH)', 'PATCH', `/api/school-sites/${id}`, {
        participating,
      });
      if (res && res.status < 400) this.edited = undefined;
      return res;
    }
    const id = pick(this.siteIds);
    const site = this.json(await this.call('dettaglio plesso', 'GET', `/api/school-sites/${id}`));
    if (!site) return undefined;
    const res = await this.call('modifica plesso (PATCH)', 'PATCH', `/api/school-sites/${id}`, {
      participating: !site.participating,
    });
    if (res && res.status < 400) this.edited = { id, participating: site.participating };
    return res;
  }

  async teacherClick() {
    const r = Math.random();
    if (r < 0.3) return this.call('GET /api/auth/me', 'GET', '/api/auth/me');
    if (r < 0.55)
      return this.call(
        'ricerca pubblica plessi',
        'GET',
        `/api/school-sites/search?q=${encodeURIComponent(pick(QUERIES))}`,
      );
    if (r < 0.7) return this.call('profilo', 'GET', '/api/account/profile');
    if (r < 0.85) return this.call('cifre pubbliche', 'GET', '/api/public/figures');
    if (r < 0.97) return this.call('documenti pubblici', 'GET', '/api/public/documents');
    if (r < 0.985 && !this.wroteContact) {
      this.wroteContact = true;
      return this.call('modulo di contatto (POST)', 'POST', '/api/public/contact', {
        name: `Utente Prova ${this.index}`,
        email: `utente${this.index}@bench.test`,
        topic: 'altro',
        message: `Messaggio di prova del banco di carico, utente ${this.index}: nessuna risposta necessaria.`,
        privacyAccepted: true,
      });
    }
    await this.call('logout', 'POST', '/api/auth/logout');
    return this.login();
  }
}

const pause = () => new Promise((resolve) => setTimeout(resolve, THINK_MS * (0.5 + Math.random())));

/** USERS users, started evenly over the first seconds, clicking until `seconds` have passed. */
async function runMix(base, seconds) {
  const stats = new Stats();
  const end = performance.now() + seconds * 1000;
  const ramp = RAMP_MS;
  const users = Array.from({ length: USERS }, (_, i) => {
    const staff = i < STAFF;
    const n = staff ? i : i - STAFF;
    return new User(base, i, stats, {
      staff,
      email: staff ? `bench.staff.${n}@bench.test` : `bench.teacher.${n}@bench.test`,
      ip: `10.${20 + Math.floor(i / 250)}.${i % 250}.${1 + (i % 7)}`,
    });
  });
  await Promise.all(
    users.map(async (user, i) => {
      await new Promise((resolve) => setTimeout(resolve, (ramp * i) / USERS));
      await user.login();
      while (performance.now() < end) {
        await pause();
        if (performance.now() >= end) break;
        await (user.staff ? user.staffClick() : user.teacherClick());
      }
    }),
  );
  return { stats, users };
}

/** The same users and pauses against bare Fastify: every click is one GET of a fixed JSON body. */
async function runBareMix(base, seconds) {
  const stats = new Stats();
  const end = performance.now() + seconds * 1000;
  const ramp = RAMP_MS;
  await Promise.all(
    Array.from({ length: USERS }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, (ramp * i) / USERS));
      while (performance.now() < end) {
        await pause();
        if (performance.now() >= end) break;
        const started = performance.now();
        try {
          const res = await request(base, 'GET', '/');
          stats.record('Fastify nudo', performance.now() - started, res.status < 400, res.status);
        } catch {
          stats.record('Fastify nudo', performance.now() - started, false, 'rete');
        }
      }
    }),
  );
  return stats;
}

async function prepareDatabase() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rowCount } = await admin.query("select 1 from pg_database where datname = 'portale_bench'");
  if (!rowCount) await admin.query('create database portale_bench');
  await admin.end();
}

/** Bench accounts (staff with the sylla role, teachers), with the demo password; counters emptied. */
async function prepareAccounts() {
  const db = new pg.Client({ connectionString: benchUrl });
  await db.connect();
  try {
    const accounts = [
      ...Array.from({ length: STAFF }, (_, n) => ({ email: `bench.staff.${n}@bench.test`, role: 'sylla' })),
      ...Array.from({ length: USERS - STAFF }, (_, n) => ({
        email: `bench.teacher.${n}@bench.test`,
        role: 'teacher',
      })),
    ];
    await db.query(
      `insert into users (email, password_hash, first_name, last_name, phone, email_verified_at, phone_verified_at)
       select a.email, d.password_hash, 'Utente', 'Banco', '+393331234567', now(), now()
       from unnest($1::text[]) as a(email) cross join (select password_hash from users where email = 'insegnante@demo.test') d
       on conflict do nothing`,
      [accounts.map((a) => a.email)],
    );
    await db.query(
      `insert into user_roles (user_id, role_id)
       select u.id, r.id from unnest($1::text[], $2::text[]) as a(email, role)
       join users u on u.email = a.email join roles r on r.name = a.role
       on conflict do nothing`,
      [accounts.map((a) => a.email), accounts.map((a) => a.role)],
    );
    await db.query('delete from rate_limit_hits');
    await db.query('delete from login_throttles');
  } finally {
    await db.end();
  }
}

async function login(base, email) {
  const csrf = await request(base, 'HEAD', '/sanctum/csrf-cookie');
  const cookies = csrf.cookies.map((c) => c.split(';')[0]);
  const xsrf = decodeURIComponent(cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.split('=')[1] ?? '');
  const res = await request(base, 'POST', '/api/auth/login', {
    headers: { 'x-xsrf-token': xsrf, cookie: cookies.join('; '), origin: WEB_ORIGIN },
    body: { email, password: PASSWORD },
  });
  const token = JSON.parse(res.text).token;
  if (!token) throw new Error(`login failed: ${res.status} ${res.text}`);
  return token;
}

// BENCH_NODE_ARGS: extra node options for the API processes, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const apiArgs = [
  ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
  '--import',
  'tsx',
  'apps/api/src/server.ts',
];
const baseEnv = {
  HOST: '127.0.0.1',
  NODE_ENV: 'development',
  LOG_LEVEL: 'info',
  MFA_ROLES: '',
  SEED_DEMO: 'true',
  WEB_ORIGIN,
  OUTBOX_POLL_MS: '2000',
};

async function startApi(env, logName) {
  const port = await freePort();
  const server = await startServer(process.execPath, apiArgs, {
    env: { ...baseEnv, PORT: String(port), ...env },
    readyUrl: `http://127.0.0.1:${port}/api/health/ready`,
    logFile: openSync(`${root}bench/results/${logName}`, 'a'),
  });
  return { ...server, base: `http://127.0.0.1:${port}` };
}

async function startBare(bodyFile) {
  const port = await freePort();
  const server = await startServer(process.execPath, ['bench/lib/bare-server.mjs', bodyFile], {
    env: { PORT: String(port) },
    readyUrl: `http://127.0.0.1:${port}/`,
  });
  return { ...server, base: `http://127.0.0.1:${port}` };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

/**
 * GET /api/auth/me against bare Fastify in ME_ROUNDS pairs of short slices, one server then the other:
 * a slow spell of a shared machine then weighs on both sides of a pair, and the median of the pairs'
 * ratios is what is reported (with their range). Medians of req/s, p50 and p95 over the slices.
 */
async function alternate(bareBase, meUrl, token) {
  const bare = [];
  const api = [];
  for (let round = 0; round < ME_ROUNDS; round++) {
    bare.push(await load(`${bareBase}/`, { connections: 20, duration: ME_SECONDS }));
    api.push(
      await load(meUrl, {
        connections: 20,
        duration: ME_SECONDS,
        headers: { authorization: `Bearer ${token}` },
      }),
    );
  }
  const ratios = api.map((a, i) => a.rps / bare[i].rps).sort((a, b) => a - b);
  const summary = (runs) => ({
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p95: median(runs.map((r) => r.p95)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  });
  return { bare: summary(bare), api: summary(api), ratios, ratio: median(ratios) };
}

/** Two seconds of the same load on each server first, so that neither is measured while still compiling its code. */
async function warmUp(bareBase, meUrl, token) {
  await load(`${bareBase}/`, { connections: 20, duration: 2 });
  await load(meUrl, { connections: 20, duration: 2, headers: { authorization: `Bearer ${token}` } });
}

function printTable(title, { rows, overall }) {
  console.log(`\n${title}`);
  console.log('| Richieste | numero | req/s | p50 | p95 | p99 | errori |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of [...rows, overall]) {
    const why = r.errors ? ` (${[...r.statuses].map(([s, n]) => `${n}× ${s}`).join(', ')})` : '';
    const name = r.kind === 'totale' ? '**totale**' : r.kind;
    console.log(
      `| ${name} | ${r.total} | ${fmt(r.rps, 1)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${r.errors}${why} |`,
    );
  }
}

async function main() {
  mkdirSync(`${root}bench/results`, { recursive: true });
  await prepareDatabase();
  const bodyFile = `${root}bench/results/load-me-body.json`;
  const started = [];
  const stopAll = () => Promise.all(started.splice(0).map((s) => s.stop()));
  try {
    // 1. The mix, with production limits, on PostgreSQL with the whole registry.
    console.log('Avvio dell’API su PostgreSQL (al primo avvio carica l’intera anagrafe)…');
    let api = await startApi(
      { DATABASE_URL: benchUrl, SEED_REGISTRY: 'full', TRUST_PROXY: '127.0.0.1' },
      'load-api.log',
    );
    started.push(api);
    await prepareAccounts();
    const probe = await login(api.base, 'bench.staff.0@bench.test');
    writeFileSync(
      bodyFile,
      (await request(api.base, 'GET', '/api/auth/me', { headers: { authorization: `Bearer ${probe}` } }))
        .text,
    );
    const bare = await startBare(bodyFile);
    started.push(bare);

    const load1 = loadavg()[0];
    let mixResult;
    if (!ONLY_ME) {
      const bareMix = await runBareMix(bare.base, SECONDS);
      const { stats: mix, users } = await runMix(api.base, SECONDS);
      mixResult = { bareMix, mix, load2: loadavg()[0] };
      // Put back every plesso left turned over.
      for (const user of users.filter((u) => u.edited)) {
        user.stats = new Stats();
        await user.call('ripristino', 'PATCH', `/api/school-sites/${user.edited.id}`, {
          participating: user.edited.participating,
        });
      }
    }
    await api.stop();
    started.splice(started.indexOf(api), 1);

    // 2. GET /api/auth/me against bare Fastify (autocannon, 20 connections), PostgreSQL then PGlite.
    // One user asks as fast as 20 connections go: the per-user ceiling is lifted for this measurement.
    const lifted = { RATE_LIMIT_USER_MAX: '1000000000', RATE_LIMIT_MAX: '1000000000' };
    api = await startApi({ DATABASE_URL: benchUrl, SEED_REGISTRY: 'full', ...lifted }, 'load-api.log');
    started.push(api);
    let token = await login(api.base, 'bench.staff.0@bench.test');
    await warmUp(bare.base, `${api.base}/api/auth/me`, token);
    const mePg = await alternate(bare.base, `${api.base}/api/auth/me`, token);
    await api.stop();
    started.splice(started.indexOf(api), 1);

    const pgliteDir = mkdtempSync(join(tmpdir(), 'portale-load-'));
    console.log('Avvio dell’API sul database incorporato (PGlite)…');
    api = await startApi({ PGLITE_DIR: pgliteDir, SEED_REGISTRY: 'none', ...lifted }, 'load-api-pglite.log');
    started.push(api);
    token = await login(api.base, 'insegnante@demo.test');
    await warmUp(bare.base, `${api.base}/api/auth/me`, token);
    const meLite = await alternate(bare.base, `${api.base}/api/auth/me`, token);
    await stopAll();
    rmSync(pgliteDir, { recursive: true, force: true });

    const load3 = loadavg()[0];
    if (mixResult) {
      const { bareMix, mix, load2 } = mixResult;
      console.log(
        `\nMacchina: ${cpus().length} core, Node ${process.version}; carico medio (1 min) ${fmt(load1, 1)} prima e ${fmt(load2, 1)} dopo il misto; latenze in ms.`,
      );
      console.log(
        `Misto: ${USERS} utenti contemporanei (${STAFF} staff, ${USERS - STAFF} insegnanti) per ${SECONDS} s, pausa media ${THINK_MS} ms tra i clic, ciascuno con il proprio indirizzo; limiti di produzione.`,
      );
      printTable(
        'Riferimento: Fastify nudo, stessi utenti e pause (una GET di un JSON fisso per clic)',
        bareMix.rows(SECONDS),
      );
      const mixRows = mix.rows(SECONDS);
      printTable('API su PostgreSQL con l’intera anagrafe', mixRows);
      const ref = bareMix.rows(SECONDS).overall;
      console.log(
        `\nAPI/Fastify nudo: req/s ${fmt((100 * mixRows.overall.rps) / ref.rps, 1)} %, p95 ${fmt(mixRows.overall.p95)} ms contro ${fmt(ref.p95)} ms; obiettivo: 0 errori, p95 ≤ 100 ms.`,
      );
      console.log(
        `Senza gli accessi (argon2id, ${USERS} quasi insieme all’avvio): p50 ${fmt(mixRows.withoutLogins.p50)} p95 ${fmt(mixRows.withoutLogins.p95)} p99 ${fmt(mixRows.withoutLogins.p99)} ms.`,
      );
    } else {
      console.log(
        `\nMacchina: ${cpus().length} core, Node ${process.version}; carico medio (1 min) ${fmt(load1, 1)} prima e ${fmt(load3, 1)} dopo le misure; latenze in ms.`,
      );
    }

    console.log(
      '\nGET /api/auth/me con token valido contro Fastify nudo (autocannon, 20 connessioni; ' +
        `${ME_ROUNDS} tratti di ${ME_SECONDS} s per server, alternati Fastify nudo / API: mediane, e tra parentesi il rapporto più basso e il più alto; limite per utente sollevato per la misura):`,
    );
    console.log(
      '| Database | API req/s | API p50 | API p95 | errori | Fastify nudo req/s | rapporto | obiettivo |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const [label, m, target] of [
      ['PostgreSQL', mePg, '≥ 50 %'],
      ['PGlite (incorporato)', meLite, '≥ 20 %'],
    ]) {
      const range = `(${fmt(100 * m.ratios[0], 1)}–${fmt(100 * m.ratios.at(-1), 1)})`;
      console.log(
        `| ${label} | ${fmt(m.api.rps, 0)} | ${fmt(m.api.p50)} | ${fmt(m.api.p95)} | ${m.api.errors} | ${fmt(m.bare.rps, 0)} | ${fmt(100 * m.ratio, 1)} % ${range} | ${target} |`,
      );
    }
  } finally {
    await stopAll();
    agent.destroy();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
