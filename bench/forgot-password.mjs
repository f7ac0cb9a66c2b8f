// Forgot-password and the request after it (issue 32, defect 7): does the work an existing address
// causes after the answer (link, e-mail, audit) make the *next* request slower than an unknown address
// does? On the embedded database (one connection) that work and the next request share the connection.
//
// Usage: node bench/forgot-password.mjs
//   BENCH_ROUNDS (60)   pairs of (forgot-password, next request), alternating known and unknown addresses
//
// The API runs on PGlite in a temporary directory on disk (as in development), demo accounts seeded,
// limits lifted (one client sends everything). Each round: POST /api/auth/forgot-password, then, as soon
// as its 202 arrives, GET /api/health/ready (a database round trip): its time is the "next request".
// Known addresses rotate over the demo accounts so that each stays under its 3 links an hour and really
// gets an e-mail. Printed: medians and p90 of both, per kind, and the known/unknown ratio of the next
// request beside the reference measured before the fix (2.4× in issue 32; 2.0× with this script on
// the commit before the fix, 7e88b57). After it: 0.90× (known 29.2 ms, unknown 32.3 ms, 2 busy cores).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, freePort, startServer } from './lib/measure.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const KNOWN = [
  'superadmin@demo.test',
  'sylla@demo.test',
  'cromos@demo.test',
  'rilevatore@demo.test',
  'dirigente@demo.test',
  'referente@demo.test',
  'insegnante@demo.test',
  'utenti@demo.test',
  'cambio-password@demo.test',
  'da-verificare@demo.test',
  'dirigente-senza-firma@demo.test',
];
const REFERENCE_RATIO = 2.4;

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'portale-forgot-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const api = await startServer(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      PGLITE_DIR: dir,
      SEED_REGISTRY: 'none',
      SEED_DEMO: 'true',
      MFA_ROLES: '',
      WEB_ORIGIN: 'http://127.0.0.1:3000',
      RATE_LIMIT_MAX: '1000000',
      ACCOUNT_RATE_LIMIT_MAX: '1000000',
      GLOBAL_CLIENT_SHARE_PERCENT: '100',
      OUTBOX_POLL_MS: '3600000',
    },
    readyUrl: `${base}/api/health/ready`,
  });
  try {
    const csrf = await fetch(`${base}/sanctum/csrf-cookie`);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(csrf.headers.get('set-cookie') ?? '')[1];
    const headers = {
      'content-type': 'application/json',
      cookie: `XSRF-TOKEN=${xsrf}`,
      'x-xsrf-token': decodeURIComponent(xsrf),
    };
    const times = { known: { answer: [], next: [] }, unknown: { answer: [], next: [] } };
    const round = async (kind, email) => {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/auth/forgot-password`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email }),
      });
      await res.arrayBuffer();
      const t1 = performance.now();
      if (res.status !== 202) throw new Error(`forgot-password answered ${res.status}`);
      const probe = await fetch(`${base}/api/health/ready`);
      await probe.arrayBuffer();
      const t2 = performance.now();
      times[kind].answer.push(t1 - t0);
      times[kind].next.push(t2 - t1);
      // Let the work of this round end before the next one starts.
      await new Promise((resolve) => setTimeout(resolve, 50));
    };
    // Warm-up (module paths, statements, templates).
    for (let i = 0; i < 6; i += 1) await round('unknown', `riscaldamento-${i}@example.com`);
    times.unknown = { answer: [], next: [] };
    for (let i = 0; i < ROUNDS; i += 1) {
      const pair = [
        ['known', KNOWN[i % KNOWN.length]],
        ['unknown', `nessuno-${i}@example.com`],
      ];
      for (const [kind, email] of i % 2 ? pair.reverse() : pair) await round(kind, email);
    }
    console.log(
      `\nForgot-password su PGlite (incorporato, su disco): ${ROUNDS} coppie, indirizzi esistenti e inesistenti alternati; ms.`,
    );
    console.log(
      '| Indirizzo | risposta p50 | risposta p90 | richiesta successiva p50 | richiesta successiva p90 |',
    );
    console.log('|---|---:|---:|---:|---:|');
    for (const kind of ['known', 'unknown']) {
      const t = times[kind];
      console.log(
        `| ${kind === 'known' ? 'esistente' : 'inesistente'} | ${fmt(quantile(t.answer, 0.5))} | ${fmt(quantile(t.answer, 0.9))} | ${fmt(quantile(t.next, 0.5))} | ${fmt(quantile(t.next, 0.9))} |`,
      );
    }
    const ratio = quantile(times.known.next, 0.5) / quantile(times.unknown.next, 0.5);
    console.log(
      `\nRichiesta successiva, esistente/inesistente (mediane): ${fmt(ratio, 2)}× (prima della correzione: ${REFERENCE_RATIO}×; obiettivo ≈ 1×).`,
    );
  } finally {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
