// Lighthouse (npm, mobile preset) on `/` served by the built web app and the API on 127.0.0.1,
// with Debian's Chromium. Prints the four category scores (targets: performance ≥ 90,
// accessibility 100, best practices ≥ 95, SEO ≥ 95). Run `npm run build` first. Prints, not a test.
import { spawn, execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const path = process.env.LIGHTHOUSE_PATH ?? '/';
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
    cwd: root, stdio: 'ignore',
    env: { ...process.env, NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(apiPort), PGLITE_DIR: 'memory://', SEED_REGISTRY: 'sample', WEB_ORIGIN: web, LOG_LEVEL: 'warn', COOKIE_SECURE: 'false' },
  }),
  spawn(process.execPath, ['apps/web/server/serve.mjs'], {
    cwd: root, stdio: 'ignore', env: { ...process.env, HOST: '127.0.0.1', PORT: String(webPort), API_ORIGIN: api, LOG_LEVEL: 'warn' },
  }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('exit', stop);

try {
  await waitFor(`${api}/api/health`);
  await waitFor(`${web}/build.json`);
  const flags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
  const scores = [];
  for (let i = 0; i < runs; i++) {
    const { stdout } = await promisify(execFile)(
      'node_modules/.bin/lighthouse',
      [`${web}${path}`, '--output=json', '--output-path=stdout', '--quiet', '--only-categories=performance,accessibility,best-practices,seo', `--chrome-flags=${flags.join(' ')}`],
      { cwd: root, env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024 },
    );
    const report = JSON.parse(stdout);
    const run = Object.fromEntries(Object.entries(report.categories).map(([id, c]) => [id, Math.round(c.score * 100)]));
    run.lcpMs = Math.round(report.audits['largest-contentful-paint'].numericValue);
    run.tbtMs = Math.round(report.audits['total-blocking-time'].numericValue);
    run.cls = Number(report.audits['cumulative-layout-shift'].numericValue.toFixed(3));
    const failed = Object.values(report.audits).filter((a) => a.score !== null && a.score < 1 && ['accessibility', 'best-practices', 'seo'].some((c) => report.categories[c].auditRefs.some((r) => r.id === a.id && r.weight > 0)));
    run.failedAudits = failed.map((a) => a.id).join(', ') || '-';
    scores.push(run);
    console.log(`run ${i + 1}:`, JSON.stringify(run));
  }
  const median = (key) => scores.map((s) => s[key]).sort((a, b) => a - b)[Math.floor(scores.length / 2)];
  console.log(`\nLighthouse mobile on ${path} (median of ${runs}): performance ${median('performance')} (≥ 90), accessibility ${median('accessibility')} (100), best practices ${median('best-practices')} (≥ 95), SEO ${median('seo')} (≥ 95); LCP ${median('lcpMs')} ms, TBT ${median('tbtMs')} ms, CLS ${median('cls')}`);
} finally {
  stop();
}
