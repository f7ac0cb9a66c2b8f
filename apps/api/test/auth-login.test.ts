import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MeResponseSchema, TokenResponseSchema } from '@portale/shared/auth';
import { AUTH_COOKIES, AUTH_PATHS, ERROR_MESSAGES, HTTP_DEFAULTS } from '@portale/shared/http';
import { accessTokens, refreshTokens } from '../src/db/schema/index.ts';
import { sha256 } from '../src/lib/crypto.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp, setCookieLine } from './http-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const client = () => new ApiClient(t, nextIp());

describe('GET/HEAD /sanctum/csrf-cookie', () => {
  it('sets a readable XSRF-TOKEN cookie of the form nonce.signature and answers 204', async () => {
    for (const method of ['HEAD', 'GET'] as const) {
      const c = client();
      const res = await c.send(method, AUTH_PATHS.csrf);
      expect(res.statusCode).toBe(204);
      const line = setCookieLine(res, HTTP_DEFAULTS.xsrfCookie)!;
      expect(line).toBeDefined();
      expect(line).not.toMatch(/HttpOnly/i);
      expect(line).toMatch(/Path=\//);
      expect(line).toMatch(/SameSite=Lax/i);
      expect(c.cookie(HTTP_DEFAULTS.xsrfCookie)).toMatch(/^[\w-]+\.[\w-]+$/);
    }
  });
});

describe('POST /api/auth/login', () => {
  it('answers a Bearer token <id>|<secret> with its lifetime', async () => {
    const c = client();
    const res = await c.login('superadmin@demo.test');
    expect(res.statusCode).toBe(200);
    const body = TokenResponseSchema.parse(res.json());
    expect(body.token_type).toBe('Bearer');
    expect(body.token).toMatch(/^\d+\|[A-Za-z0-9_-]{20,}$/);
    expect(body.expires_in).toBe(t.env.ACCESS_TOKEN_TTL);
  });

  it('sets the refresh token as an HttpOnly, Secure, SameSite=Lax cookie and rotates XSRF-TOKEN', async () => {
    const c = client();
    await c.csrf();
    const before = c.cookie(HTTP_DEFAULTS.xsrfCookie);
    const res = await c.login('sylla@demo.test');
    const line = setCookieLine(res, AUTH_COOKIES.refreshToken)!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/Secure/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Max-Age=2592000/);
    expect(c.cookie(HTTP_DEFAULTS.xsrfCookie)).toBeDefined();
    expect(c.cookie(HTTP_DEFAULTS.xsrfCookie)).not.toBe(before);
  });

  it('stores only SHA-256 hashes of the access and refresh secrets', async () => {
    const c = client();
    await c.login('cromos@demo.test');
    const [id, secret] = c.token!.split('|') as [string, string];
    const [row] = await t.database.db
      .select()
      .from(accessTokens)
      .where(eq(accessTokens.id, Number(id)));
    expect(row!.tokenHash).toBe(sha256(secret));
    expect(row!.tokenHash).not.toContain(secret);
    const refresh = c.refreshCookie()!;
    const stored = await t.database.db.select().from(refreshTokens);
    expect(stored.some((r) => r.tokenHash === sha256(refresh))).toBe(true);
    expect(stored.some((r) => r.tokenHash === refresh)).toBe(false);
  });

  it('accepts the e-mail in any case and with surrounding spaces', async () => {
    const res = await client().login('  Rilevatore@Demo.TEST ');
    expect(res.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown e-mail with the same 401 status and body', async () => {
    const wrong = await client().login('superadmin@demo.test', 'Sbagliata.2026');
    const unknown = await client().login('nessuno@demo.test', 'Sbagliata.2026');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({
      statusCode: 401,
      code: 'invalid_credentials',
      message: ERROR_MESSAGES.badCredentials,
    });
    expect(setCookieLine(wrong, AUTH_COOKIES.refreshToken)).toBeUndefined();
  });

  it('refuses a login without X-XSRF-TOKEN with 419 and the Italian message', async () => {
    const c = client();
    await c.csrf();
    const res = await c.post(
      AUTH_PATHS.login,
      { email: 'superadmin@demo.test', password: 'Portale.Demo.2026' },
      { xsrf: false },
    );
    expect(res.statusCode).toBe(419);
    expect(res.json()).toEqual({
      statusCode: 419,
      code: 'csrf_token_mismatch',
      message: ERROR_MESSAGES.csrf,
    });
  });

  it('refuses a login without the XSRF-TOKEN cookie even when the header is sent', async () => {
    const c = client();
    await c.csrf();
    const value = c.cookie(HTTP_DEFAULTS.xsrfCookie)!;
    c.jar.clear();
    const res = await c.post(
      AUTH_PATHS.login,
      { email: 'superadmin@demo.test', password: 'x' },
      { headers: { 'x-xsrf-token': value } },
    );
    expect(res.statusCode).toBe(419);
  });

  it('refuses an XSRF value forged as both cookie and header', async () => {
    const c = client();
    for (const forged of ['abc.def', 'forged', `${'a'.repeat(22)}.${'b'.repeat(43)}`]) {
      c.setCookie(HTTP_DEFAULTS.xsrfCookie, forged);
      const res = await c.post(AUTH_PATHS.login, {
        email: 'superadmin@demo.test',
        password: 'Portale.Demo.2026',
      });
      expect(res.statusCode).toBe(419);
    }
  });

  it('refuses an XSRF token issued for another session', async () => {
    const alice = client();
    const bob = client();
    await alice.login('superadmin@demo.test');
    await bob.login('cromos@demo.test');
    const res = await bob.post(AUTH_PATHS.logout, undefined, {
      headers: { 'x-xsrf-token': alice.cookie(HTTP_DEFAULTS.xsrfCookie)! },
    });
    expect(res.statusCode).toBe(419);
    bob.setCookie(HTTP_DEFAULTS.xsrfCookie, alice.cookie(HTTP_DEFAULTS.xsrfCookie)!);
    expect((await bob.post(AUTH_PATHS.logout)).statusCode).toBe(419);
    expect((await bob.get(AUTH_PATHS.me)).statusCode).toBe(200);
  });

  it('answers 422 with per-field Italian errors for an empty body', async () => {
    const c = client();
    await c.csrf();
    const res = await c.post(AUTH_PATHS.login, { email: '', password: '' });
    expect(res.statusCode).toBe(422);
    const body = res.json<{ code: string; errors: Record<string, string[]> }>();
    expect(body.code).toBe('validation_failed');
    expect(body.errors.email).toEqual(['Inserisci l’indirizzo e-mail.']);
    expect(body.errors.password).toEqual(['Inserisci la password.']);
  });
});

describe('GET /api/auth/me', () => {
  it('returns {user} with scope = roles followed by permissions', async () => {
    const c = client();
    await c.login('utenti@demo.test');
    const res = await c.get(AUTH_PATHS.me);
    expect(res.statusCode).toBe(200);
    const { user } = MeResponseSchema.parse(res.json());
    expect(user).toMatchObject({
      email: 'utenti@demo.test',
      roles: [],
      permissions: ['user.index'],
      scope: ['user.index'],
    });
    expect(Object.keys(res.json())).toEqual(['user']);
    expect(res.json().user).not.toHaveProperty('passwordHash');
    expect(res.json().user).not.toHaveProperty('status');

    const admin = client();
    await admin.login('superadmin@demo.test');
    const me = MeResponseSchema.parse((await admin.get(AUTH_PATHS.me)).json()).user;
    expect(me.scope).toEqual([...me.roles, ...me.permissions]);
    expect(me.roles).toEqual(['super-admin']);
    expect(me.lastLoginAt).toBe(t.clock.now().toISOString());
  });

  it('reports the pending conditions of the demo accounts', async () => {
    const expectations = {
      'cambio-password@demo.test': { mustChangePassword: true },
      'da-verificare@demo.test': { phoneVerified: false, emailVerified: true },
      'dirigente-senza-firma@demo.test': { mustSignPrincipalDocument: true },
      'dirigente@demo.test': { mustSignPrincipalDocument: false, roles: ['school.principal'] },
    };
    for (const [email, expected] of Object.entries(expectations)) {
      const c = client();
      await c.login(email);
      expect((await c.get(AUTH_PATHS.me)).json().user, email).toMatchObject(expected);
    }
  });

  it.each([
    undefined,
    'Bearer nonsense',
    'Bearer 1|short',
    'Bearer 999999|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    'Basic dXNlcjpwYXNz',
  ])('answers 401 for authorization %j', async (authorization) => {
    const res = await t.app.inject({
      method: 'GET',
      url: AUTH_PATHS.me,
      headers: authorization ? { authorization } : {},
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ statusCode: 401, code: 'unauthenticated' });
  });

  it('refuses a token whose secret does not match its id', async () => {
    const c = client();
    await c.login('sylla@demo.test');
    const [id] = c.token!.split('|');
    c.token = `${id}|${'x'.repeat(43)}`;
    expect((await c.get(AUTH_PATHS.me)).statusCode).toBe(401);
  });

  it('never reads the token from the query string', async () => {
    const c = client();
    await c.login('sylla@demo.test');
    const res = await t.app.inject({
      method: 'GET',
      url: `${AUTH_PATHS.me}?token=${encodeURIComponent(c.token!)}`,
    });
    expect(res.statusCode).toBe(401);
  });
});
