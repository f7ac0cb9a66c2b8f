import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiErrorBodySchema, AUTH_PATHS } from '@portale/shared/http';
import { users } from '../src/db/schema/index.ts';
import { declaredKeys } from '../src/lib/request-validation.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

let t: TestApp;
let staff: ApiClient;
let teacher: ApiClient;

async function loggedIn(email: string): Promise<ApiClient> {
  const client = new ApiClient(t, nextIp());
  const res = await client.login(email);
  expect(res.statusCode, res.body).toBe(200);
  return client;
}

beforeAll(async () => {
  t = await buildTestApp({}, { registry: 'sample' });
  staff = await loggedIn('superadmin@demo.test');
  teacher = await loggedIn('insegnante@demo.test');
});
afterAll(() => t.close());

function expectUnknownField(res: { statusCode: number; json(): unknown; body: string }, message: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(ApiErrorBodySchema.parse(res.json())).toEqual({ statusCode: 400, code: 'unknown_field', message });
}

describe('unknown fields in bodies are refused, not dropped', () => {
  it('login: a field the schema does not declare gets 400 naming it, and nobody is logged in', async () => {
    const client = new ApiClient(t, nextIp());
    await client.csrf();
    const res = await client.post(AUTH_PATHS.login, {
      email: 'insegnante@demo.test',
      password: 'Portale.Demo.2026',
      foo: 1,
    });
    expectUnknownField(res, 'Campo non previsto: «foo».');
    expect(res.headers['set-cookie'] ?? []).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/refresh/i)]),
    );
  });

  it('names every unknown field (at most five), shortened and printable', async () => {
    const client = new ApiClient(t, nextIp());
    await client.csrf();
    const res = await client.post(AUTH_PATHS.login, {
      email: 'a@b.it',
      password: 'x',
      role: 'super-admin',
      'x\u0000y': 1,
    });
    expectUnknownField(res, 'Campi non previsti: «role», «x?y».');
    const long = await client.post(AUTH_PATHS.login, {
      email: 'a@b.it',
      password: 'x',
      ['k'.repeat(500)]: 1,
      a: 1,
      b: 2,
      c: 3,
      d: 4,
      e: 5,
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(`Campi non previsti: «${'k'.repeat(40)}…», «a», «b», «c», «d», ….`);
  });

  it('keeps 422 for invalid values of declared fields', async () => {
    const client = new ApiClient(t, nextIp());
    await client.csrf();
    const res = await client.post(AUTH_PATHS.login, { email: 42, password: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', errors: { email: expect.any(Array) } });
  });

  it('PATCH of a user with a role field (not `roles`) gets 400 and changes nothing', async () => {
    const [target] = await t.database.db.select().from(users).where(eq(users.email, 'rilevatore@demo.test'));
    const res = await staff.send('PATCH', `/api/users/${target!.id}`, {
      payload: { firstName: 'Mallory', role: 'super-admin' },
    });
    expectUnknownField(res, 'Campo non previsto: «role».');
    const [after] = await t.database.db.select().from(users).where(eq(users.id, target!.id));
    expect(after!.firstName).toBe(target!.firstName);
    expect(after!.updatedAt).toEqual(target!.updatedAt);
  });

  it('PATCH of the own profile with an extra field gets 400 and changes nothing', async () => {
    const before = await teacher.get('/api/account/profile');
    expect(before.statusCode).toBe(200);
    const res = await teacher.send('PATCH', '/api/account/profile', {
      payload: { subjects: ['Storia dell’arte'], mustChangePassword: false },
    });
    expectUnknownField(res, 'Campo non previsto: «mustChangePassword».');
    expect((await teacher.get('/api/account/profile')).json()).toEqual(before.json());
  });

  it('a prototype key is refused too, and Object.prototype is untouched', async () => {
    const client = new ApiClient(t, nextIp());
    await client.csrf();
    const res = await client.post(
      AUTH_PATHS.login,
      '{"email":"a@b.it","password":"x","constructor":{"prototype":{"polluted":1}}}',
      {
        headers: { 'content-type': 'application/json' },
      },
    );
    expect(res.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('unknown fields in query strings are refused, not dropped', () => {
  it('a registry list with an undeclared key gets 400 naming it', async () => {
    expectUnknownField(await staff.get('/api/institutes?province=RM&foo=bar'), 'Campo non previsto: «foo».');
    expectUnknownField(await staff.get('/api/school-sites?_=1700000000000'), 'Campo non previsto: «_».');
    expect((await staff.get('/api/institutes?province=RM')).statusCode).toBe(200);
  });

  it('keeps 422 for an invalid value of a declared key', async () => {
    const res = await staff.get('/api/institutes?sort=bogus');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', errors: { sort: expect.any(Array) } });
  });

  it('the grant is still checked first: 401 for an anonymous caller, 403 for a teacher', async () => {
    const guest = new ApiClient(t, nextIp());
    expect((await guest.get('/api/institutes?foo=bar')).statusCode).toBe(401);
    expect((await teacher.get('/api/users?foo=bar')).statusCode).toBe(403);
  });
});

describe('a route whose contract declares no query or no body refuses one', () => {
  it('a query on a query-less route gets 400 naming its keys; none still works', async () => {
    expectUnknownField(await teacher.get(`${AUTH_PATHS.me}?foo=1`), 'Campo non previsto: «foo».');
    expect((await teacher.get(AUTH_PATHS.me)).statusCode).toBe(200);
  });

  it('a body with fields on a body-less route gets 400 naming them, and the session is not ended', async () => {
    const client = await loggedIn('insegnante@demo.test');
    expectUnknownField(
      await client.post(AUTH_PATHS.logout, { everywhere: true }),
      'Campo non previsto: «everywhere».',
    );
    expect((await client.get(AUTH_PATHS.me)).statusCode).toBe(200);
    const text = await client.post(AUTH_PATHS.logout, '"x"', {
      headers: { 'content-type': 'application/json' },
    });
    expect(text.statusCode, text.body).toBe(400);
    expect(text.json()).toEqual({
      statusCode: 400,
      code: 'unexpected_body',
      message: 'Questa richiesta non prevede dati nel corpo.',
    });
    expect((await client.get(AUTH_PATHS.me)).statusCode).toBe(200);
    // An empty JSON object is no data: the logout goes through.
    expect((await client.post(AUTH_PATHS.logout, {})).statusCode).toBeLessThan(300);
    expect((await client.get(AUTH_PATHS.me)).statusCode).toBe(401);
  });

  it('the session is still checked first: 401 for an anonymous caller', async () => {
    expect((await new ApiClient(t, nextIp()).get(`${AUTH_PATHS.me}?foo=1`)).statusCode).toBe(401);
  });
});

describe('declaredKeys', () => {
  it('reads the keys through wrappers, pipes and unions', () => {
    const base = z.object({ a: z.string(), b: z.number().optional() });
    expect([...declaredKeys(base)!]).toEqual(['a', 'b']);
    expect([...declaredKeys(base.refine(() => true).optional())!]).toEqual(['a', 'b']);
    expect([...declaredKeys(base.transform((v) => v.a))!]).toEqual(['a', 'b']);
    expect([...declaredKeys(z.strictObject({ s: z.string() }))!]).toEqual(['s']);
    expect([...declaredKeys(z.union([base, z.object({ c: z.string() })]))!].sort()).toEqual(['a', 'b', 'c']);
  });

  it('declares no fixed set for records, loose objects and non-objects', () => {
    expect(declaredKeys(z.record(z.string(), z.string()))).toBeUndefined();
    expect(declaredKeys(z.looseObject({ a: z.string() }))).toBeUndefined();
    expect(declaredKeys(z.object({ a: z.string() }).catchall(z.string()))).toBeUndefined();
    expect(declaredKeys(z.array(z.string()))).toBeUndefined();
    expect(declaredKeys(z.union([z.object({ a: z.string() }), z.string()]))).toBeUndefined();
  });
});
