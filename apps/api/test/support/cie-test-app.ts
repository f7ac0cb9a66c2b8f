import { cieStart } from '@portale/shared/identity';
import { buildTestApp, type TestApp } from '../build-test-app.ts';
import type { ApiClient } from '../http-client.ts';
import {
  loginAtProvider,
  startOidcProvider,
  type TestOidcProvider,
  type TestPerson,
} from './oidc-provider.ts';

/** The API's public base in the CIE tests: the provider sends the browser back under it. */
export const CIE_REDIRECT_BASE = 'http://api.test';
export const CIE_REDIRECT_URI = `${CIE_REDIRECT_BASE}/api/auth/cie/callback`;

/** A local CIE provider and a test API configured with it (decision 048); `close` stops both. */
export async function startCieTestApp(env: Record<string, string> = {}) {
  const op: TestOidcProvider = await startOidcProvider(CIE_REDIRECT_URI);
  const t: TestApp = await buildTestApp({
    CIE_ISSUER: op.issuer,
    CIE_CLIENT_ID: op.clientId,
    CIE_PRIVATE_JWK: JSON.stringify(op.privateJwk),
    CIE_REDIRECT_BASE,
    ...env,
  });
  return {
    op,
    t,
    close: async () => {
      await t.close();
      await op.close();
    },
  };
}

/**
 * The browser logs in with CIE as `person`: our start, the provider, our callback. Returns the result
 * page's URL the callback sends it to (`?esito=accesso|collega|registrazione|errore`).
 */
export async function loginWithCie(c: ApiClient, op: TestOidcProvider, person: TestPerson): Promise<URL> {
  const start = await c.get(cieStart.path);
  op.next(person);
  const back = await loginAtProvider(start.headers.location!, CIE_REDIRECT_URI);
  const callback = await c.get(`${back.pathname}${back.search}`);
  return new URL(callback.headers.location!);
}
