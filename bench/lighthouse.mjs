// Lighthouse (npm, mobile preset) on every public route of the shared route table, served by the built
// web app and the API on 127.0.0.1, with Debian's Chromium. "Public" = `PAGES` with layout 'default',
// no URL params, and no guard that sends an anonymous visitor elsewhere (apps/web/scripts/public-routes.mjs).
// Prints one row per route — performance, accessibility, best practices, SEO, FCP, LCP, TBT, CLS — each
// the median of LIGHTHOUSE_RUNS runs (default 1), with the load average when the route was done (the
// simulated timings grow with it), and the audits that cost points. Targets of the
// public-site work: performance ≥ 90 (idle machine), accessibility 100, best practices ≥ 95, SEO ≥ 95.
// LIGHTHOUSE_PATH=/a,/b narrows the run to those paths; LIGHTHOUSE_REPORTS=<dir> keeps each run's JSON
// report there (LCP element, critical chains, what each script costs). Run `npm run build` first. Prints, not a test.
import { spawn, execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tsImport } from 'tsx/esm/api';
import { publicRoutes } from '../apps/web/scripts/public-routes.mjs';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/lib/chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1));
// The working tree is shared: serve a private copy of the build (as the e2e suite does), so that a
// rebuild elsewhere during the run cannot swap the hashed chunks under the pages being measured.
const { snapshotWebBuild, removeWebSnapshot } = await tsImport('../e2e/web-snapshot.ts', import.meta.url);
const webRoot = snapshotWebBuild(root);

const publicPaths = (await publicRoutes()).map((p) => p.path);
const reportDir = process.env.LIGHTHOUSE_REPORTS;
if (reportDir) mkdirSync(reportDir, { recursive: true });
const paths = process.env.LIGHTHOUSE_PATH
  ? process.env.LIGHTHOUSE_PATH.split(',').map((p) => p.trim())
  : publicPaths;

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const waitFor = async (url) => {
  for (let i = 0; i < 240; i++) {
    if ((await fetch(url).catch(() => undefined))?.ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`not ready: ${url}`);
};

const [apiPort, webPort] = [await freePort(), await freePort()];
const web = `http://127.0.0.1:${webPort}`;
const api = `http://127.0.0.1:${apiPort}`;
const children = [
  spawn('node_modules/.bin/tsx', ['apps/api/src/server.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      PGLITE_DIR: 'memory://',
      SEED_REGISTRY: 'sample',
      WEB_ORIGIN: web,
      LOG_LEVEL: 'warn',
      COOKIE_SECURE: 'false',
      RATE_LIMIT_MAX: '100000',
    },
  }),
  spawn(process.execPath, [`${webRoot}/server/serve.mjs`], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(webPort), API_ORIGIN: api, LOG_LEVEL: 'warn' },
  }),
];
const stop = () => {
  children.forEach((c) => c.kill('SIGTERM'));
  removeWebSnapshot(webRoot);
};
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const flags = ['--headless=new', '--disable-dev-shm-usage', ...CHROMIUM_FLAGS];

/** One Lighthouse run on `path`: the four scores, FCP, LCP, TBT, CLS and the audits that cost points. */
async function lighthouse(path, runIndex) {
  const { stdout } = await promisify(execFile)(
    'node_modules/.bin/lighthouse',
    [
      `${web}${path}`,
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      '--only-categories=performance,accessibility,best-practices,seo',
      `--chrome-flags=${flags.join(' ')}`,
    ],
    {
      cwd: root,
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? CHROMIUM_PATH },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const report = JSON.parse(stdout);
  if (reportDir)
    writeFileSync(`${reportDir}/${path.replace(/\W+/g, '_') || '_'}-${runIndex + 1}.json`, stdout);
  const run = Object.fromEntries(
    Object.entries(report.categories).map(([id, c]) => [id, Math.round(c.score * 100)]),
  );
  run.fcpMs = Math.round(report.audits['first-contentful-paint'].numericValue);
  run.lcpMs = Math.round(report.audits['largest-contentful-paint'].numericValue);
  run.tbtMs = Math.round(report.audits['total-blocking-time'].numericValue);
  run.cls = Number(report.audits['cumulative-layout-shift'].numericValue.toFixed(3));
  const failed = Object.values(report.audits).filter(
    (a) =>
      a.score !== null &&
      a.score < 1 &&
      ['accessibility', 'best-practices', 'seo'].some((c) =>
        report.categories[c].auditRefs.some((r) => r.id === a.id && r.weight > 0),
      ),
  );
  run.failedAudits = failed.map((a) => a.id);
  return run;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const KEYS = ['performance', 'accessibility', 'best-practices', 'seo', 'fcpMs', 'lcpMs', 'tbtMs', 'cls'];

try {
  await waitFor(`${api}/api/health`);
  await waitFor(`${web}/build.json`);
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `Lighthouse mobile, ${paths.length} public routes, median of ${runs} run(s); ${cpus().length} CPUs, load average ${load} at start`,
  );
  const rows = [];
  for (const path of paths) {
    const results = [];
    for (let i = 0, failures = 0; i < runs; i++) {
      try {
        results.push(await lighthouse(path, i));
      } catch (error) {
        // A loaded machine sometimes times a run out: say why, and try that run once more.
        const why = String(error.stderr ?? error.message)
          .trim()
          .split('\n')
          .filter(Boolean)
          .slice(-2)
          .join(' / ');
        console.error(`  ${path}: run ${i + 1} failed: ${why}`);
        if (++failures <= 1) i--;
      }
    }
    if (!results.length) {
      rows.push({ path, failed: true });
      continue;
    }
    // The load average when the route's runs end: Lighthouse's simulated timings grow with it.
    const row = {
      path,
      ...Object.fromEntries(KEYS.map((k) => [k, median(results.map((r) => r[k]))])),
      load: loadavg()[0].toFixed(1),
    };
    row.failedAudits = [...new Set(results.flatMap((r) => r.failedAudits))].join(', ') || '-';
    rows.push(row);
    console.log(`  ${path}: ${JSON.stringify(row)}`);
  }

  const header = ['route', 'perf', 'a11y', 'best pr.', 'SEO', 'FCP ms', 'LCP ms', 'TBT ms', 'CLS', 'load'];
  const widths = [Math.max(5, ...paths.map((p) => p.length)), 5, 5, 9, 5, 8, 8, 8, 7, 6];
  const fmt = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(' ');
  console.log(`\n${fmt(header)}`);
  for (const r of rows) {
    console.log(
      r.failed
        ? fmt([r.path, 'fail', '', '', '', '', '', '', '', ''])
        : fmt([
            r.path,
            r.performance,
            r.accessibility,
            r['best-practices'],
            r.seo,
            r.fcpMs,
            r.lcpMs,
            r.tbtMs,
            r.cls,
            r.load,
          ]),
    );
  }
  const ok = rows.filter((r) => !r.failed);
  const below = ok.filter(
    (r) => r.performance < 90 || r.accessibility < 100 || r['best-practices'] < 95 || r.seo < 95,
  );
  console.log(
    `\nTargets (performance ≥ 90 on an idle machine, accessibility 100, best practices ≥ 95, SEO ≥ 95): ${ok.length - below.length} of ${rows.length} routes meet all four.`,
  );
  for (const r of below) console.log(`  ${r.path}: audits that cost points: ${r.failedAudits}`);
  console.log(
    `Load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  stop();
}
