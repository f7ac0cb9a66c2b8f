import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_PATHS } from '@portale/shared/http';
import { buildTestApp, type TestApp } from './build-test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('GET /api/health', () => {
  it('answers ok with the database status, without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });
});

describe('GET /api/openapi.json', () => {
  it('describes the auth contract and the portal pages', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{
      openapi: string;
      info: { title: string };
      paths: Record<string, Record<string, unknown>>;
    }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Portale Scuole API');
    expect(doc.paths[AUTH_PATHS.login]).toHaveProperty('post');
    expect(doc.paths[AUTH_PATHS.me]).toHaveProperty('get');
    expect(doc.paths[AUTH_PATHS.refresh]).toHaveProperty('post');
    expect(doc.paths[AUTH_PATHS.logout]).toHaveProperty('post');
    expect(doc.paths[AUTH_PATHS.csrf]).toBeDefined();
    expect(doc.paths['/api/portal/pages/portal.users']).toHaveProperty('get');
    expect(doc.paths['/api/openapi.json']).toBeUndefined();
  });

  it('documents the login body fields', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const schema = doc.paths[AUTH_PATHS.login].post.requestBody.content['application/json'].schema;
    expect(Object.keys(schema.properties).sort()).toEqual(['email', 'password']);
    expect(schema.required).toEqual(expect.arrayContaining(['email', 'password']));
  });
});
