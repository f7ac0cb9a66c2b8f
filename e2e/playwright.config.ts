import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { freePort } from './ports.ts';
import { prepareTrust } from './trust.ts';
import { snapshotWebBuild } from './web-snapshot.ts';
import { CHROMIUM_FLAGS, TEST_CHROMIUM_PATH } from '../scripts/lib/chromium.mjs';

// The runner loads this file first and picks two free ports; workers load it again and inherit the
// same ports through the environment, so every process agrees on the URLs.
process.env.E2E_API_PORT ??= String(await freePort());
process.env.E2E_WEB_PORT ??= String(await freePort());
// A spare web origin the shared API admits too: a spec's own copy of the web build (own-api.ts, startWebCopy).
process.env.E2E_SPARE_WEB_PORT ??= String(await freePort());
const apiPort = process.env.E2E_API_PORT;
const webPort = process.env.E2E_WEB_PORT;
// `localhost` (not 127.0.0.1) in URLs: Secure cookies need a potentially trustworthy origin.
const webOrigin = `http://localhost:${webPort}`;
const apiOrigin = `http://localhost:${apiPort}`;
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
// The working tree is shared: serve a private copy of the web build so that a rebuild elsewhere
// during the run cannot swap the hashed chunks under the running app.
process.env.E2E_WEB_ROOT ??= snapshotWebBuild(repoRoot);
const webRoot = process.env.E2E_WEB_ROOT;
// The run's qualified test CA and the trusted list that names it (e2e/trust.ts), made once by the runner.
if (!process.env.E2E_TRUST_DIR) {
  process.env.E2E_TRUST_DIR = `${repoRoot}var/e2e/trust`;
  process.env.E2E_TRUST_ENV = JSON.stringify(await prepareTrust(process.env.E2E_TRUST_DIR));
}
const trustEnv = JSON.parse(process.env.E2E_TRUST_ENV ?? '{}') as Record<string, string>;

/** Debian's Chromium, as every project drives it: the tests never download a browser. */
const CHROMIUM_USE = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    // Debian's Chromium headless shell: the tests never download a browser.
    executablePath: TEST_CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS],
  },
};

export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results/e2e-artifacts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  // A budget against hangs, not a speed check: slow CI machines have run tests 3–5× slower than a fast one.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  // scripts/test.mjs sets PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/e2e.json: resolve it from the repo root.
  reporter: [['list'], ['json', { outputDir: '..' }]],
  globalTeardown: './global-teardown.ts',
  use: {
    baseURL: webOrigin,
    locale: 'it-IT',
    timezoneId: 'Europe/Rome',
    // Bootstrap scrolls smoothly unless reduced motion is asked for; a click computed while the page
    // is still scrolling lands beside its target (CI on 2026-11-28: a forced check of a survey's
    // audience radio "did not change its state"). Every test asks for it; none checks the animation.
    reducedMotion: 'reduce',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
  },
  projects: [
    {
      name: 'chromium',
      // Journeys change what the other specs rely on (e.g. close the demo open survey): they run last.
      testIgnore: '**/journeys/**',
      use: CHROMIUM_USE,
    },
    {
      name: 'journeys',
      testMatch: '**/journeys/**/*.spec.ts',
      dependencies: ['chromium'],
      use: CHROMIUM_USE,
    },
  ],
  webServer: [
    {
      name: 'api',
      command: 'node_modules/.bin/tsx apps/api/src/server.ts',
      cwd: repoRoot,
      url: `http://127.0.0.1:${apiPort}/api/health`,
      reuseExistingServer: false,
      // A cold start migrates and seeds the embedded database: ~40 s on a quiet machine, past 2 min
      // on a loaded one.
      timeout: 300_000,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      env: {
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: apiPort,
        PGLITE_DIR: 'memory://',
        SEED_REGISTRY: 'sample',
        WEB_ORIGIN: `${webOrigin},http://localhost:${process.env.E2E_SPARE_WEB_PORT}`,
        LOG_LEVEL: 'warn',
        LOGIN_IP_MAX_FAILURES: '1000',
        RATE_LIMIT_MAX: '100000',
        // Every browser of the suite is one address (127.0.0.1): no share of the hourly ceilings per client.
        GLOBAL_CLIENT_SHARE_PERCENT: '100',
        // Staff second factor off here (TOTP codes are single use, staff log in many times in parallel);
        // tests/staff-mfa.spec.ts starts its own API with MFA on.
        MFA_ROLES: '',
        MAIL_DIR: `${repoRoot}var/e2e/mail`,
        SMS_DIR: `${repoRoot}var/e2e/sms`,
        OUTBOX_POLL_MS: '200',
        ...trustEnv,
      },
    },
    {
      name: 'web',
      command: `node ${JSON.stringify(`${webRoot}/server/serve.mjs`)}`,
      cwd: repoRoot,
      url: `http://127.0.0.1:${webPort}/build.json`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      env: { HOST: '127.0.0.1', PORT: webPort, API_ORIGIN: apiOrigin, LOG_LEVEL: 'warn' },
    },
  ],
});
