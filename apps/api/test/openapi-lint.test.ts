import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, guestClient, nextIp } from './http-client.ts';

type Schema = Record<string, unknown>;
type Operation = {
  operationId?: string;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  requestBody?: { content: Record<string, unknown> };
};
type OpenApi = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

let t: TestApp;
let doc: OpenApi;
let source: string;
beforeAll(async () => {
  t = await buildTestApp();
  source = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).body;
  doc = JSON.parse(source) as OpenApi;
}, 60_000);
afterAll(() => t.close());

/** OpenAPI 3.0's draft-4 bounds (`exclusiveMinimum: true` beside `minimum`) in the form Ajv 8 reads. */
function toDraft7(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toDraft7);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, toDraft7(v)]));
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[flag] === true) {
      out[flag] = out[bound];
      delete out[bound];
    } else if (out[flag] === false) delete out[flag];
  }
  return out;
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );

describe('the OpenAPI document (issue 34 §9)', () => {
  it('passes the Redocly "recommended" rules with no error', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId} ${p.message} ${p.location[0]?.pointer ?? ''}`);
    expect(errors).toEqual([]);
  });

  it('gives every operation its security, an id, its error answers in the shared error shape, and file bodies their media types', () => {
    for (const { path, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(op.security, where).toBeDefined();
      const errors = Object.keys(op.responses).filter((s) => /^4\d\d$/.test(s));
      expect(errors.length, where).toBeGreaterThan(0);
      // The shared error shape, or (declared by the contract's otherResponses) a body of its own.
      for (const status of errors)
        expect(op.responses[status]!.content!['application/json']!.schema, `${where} ${status}`).toSatisfy(
          (schema: Schema) => schema.$ref === '#/components/schemas/ApiError' || schema.type === 'object',
        );
      if (op.security!.length > 0) expect(errors, where).toEqual(expect.arrayContaining(['401']));
      for (const response of Object.values(op.responses))
        expect(response.content === undefined || Object.keys(response.content).length > 0, where).toBe(true);
    }
    const exportOp = doc.paths['/api/institutes/export']!.get!;
    expect(Object.keys(exportOp.responses['200']!.content!)).toEqual([
      'text/csv',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
    expect(Object.keys(doc.paths['/api/documents']!.post!.requestBody!.content)).toEqual(['application/pdf']);
    // The tus photo uploads (decision 055): contracts like the rest, with their headers and statuses.
    const tus = doc.paths['/api/report-photo-uploads/{uploadId}']!;
    expect(Object.keys(tus).sort()).toEqual(['delete', 'head', 'patch']);
    expect(Object.keys(tus.patch!.requestBody!.content)).toEqual(['application/offset+octet-stream']);
    expect(Object.keys(tus.patch!.responses)).toEqual(expect.arrayContaining(['204', '409', '410', '412']));
    const creation = doc.paths['/api/report-photo-uploads']!.post! as Operation & {
      parameters: { name: string; in: string }[];
    };
    expect(creation.parameters.filter((p) => p.in === 'header').map((p) => p.name)).toEqual([
      'tus-resumable',
      'upload-length',
      'upload-metadata',
    ]);
    expect(Object.keys(creation.responses)).toEqual(
      expect.arrayContaining(['201', '401', '403', '404', '409', '413', '415', '422']),
    );
    expect(doc.paths['/api/auth/login']!.post!.security).toEqual([]);
    expect(doc.paths['/api/institutes']!.get!.security).toEqual([{ bearer: [] }]);
  });

  it('describes the real answers, errors included: sampled bodies validate against their documented schema', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true, nullable: true } as never);
    addFormats.default(ajv);
    const staff = new ApiClient(t, nextIp());
    expect((await staff.login('superadmin@demo.test')).statusCode).toBe(200);
    const guest = await guestClient(t);
    const samples: [ApiClient, 'GET' | 'POST', string, string, unknown?][] = [
      [guest, 'GET', '/api/health', '/api/health'],
      [guest, 'GET', '/api/institutes', '/api/institutes'],
      [staff, 'GET', '/api/institutes?pageSize=10&sort=name', '/api/institutes'],
      [staff, 'GET', '/api/institutes?sort=nope', '/api/institutes'],
      [staff, 'GET', '/api/institutes/987654321', '/api/institutes/{instituteId}'],
      [staff, 'GET', '/api/users?pageSize=10', '/api/users'],
      [staff, 'GET', '/api/dashboard/summary', '/api/dashboard/summary'],
      [guest, 'GET', '/api/booking-slots', '/api/booking-slots'],
      [guest, 'POST', '/api/auth/login', '/api/auth/login', { email: 'non-una-email', password: '' }],
      [
        guest,
        'POST',
        '/api/auth/login',
        '/api/auth/login',
        { email: 'nessuno@example.org', password: 'Sbagliata-123' },
      ],
      [guest, 'GET', '/api/auth/me', '/api/auth/me'],
      [staff, 'GET', '/api/auth/me', '/api/auth/me'],
    ];
    const seen = new Set<string>();
    for (const [client, method, url, path, body] of samples) {
      const res = method === 'GET' ? await client.get(url) : await client.post(url, body);
      const op = doc.paths[path]![method.toLowerCase()]!;
      const documented = op.responses[String(res.statusCode)];
      expect(documented, `${method} ${url} answered ${res.statusCode}, not documented`).toBeDefined();
      const schema = documented!.content?.['application/json']?.schema;
      if (!schema) continue;
      const resolved =
        '$ref' in schema ? doc.components.schemas[String(schema.$ref).split('/').pop()!]! : schema;
      const validate = ajv.compile(toDraft7(resolved) as Schema);
      expect(
        validate(res.json()),
        `${method} ${url} ${res.statusCode}: ${ajv.errorsText(validate.errors)}`,
      ).toBe(true);
      seen.add(String(res.statusCode));
    }
    // Successes and the errors a client meets first are among the samples.
    expect([...seen].sort()).toEqual(expect.arrayContaining(['200', '401', '404', '422']));
  });
});
