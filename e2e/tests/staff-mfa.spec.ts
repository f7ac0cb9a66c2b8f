import { createGuardrails, generate } from 'otplib';
import { expect, expectNoAxeViolations, submitLogin, test } from '../fixtures.ts';
import { startOwnApi, type OwnApi } from '../own-api.ts';

// The shared e2e API runs with MFA off (staff accounts log in many times in parallel, and a TOTP code
// is single use). This spec starts its own API with the default MFA roles and a web server for it.
const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
const totp = () =>
  generate({ secret: DEMO_TOTP_SECRET, guardrails: createGuardrails({ MIN_SECRET_BYTES: 10 }) });

let own: OwnApi | undefined;
let webOrigin = '';

test.describe('staff login with a second factor (MFA on)', () => {
  test.describe.configure({ mode: 'serial', timeout: 120_000 });

  test.beforeAll(async () => {
    own = await startOwnApi({ name: 'mfa', timeoutMs: 90_000 });
    webOrigin = own.webOrigin;
  });

  test.afterAll(() => own?.stop());

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
