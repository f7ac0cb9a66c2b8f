import { expect, request, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD } from './demo-accounts.ts';

const API_ORIGIN = `http://localhost:${process.env.E2E_API_PORT}`;

/** An API session of a demo account (MFA is off in e2e), for the set-up the UI does not need to show. */
export async function apiAs(
  webOrigin: string,
  email: string,
  password: string = DEMO_PASSWORD,
): Promise<{ api: APIRequestContext; headers: Record<string, string> }> {
  const api = await request.newContext({ baseURL: API_ORIGIN, extraHTTPHeaders: { origin: webOrigin } });
  await api.head('/sanctum/csrf-cookie');
  const xsrf = (await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
  const login = await api.post('/api/auth/login', {
    headers: { 'x-xsrf-token': xsrf },
    data: { email, password },
  });
  expect(login.status(), await login.text()).toBe(200);
  // The session cookie pair rotates at login: send the new anti-forgery token.
  const fresh = (await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
  return { api, headers: { 'x-xsrf-token': fresh, authorization: `Bearer ${(await login.json()).token}` } };
}
