import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBodySchema, AUTH_PATHS, ERROR_MESSAGES } from '@portale/shared/http';
import { buildApp } from '../src/app.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

let t: TestApp;
let c: ApiClient;
beforeAll(async () => {
  t = await buildTestApp();
  c = new ApiClient(t, nextIp());
  await c.csrf();
});
afterAll(() => t.close());

function expectNoInternals(body: string) {
  expect(body).not.toMatch(/\bat .+\.(ts|js):\d+/);
  expect(body).not.toMatch(/stack|FST_|node_modules|SyntaxError/i);
}

describe('error shape', () => {
  it('answers an unknown route with a 404 JSON body in Italian', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['GET', '/'],
      ['POST', '/api/nope'],
    ] as const) {
      const res = await c.send(method, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ statusCode: 404, code: 'not_found', message: ERROR_MESSAGES.notFound });
    }
  });

  it('answers a text/plain body with 415', async () => {
    const res = await c.post(AUTH_PATHS.login, 'email=a&password=b', {
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      statusCode: 415,
      code: 'unsupported_media_type',
      message: ERROR_MESSAGES.unsupportedMediaType,
    });
  });

  it('answers a form-encoded body with 415 too', async () => {
    const res = await c.post(AUTH_PATHS.login, 'email=a&password=b', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(415);
  });

  it('answers invalid JSON with 400 and no parser details', async () => {
    const res = await c.post(AUTH_PATHS.login, '{"email": "a@b.it", ', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      code: 'bad_request',
      message: 'La richiesta non è valida.',
    });
    expectNoInternals(res.body);
  });

  it('answers a validation failure with 422 and the errors of each field', async () => {
    const res = await c.post(AUTH_PATHS.login, { email: 'a'.repeat(300), password: 42 });
    expect(res.statusCode).toBe(422);
    const body = ApiErrorBodySchema.parse(res.json());
    expect(body).toMatchObject({
      statusCode: 422,
      code: 'validation_failed',
      message: ERROR_MESSAGES.validation,
    });
    expect(Object.keys(body.errors ?? {}).sort()).toEqual(['email', 'password']);
    for (const messages of Object.values(body.errors ?? {})) expect(messages.length).toBeGreaterThan(0);
    expectNoInternals(res.body);
  });

  it('reports a missing field under its own name', async () => {
    const res = await c.post(AUTH_PATHS.login, { email: 'superadmin@demo.test' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['password']);
  });

  it('answers an oversized body with 413', async () => {
    const res = await c.post(AUTH_PATHS.login, { email: 'a@b.it', password: 'x'.repeat(1_100_000) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ statusCode: 413, code: 'payload_too_large' });
  });

  it('answers an unsupported method with the one error shape', async () => {
    const res = await c.send('DELETE', AUTH_PATHS.me);
    expect([404, 405]).toContain(res.statusCode);
    ApiErrorBodySchema.parse(res.json());
  });

  it('keeps the same shape on 401, 403 and 419', async () => {
    const unauth = await t.app.inject({ method: 'GET', url: AUTH_PATHS.me });
    const cross = await t.app.inject({
      method: 'POST',
      url: AUTH_PATHS.logout,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    const csrf = await t.app.inject({ method: 'POST', url: AUTH_PATHS.logout });
    for (const res of [unauth, cross, csrf]) {
      const body = ApiErrorBodySchema.parse(res.json());
      expect(body.statusCode).toBe(res.statusCode);
      expectNoInternals(res.body);
    }
    expect([unauth.statusCode, cross.statusCode, csrf.statusCode]).toEqual([401, 403, 419]);
  });

  it('answers an unexpected error with 500, the generic Italian message and no internals', async () => {
    const app = await buildApp({ env: t.env, database: t.database, clock: t.clock, logger: false });
    app.get('/api/test/boom', async () => {
      throw new Error('segreto interno: password=xyz');
    });
    await app.ready();
    try {
      const res = await app.inject({ method: 'GET', url: '/api/test/boom' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        statusCode: 500,
        code: 'internal_error',
        message: ERROR_MESSAGES.internal,
      });
      expect(res.body).not.toContain('segreto');
      expectNoInternals(res.body);
    } finally {
      await app.close();
    }
  });
});
