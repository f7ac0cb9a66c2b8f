// Abusive mixes (issue 32, defect 6): while one kind of heavy or abusive traffic runs, a probe asks
// GET /api/health every 100 ms and another logs in every 500 ms; the bench prints their p95 under each
// mix beside the quiet figure. Targets: health p95 ≤ 500 ms, login p95 ≤ 1.5 s, on the embedded
// database and on PostgreSQL.
//
// Mixes: quiet; forgot-password flood for unknown addresses (20 loops, each request from a new
// address); two-letter searches of the registry (15 loops, `q=aa`); concurrent full XLSX exports of
// the plessi (6 loops; beyond EXPORT_CONCURRENCY they get 429); 10 MB document uploads (3 loops).
//
// Usage: node bench/abuse.mjs
//   BENCH_SECONDS (10)       length of each mix
//   BENCH_REGISTRY (sample)  registry seeded: `sample` (two provinces, fast) or `full` (the whole
//                            national registry; the first start loads it, minutes)
//   BENCH_DATABASES (pglite,postgres)  which databases to run
//   DATABASE_URL             PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres);
//                            the script creates and drops `portale_abuse_<registry>` on it.
// Limits are as in production except the generic per-IP / per-user ceilings (lifted, so that the
// heavy requests actually reach the work they cause); the forgot-password flood keeps its own limits
// and rotates its addresses (X-Forwarded-For from a trusted proxy) as an attacker would.
import http from 'node:http';
import { mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { fmt, freePort, startServer, summarise } from './lib/measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const REGISTRY = process.env.BENCH_REGISTRY ?? 'sample';
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `portale_abuse_${REGISTRY}`;
const WEB_ORIGIN = 'http://127.0.0.1:3000';
const PASSWORD = 'Portale.Demo.2026';
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

function request(base, method, path, { headers = {}, body, raw } = {}) {
  return new Promise((resolve, reject) => {
    const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const type = raw ? {} : payload ? { 'content-type': 'application/json' } : {};
    const req = http.request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: {
          origin: WEB_ORIGIN,
          ...type,
          ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            text: Buffer.concat(chunks).toString('utf8'),
            cookies: res.headers['set-cookie'] ?? [],
          }),
        );
      },
    );
    req.setTimeout(180_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** The XSRF cookie and its header, as a browser sends them on a state change. */
async function csrfHeaders(base, ip) {
  const csrf = await request(base, 'HEAD', '/sanctum/csrf-cookie', { headers: { 'x-forwarded-for': ip } });
  const cookies = csrf.cookies.map((c) => c.split(';')[0]);
  const xsrf = decodeURIComponent(cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.split('=')[1] ?? '');
  return { 'x-xsrf-token': xsrf, cookie: cookies.join('; ') };
}

/** Logs in; the token, and the cookies and XSRF header of that session (a state change needs both). */
async function loginSession(base, email, ip) {
  const xff = { 'x-forwarded-for': ip };
  const csrf = await request(base, 'HEAD', '/sanctum/csrf-cookie', { headers: xff });
  const jar = new Map(csrf.cookies.map((c) => c.split(';')[0].split(/=(.*)/s)).map(([k, v]) => [k, v]));
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await request(base, 'POST', '/api/auth/login', {
    headers: {
      ...xff,
      'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
      cookie: cookieHeader(),
    },
    body: { email, password: PASSWORD },
  });
  const token = JSON.parse(res.text).token;
  if (!token) throw new Error(`login failed: ${res.status} ${res.text}`);
  for (const c of res.cookies) {
    const [k, v] = c.split(';')[0].split(/=(.*)/s);
    jar.set(k, v);
  }
  return {
    token,
    headers: {
      authorization: `Bearer ${token}`,
      'x-forwarded-for': ip,
      'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN') ?? ''),
      cookie: cookieHeader(),
    },
  };
}

const login = async (base, email, ip) => (await loginSession(base, email, ip)).token;

let addressCounter = 0;
const nextAddress = () => {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

/** Runs `work` in `loops` loops until `stop()`; counts statuses. */
function loops(count, work, statuses) {
  let running = true;
  const done = Promise.all(
    Array.from({ length: count }, async (_, i) => {
      while (running) {
        try {
          const res = await work(i);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        } catch {
          statuses.set('err', (statuses.get('err') ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }),
  );
  return () => {
    running = false;
    return done;
  };
}

/** A probe every `everyMs` (never two at once): latencies. */
function probe(everyMs, work) {
  const latencies = [];
  let errors = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const start = performance.now();
      try {
        const res = await work();
        if (res.status >= 400) errors += 1;
      } catch {
        errors += 1;
      }
      const ms = performance.now() - start;
      latencies.push(ms);
      if (ms < everyMs) await new Promise((r) => setTimeout(r, everyMs - ms));
    }
  })();
  return () => {
    running = false;
    return done.then(() => ({ latencies, errors }));
  };
}

const PDF_10MB = Buffer.concat([Buffer.from('%PDF-1.4\n', 'latin1'), Buffer.alloc(10 * 1_048_576 - 9, 0x41)]);

async function mixes(base) {
  const { headers: staff } = await loginSession(base, 'cromos@demo.test', nextAddress());
  const guestIp = nextAddress();
  const guest = await csrfHeaders(base, guestIp);
  return {
    quiet: null,
    'forgot-password, indirizzi inesistenti (20)': [
      20,
      (i) =>
        request(base, 'POST', '/api/auth/forgot-password', {
          headers: { ...guest, 'x-forwarded-for': nextAddress() },
          body: { email: `nessuno.${i}.${Date.now()}@example.invalid` },
        }),
    ],
    'ricerche di due lettere q=aa (15)': [
      15,
      () => request(base, 'GET', '/api/school-sites?q=aa', { headers: staff }),
    ],
    'export XLSX dei plessi (6)': [
      6,
      () => request(base, 'GET', '/api/school-sites/export?format=xlsx', { headers: staff }),
    ],
    'upload di 10 MB (3)': [
      3,
      (i) =>
        request(base, 'POST', `/api/documents?title=Bench%20${i}%20${Date.now()}&category=guide`, {
          headers: { ...staff, 'content-type': 'application/pdf' },
          raw: PDF_10MB,
        }),
    ],
  };
}

async function measure(name, base) {
  const results = [];
  for (const [label, mix] of Object.entries(await mixes(base))) {
    const statuses = new Map();
    const stopMix = mix ? loops(mix[0], mix[1], statuses) : () => Promise.resolve();
    const ip = nextAddress();
    const stopHealth = probe(100, () =>
      request(base, 'GET', '/api/health', { headers: { 'x-forwarded-for': ip } }),
    );
    const stopLogin = probe(500, async () => {
      await login(base, 'insegnante@demo.test', nextAddress());
      return { status: 200 };
    });
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    const health = await stopHealth();
    const logins = await stopLogin();
    await stopMix();
    const h = summarise(health.latencies, SECONDS, health.errors);
    const l = summarise(logins.latencies, SECONDS, logins.errors);
    results.push({ label, h, l, statuses });
    console.log(
      `${name.padEnd(10)} ${label.padEnd(44)} health p95 ${fmt(h.p95, 0).padStart(6)} ms (${h.total}, err ${h.errors})   login p95 ${fmt(l.p95, 0).padStart(6)} ms (${l.total}, err ${l.errors})   ` +
        `mix: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(' ') || '–'}`,
    );
  }
  return results;
}

async function startApi(env, logName) {
  const port = await freePort();
  mkdirSync(`${root}bench/results`, { recursive: true });
  const server = await startServer(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      MFA_ROLES: '',
      SEED_DEMO: 'true',
      SEED_REGISTRY: REGISTRY,
      WEB_ORIGIN,
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_MAX: '1000000',
      RATE_LIMIT_USER_MAX: '1000000',
      ...env,
    },
    readyUrl: `http://127.0.0.1:${port}/api/health`,
    logFile: openSync(`${root}bench/results/${logName}`, 'w'),
  });
  return { ...server, base: `http://127.0.0.1:${port}` };
}

async function main() {
  const all = {};
  for (const kind of DATABASES) {
    const files = mkdtempSync(join(tmpdir(), 'portale-abuse-files-'));
    let env;
    let cleanup = async () => {};
    if (kind === 'pglite') {
      const dir = mkdtempSync(join(tmpdir(), 'portale-abuse-pglite-'));
      env = { PGLITE_DIR: dir, FILE_STORE_DIR: files };
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    } else {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.query(`create database ${dbName}`);
      await admin.end();
      env = {
        DATABASE_URL: Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString(),
        FILE_STORE_DIR: files,
      };
      cleanup = async () => {
        const a = new pg.Client({ connectionString: adminUrl });
        await a.connect();
        await a.query(`drop database if exists ${dbName} with (force)`);
        await a.end();
      };
    }
    console.log(`Avvio dell’API (${kind}, anagrafe ${REGISTRY})…`);
    const api = await startApi(env, `abuse-api-${kind}.log`);
    try {
      all[kind] = await measure(kind, api.base);
    } finally {
      await api.stop();
      await cleanup();
      rmSync(files, { recursive: true, force: true });
    }
  }
  console.log('\nObiettivi: health p95 ≤ 500 ms, login p95 ≤ 1500 ms.');
  for (const [kind, rows] of Object.entries(all)) {
    for (const r of rows) {
      const ok = r.h.p95 <= 500 && r.l.p95 <= 1500;
      console.log(
        `${ok ? 'ok ' : 'NO '} ${kind.padEnd(9)} ${r.label.padEnd(44)} health ${fmt(r.h.p95, 0)} ms, login ${fmt(r.l.p95, 0)} ms`,
      );
    }
  }
  agent.destroy();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
