import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  SAML_PEOPLE,
  startSamlIdp,
  type TestSamlIdp,
} from '../../apps/api/test/support/saml-idp-fixtures.ts';
import { expect, expectAccessibleAtBothWidths, test } from '../fixtures.ts';
import { freePort } from '../ports.ts';

// The shared e2e API has no SPID: this spec starts a local SAML identity provider (decision 052), an
// API configured with it, and a web server for that API, all on this machine.
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

let api: ChildProcess | undefined;
let web: ChildProcess | undefined;
let idp: TestSamlIdp | undefined;
let webOrigin = '';

async function waitFor(url: string, timeoutMs = 240_000) {
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

test.describe('login with SPID through a local identity provider', () => {
  // A machine shared with other runs may take minutes to start a second API (migrations on PGlite).
  test.describe.configure({ mode: 'serial', timeout: 360_000 });

  test.beforeAll(async () => {
    const [apiPort, webPort] = [await freePort(), await freePort()];
    webOrigin = `http://localhost:${webPort}`;
    const apiOrigin = `http://localhost:${apiPort}`;
    // `localhost` like the API: the provider's form then posts to a same-site ACS.
    idp = await startSamlIdp({ spEntityId: `${apiOrigin}/spid`, host: 'localhost', name: 'SPID di prova' });
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
        MAIL_DIR: `${repoRoot}var/e2e/spid-mail`,
        SMS_DIR: `${repoRoot}var/e2e/spid-sms`,
        SPID_ENTITY_ID: `${apiOrigin}/spid`,
        SPID_BASE_URL: apiOrigin,
        SPID_PRIVATE_KEY: idp.sp.privateKeyPem,
        SPID_CERTIFICATE: idp.sp.certificatePem,
        SPID_IDP_METADATA: idp.metadataFile,
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
        API_ORIGIN: apiOrigin,
        LOG_LEVEL: 'warn',
      },
    });
    await waitFor(`http://127.0.0.1:${apiPort}/api/health`);
    await waitFor(`http://127.0.0.1:${webPort}/build.json`);
  });

  test.afterAll(async () => {
    api?.kill('SIGTERM');
    web?.kill('SIGTERM');
    await idp?.close();
  });

  test('the AgID button lists the provider; a new person comes back with the verified data', async ({
    page,
  }) => {
    await page.goto(`${webOrigin}/auth/login`);
    const button = page.getByRole('button', { name: 'Entra con SPID' });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const provider = page.getByRole('link', { name: 'SPID di prova' });
    await expect(provider).toBeVisible();
    await expectAccessibleAtBothWidths(page);
    // The keyboard: Escape closes the list and the focus is back on the button.
    await provider.focus();
    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(button).toBeFocused();

    idp!.next({ ...SAML_PEOPLE.noEmail, spidCode: `e2e-${Date.now()}` });
    await button.click();
    await provider.click();
    await page.waitForURL(/\/auth\/identita/);
    await expect(page.getByText('Elena', { exact: true })).toBeVisible();
    await expect(page.getByText('Conti', { exact: true })).toBeVisible();
    await expectAccessibleAtBothWidths(page);
  });
});
