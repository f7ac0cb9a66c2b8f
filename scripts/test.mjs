// `npm test`: unit and API suites (Vitest), then the end-to-end suite in Debian's Chromium (Playwright).
// Prints one closing line "N passed, N failed" over both runners. A suite that cannot start or crashes
// counts as failed, with its name (scripts/lib/test-summary.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { playwrightOutcome, stepFailed, vitestOutcome } from './lib/test-summary.mjs';
import { buildWebOnce } from './lib/web-build.mjs';

const VITEST_REPORT = 'test-results/vitest.json';
const E2E_REPORT = 'test-results/e2e.json';
mkdirSync('test-results', { recursive: true });
// A report left by an earlier run must never stand in for this one.
for (const path of [VITEST_REPORT, E2E_REPORT]) rmSync(path, { force: true });

const step = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
const readJson = (path) => {
  try {
    return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
  } catch {
    return undefined;
  }
};

const outcomes = [];
// Static checks first (under a minute): types, lint and formatting (Prettier), each a failure of its own.
for (const [name, script] of [
  ['types (tsc)', 'typecheck'],
  ['lint (ESLint)', 'lint'],
  ['formatting (Prettier)', 'format:check'],
]) {
  const status = step('npm', ['run', '--silent', script]);
  if (status !== 0) outcomes.push(stepFailed(name, `npm run ${script} failed`, status));
}
// The browser and the PDF tools first (apt, once): the API suite's PDF/A check runs qpdf and pdffonts.
const chromium = step('node', ['scripts/ensure-chromium.mjs']);
/** A step whose output is shown as it comes and kept (its last 4 MB), to quote if it crashes. */
const teed = (cmd, args) =>
  new Promise((resolve) => {
    const KEEP = 4 * 1024 * 1024;
    let kept = '';
    const child = spawn(cmd, args, { stdio: ['inherit', 'pipe', 'pipe'] });
    const keep = (out) => (chunk) => {
      out.write(chunk);
      kept = (kept + chunk.toString('utf8')).slice(-KEEP);
    };
    child.stdout.on('data', keep(process.stdout));
    child.stderr.on('data', keep(process.stderr));
    child.on('error', () => resolve({ status: 1, output: kept }));
    child.on('close', (status) => resolve({ status: status ?? 1, output: kept }));
  });
const vitest = await teed('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${VITEST_REPORT}`,
]);
const unit = vitest.status;
outcomes.push(vitestOutcome('unit and API (Vitest)', readJson(VITEST_REPORT), unit, vitest.output));

const E2E = 'e2e (Playwright)';
const build = chromium === 0 ? buildWebOnce() : 1;
if (chromium !== 0) outcomes.push(stepFailed(E2E, 'could not start: Chromium is missing', chromium));
else if (build !== 0) outcomes.push(stepFailed(E2E, 'could not start: the web build failed', build));
else {
  const e2e = step('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: E2E_REPORT,
  });
  outcomes.push(playwrightOutcome(E2E, readJson(E2E_REPORT), e2e));
}

const passed = outcomes.reduce((sum, o) => sum + o.passed, 0);
const failed = outcomes.reduce((sum, o) => sum + o.failed, 0);
const problems = outcomes.flatMap((o) => o.problems);
if (problems.length) console.log(`\n${problems.map((p) => `  - ${p}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && unit === 0 ? 0 : 1);
