import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createGuardrails, generate } from 'otplib';
import { expect, expectNoAxeViolations, submitLogin, test } from '../fixtures.ts';
import { freePort } from '../ports.ts';

// The shared e2e API runs with MFA off (staff accounts log in many times in parallel, and a TOTP code
// is single use). This spec starts its own API with the default MFA roles and a web server for it.
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
const totp = () =>
  generate({ secret: DEMO_TOTP_SECRET, guardrails: createGuardrails({ MIN_SECRET_BYTES: 10 }) });

let api: ChildProcess | undefined;
let web: ChildProcess | undefined;
let webOrigin = '';

async function waitFor(url: string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (
      await fetch(url)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer in time`);
}

test.describe('staff login with a second factor (MFA on)', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });

  test.beforeAll(async () => {
    const [apiPort, webPort] = [await freePort(), await freePort()];
    webOrigin = `http://localhost:${webPort}`;
    api = spawn(`${repoRoot}node_modules/.bin/tsx`, ['apps/api/src/server.ts'], {
      cwd: repoRoot,
      stdio: 'ignore',
      env: {
        ...process.env,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(apiPort),
        PGLITE_DIR: 'memory://',
        SEED_REGISTRY: 'none',
        WEB_ORIGIN: webOrigin,
        LOG_LEVEL: 'warn',
        MAIL_DIR: `${repoRoot}var/e2e/mfa-mail`,
        SMS_DIR: `${repoRoot}var/e2e/mfa-sms`,
      },
    });
    const webRoot = process.env.E2E_WEB_ROOT ?? `${repoRoot}apps/web`;
    web = spawn(process.execPath, [`${webRoot}/server/serve.mjs`], {
      cwd: repoRoot,
      stdio: 'ignore',
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(webPort),
        API_ORIGIN: `http://localhost:${apiPort}`,
        LOG_LEVEL: 'warn',
      },
    });
    await waitFor(`http://127.0.0.1:${apiPort}/api/health`);
    await waitFor(`http://127.0.0.1:${webPort}/build.json`);
  });

  test.afterAll(() => {
    api?.kill('SIGTERM');
    web?.kill('SIGTERM');
  });

  test('the password alone opens no session; a wrong code is refused; the TOTP code signs in', async ({
    page,
    context,
  }) => {
    await page.goto(`${webOrigin}/auth/login`);
    await submitLogin(page, 'sylla@demo.test');
    await expect(page.getByRole('heading', { level: 1, name: 'Verifica in due passaggi' })).toBeVisible();
    expect((await context.cookies()).map((c) => c.name)).not.toContain('auth._refresh_token.local');
    await expectNoAxeViolations(page);

    await page.getByLabel('Codice di verifica o codice di recupero').fill('000000');
    await page.getByRole('button', { name: 'Verifica', exact: true }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login$/);

    await page.getByLabel('Codice di verifica o codice di recupero').fill(await totp());
    await page.getByRole('button', { name: 'Verifica', exact: true }).click();
    await page.waitForURL(`${webOrigin}/portale`);
    await expect(page.getByRole('heading', { level: 1, name: 'Benvenuta/o, Stefano' })).toBeVisible();
    expect((await context.cookies()).map((c) => c.name)).toContain('auth._refresh_token.local');
    await expectNoAxeViolations(page);
  });
});
