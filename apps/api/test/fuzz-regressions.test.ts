import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBodySchema, ERROR_MESSAGES } from '@portale/shared/http';
import { schoolSites } from '../src/db/schema/index.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

/** The failing cases the fuzz run (fuzz.test.ts) found, kept as they were sent. */

let t: TestApp;
let staff: ApiClient;
let teacher: ApiClient;
let siteId: number;

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
  const [site] = await t.database.db.select({ id: schoolSites.id }).from(schoolSites).limit(1);
  siteId = site!.id;
});
afterAll(() => t.close());

function expectFieldError(res: { statusCode: number; body: string; json(): unknown }, field: string) {
  expect(res.statusCode, res.body).toBe(422);
  expect(ApiErrorBodySchema.parse(res.json())).toEqual({
    statusCode: 422,
    code: 'validation_failed',
    message: ERROR_MESSAGES.validation,
    errors: { [field]: ['Contiene un carattere non ammesso.'] },
  });
}

describe('text PostgreSQL cannot store is refused on its field (was 500)', () => {
  it('a NUL in a search query', async () => {
    expectFieldError(await staff.get('/api/school-sites/export?region=Molise&format=csv&q=a%00b'), 'q');
    expectFieldError(await staff.get('/api/institutes?q=%00'), 'q');
  });

  it('a NUL in a body field, and nothing is written', async () => {
    const [before] = await t.database.db.select().from(schoolSites).where(eq(schoolSites.id, siteId));
    expectFieldError(
      await staff.send('PATCH', `/api/school-sites/${siteId}`, {
        payload: { name: 'Plesso\u0000', postalCode: '54534' },
      }),
      'name',
    );
    const [after] = await t.database.db.select().from(schoolSites).where(eq(schoolSites.id, siteId));
    expect(after).toEqual(before);
  });

  it('a lone surrogate, which jsonb refuses (the audit log, a list of subjects)', async () => {
    expectFieldError(
      await staff.send('PATCH', `/api/school-sites/${siteId}`, {
        payload: { name: 'Nome', address: 'via \uD800' },
      }),
      'address',
    );
    expectFieldError(
      await teacher.send('PATCH', '/api/account/profile', { payload: { subjects: ['x\uDFFFy'] } }),
      'subjects.0',
    );
  });

  it('well-formed text outside the BMP, RTL marks and quotes are kept', async () => {
    const res = await staff.send('PATCH', `/api/school-sites/${siteId}`, {
      payload: { name: '👩🏽‍🏫 \u202Eplesso\u202C d’Annunzio' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ name: string }>().name).toBe('👩🏽‍🏫 \u202Eplesso\u202C d’Annunzio');
  });
});

describe('URLs the router refuses answer in the one error shape (was Fastify’s own body with its code and the URL)', () => {
  it('a path segment that is not valid percent-encoding: 400', async () => {
    for (const url of [
      '/api/users/%zz/suspend',
      '/api/school-sites/%ED%A0%80',
      '/api/phone-verifications/%/confirm',
    ]) {
      const res = await staff.send(url.endsWith('confirm') || url.endsWith('suspend') ? 'POST' : 'GET', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({
        statusCode: 400,
        code: 'bad_request',
        message: 'La richiesta non è valida.',
      });
    }
  });

  it('a path segment longer than any id: 404, as any other invalid id', async () => {
    for (const url of [`/api/institutes/${'a'.repeat(5000)}`, `/api/users/${'9'.repeat(400)}`]) {
      const res = await staff.get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, code: 'not_found', message: ERROR_MESSAGES.notFound });
    }
  });
});

describe('the OpenAPI document says what the routes answer', () => {
  it('the XSRF cookie route answers 204, and the document says 204 (it said 200)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    expect(res.statusCode).toBe(204);
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses: object }>>;
    }>();
    expect(
      Object.keys(document.paths['/sanctum/csrf-cookie']!.get!.responses).filter((s) => s.startsWith('2')),
    ).toEqual(['204']);
  });

  it('request bodies are documented without room for undeclared fields', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<
        string,
        Record<
          string,
          { requestBody?: { content: Record<string, { schema: { additionalProperties?: unknown } }> } }
        >
      >;
    }>();
    const bodies = Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap((op) =>
        op.requestBody?.content['application/json']
          ? [op.requestBody.content['application/json'].schema]
          : [],
      ),
    );
    expect(bodies.length).toBeGreaterThan(10);
    for (const schema of bodies) expect(schema.additionalProperties).toBe(false);
  });
});

describe('an id has one spelling (`01`, `0x1`, `1e0` named record 1)', () => {
  it.each(['01', '0x1', '1e0', '1.0', '+1', '%201', '1%20'])(
    '/api/institutes/%s is a 404, /api/institutes/1 is not',
    async (raw) => {
      const res = await staff.get(`/api/institutes/${raw}`);
      expect(res.statusCode, res.body).toBe(404);
      expect(ApiErrorBodySchema.parse(res.json()).message).toMatch(/[a-zà-ù]/);
      expect((await staff.get('/api/institutes/1')).statusCode).not.toBe(404);
    },
  );

  it('the OpenAPI document still describes id params', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { parameters?: { name: string; schema: object }[] }>>;
    }>();
    const param = document.paths['/api/institutes/{instituteId}']!.get!.parameters!.find(
      (p) => p.name === 'instituteId',
    )!;
    expect(JSON.stringify(param.schema)).toMatch(/integer|number/);
  });
});
