// Every contract × every demo account: the API answers what `can()` and the seed's portal conditions
// say, before it looks at the input. New contracts join the walk by being listed in CONTRACT_MODULES.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, canSome, evaluateAccess, MeResponseSchema, type PermissionCheck, type SessionUser } from '@portale/shared/auth';
import * as dashboard from '@portale/shared/dashboard';
import type { Endpoint } from '@portale/shared/http';
import { buildPath } from '@portale/shared/http';
import * as registry from '@portale/shared/registry';
import * as teachers from '@portale/shared/teachers';
import * as users from '@portale/shared/users';
import { DEMO_ACCOUNTS } from '../src/db/seed.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

const CONTRACT_MODULES: Record<string, unknown>[] = [registry, dashboard, users, teachers];
const isEndpoint = (value: unknown): value is Endpoint =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value;
const ENDPOINTS = CONTRACT_MODULES.flatMap((m) => Object.values(m).filter(isEndpoint));

/** Query a list needs to be valid (the matrix is about who, not about what). */
const VALID_QUERY: Record<string, string> = { '/api/audit': 'entity=user&entityId=1' };
/** Checks a route makes on top of its contract's permission, for the input above. */
const ALSO_NEEDS: Record<string, PermissionCheck> = { '/api/audit': 'read:user' };
/** What an allowed caller gets for the input above when it is not 200: the empty body reaches validation. */
const WHEN_ALLOWED: Record<string, number> = { 'POST /api/users': 422 };
const UNKNOWN_ID = 987_654_321;
const PORTAL = { guards: ['auth', 'update-password', 'has-verified-all-contacts', 'sign-principal-document'] as const };

let t: TestApp;
const sessions = new Map<string, { client: ApiClient; user: SessionUser }>();

beforeAll(async () => {
  t = await buildTestApp();
  for (const account of DEMO_ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    await client.login(account.email);
    sessions.set(account.email, { client, user: MeResponseSchema.parse((await client.get('/api/auth/me')).json()).user });
  }
}, 180_000);
afterAll(() => t.close());

function urlOf(endpoint: Endpoint): string {
  const path = buildPath(endpoint.path, Object.fromEntries([...endpoint.path.matchAll(/:(\w+)/g)].map((m) => [m[1]!, UNKNOWN_ID])));
  const query = VALID_QUERY[endpoint.path];
  return query ? `${path}?${query}` : path;
}

it('walks every contract, and every contract states its permission', () => {
  expect(ENDPOINTS.length).toBeGreaterThanOrEqual(10);
  for (const endpoint of ENDPOINTS) expect(endpoint.permission, `${endpoint.method} ${endpoint.path}`).toBeDefined();
});

describe.each(ENDPOINTS.filter((e) => e.permission !== 'public').map((e) => [`${e.method} ${e.path}`, e] as const))('%s', (_name, endpoint) => {
  const check = endpoint.permission as Exclude<Endpoint['permission'], 'public' | undefined>;
  const hasRecord = endpoint.path.includes('/:');

  it('a guest gets 401 whatever the input', async () => {
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    const url = `${urlOf(endpoint)}${urlOf(endpoint).includes('?') ? '&' : '?'}page=-1`;
    const res = await guest.send(endpoint.method, url, endpoint.body ? { payload: { x: 1 } } : {});
    expect(res.statusCode).toBe(401);
  });

  it('each demo account gets what can() and the portal conditions say', async () => {
    for (const [email, { client, user }] of sessions) {
      const res = await client.send(endpoint.method, urlOf(endpoint), endpoint.body ? { payload: {} } : {});
      const conditions = evaluateAccess(PORTAL, user).kind === 'allow';
      // A record that does not exist: 404 for whoever may hold the grant on some record, 403 otherwise.
      const extra = ALSO_NEEDS[endpoint.path];
      const allowed = can(user, check) && (!extra || can(user, extra));
      const whenAllowed = WHEN_ALLOWED[`${endpoint.method} ${endpoint.path}`] ?? 200;
      const expected = !conditions ? 403 : hasRecord ? (canSome(user, check) ? 404 : 403) : allowed ? whenAllowed : 403;
      expect(res.statusCode, `${email} ${res.body.slice(0, 120)}`).toBe(expected);
    }
  });
});
