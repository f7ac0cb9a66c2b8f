// `npm test`: unit and API suites (Vitest), then the end-to-end suite in Debian's Chromium (Playwright).
// Prints one closing line "N passed, N failed" over both runners.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';

mkdirSync('test-results', { recursive: true });
const step = (cmd, args, env = {}) => spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
const readJson = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined);

const unit = step('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile=test-results/vitest.json']);
const unitReport = readJson('test-results/vitest.json');
let passed = unitReport?.numPassedTests ?? 0;
let failed = unitReport?.numFailedTests ?? (unit === 0 ? 0 : 1);

let e2e = 1;
if (step('node', ['scripts/ensure-chromium.mjs']) === 0 && step('npm', ['run', 'build', '-w', 'apps/web']) === 0) {
  e2e = step('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], { PLAYWRIGHT_JSON_OUTPUT_NAME: 'test-results/e2e.json' });
  const stats = readJson('test-results/e2e.json')?.stats;
  passed += stats?.expected ?? 0;
  failed += (stats?.unexpected ?? 0) + (stats?.flaky ?? 0) * 0 + (stats ? 0 : e2e === 0 ? 0 : 1);
} else {
  failed += 1;
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(unit === 0 && e2e === 0 ? 0 : 1);
