import { inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema/index.ts';
import { seedMessageTemplates } from '../src/seed/message-templates.ts';
import { seedPublicContent } from '../src/modules/public/public-seed.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { Oracle } from './fuzz/oracle.ts';
import { operationsOf, type OpenApiDocument, type Operation } from './fuzz/operations.ts';
import { requestsOf, sweepRequests, type FuzzRequest, type Kind } from './fuzz/requests.ts';
import { ApiClient, nextIp } from './http-client.ts';

/**
 * Fuzzing of every operation of the OpenAPI document the app serves (so a new endpoint is covered
 * without touching this file), as anonymous, a teacher and staff, in process (`app.inject`).
 *
 * Reproduce a run: `FUZZ_SEED=<seed> npx vitest run --project api test/fuzz.test.ts`; narrow it with
 * `FUZZ_ONLY='PATCH /api/users/{userId}'` (substring of the operation) and `FUZZ_IDENTITY=staff`.
 * The cases of an operation depend only on the seed, the identity and the operation, never on the
 * others. `FUZZ_SCALE=5` sends five times as many requests.
 *
 * Each operation gets valid-shaped requests (from its parameter and body schemas, with realistic values
 * for fields such as a tax code so that forms also succeed), requests with one mutation (wrong type,
 * missing or extra field, duplicated or array-notation query keys), hostile requests (malformed JSON,
 * wrong content types, bodies over and just under 1 MB, odd path segments and queries, junk headers,
 * undeclared methods) and a sweep of NUL, lone surrogates, RTL, emoji and quotes through every text
 * input. The oracle (fuzz/oracle.ts) fails on any 5xx, any stack trace or SQL text in a text body, an
 * undeclared 2xx status, a 2xx body off its OpenAPI schema, and any other answer outside the one error
 * shape. A 429 of a route's own fixed limit (consents, per-number SMS) is a correct answer.
 *
 * Nothing is skipped, but:
 * - Routes that end or weaken the session they are called with (logout, refresh, closing sessions,
 *   password change, deletion request) are called by the teacher and the staff identity with a
 *   throwaway session of a spare account of the same kind, renewed whenever it stops working.
 * - User-management routes (`/api/users/{userId}/…`: suspend, MFA reset, forced password change,
 *   role edits) never target the fuzzing identities or their spares: suspending the teacher would end
 *   the run, not test anything more.
 * - Binary downloads (XLSX, PDF) are not searched for internals (their bytes are not text) and, having
 *   no JSON schema in the document, are checked only for their status.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_121);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const ONLY = process.env.FUZZ_ONLY;
const ONLY_IDENTITY = process.env.FUZZ_IDENTITY;
const VERBOSE = Boolean(process.env.FUZZ_VERBOSE);
/** Requests per identity at scale 1 (three identities: ≥ 10,000 in all). */
const BUDGET = 3_600;
const MIN_PER_OPERATION = 12;

/** Routes whose call may end or weaken the caller's own session or account. */
const THROWAWAY = [
  /^POST \/api\/auth\/logout$/,
  /^POST \/api\/auth\/refresh$/,
  /^DELETE \/api\/auth\/sessions\/\{sessionId\}$/,
  /^POST \/api\/auth\/sessions\/revoke-others$/,
  /^POST \/api\/auth\/change-password$/,
  /^POST \/api\/account\/deletion-request$/,
];
const isThrowaway = (op: Operation) => THROWAWAY.some((re) => re.test(op.key));

interface IdentitySpec {
  name: 'anonymous' | 'teacher' | 'staff' | 'detector';
  email?: string;
  spare?: string;
  /** Only these operations, with this many requests in all (an identity for one module's routes). */
  only?: { ops: RegExp; budget: number };
}

const IDENTITIES: IdentitySpec[] = [
  { name: 'anonymous' },
  { name: 'teacher', email: 'insegnante@demo.test', spare: 'da-verificare@demo.test' },
  { name: 'staff', email: 'superadmin@demo.test', spare: 'cromos@demo.test' },
  // The photos of visit reports (decision 055): the only role past their guard, so the tus upload
  // routes' own checks (metadata, upload ids, headers) and the deletion are fuzzed too.
  { name: 'detector', email: 'rilevatore@demo.test', only: { ops: /photo/, budget: 300 } },
];

interface Failure {
  identity: string;
  op: string;
  kind: Kind;
  seed: number;
  index: number;
  request: FuzzRequest;
  status: number;
  problem: string;
  body: string;
}

/** FNV-1a: a stable 31-bit seed per identity, operation and kind. */
function seedOf(...parts: (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('|')) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) & 0x7fffffff;
}

const short = (text: string, max = 300) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;

let t: TestApp;
let operations: Operation[];
let avoid: Record<string, ReadonlySet<string>>;
const oracle = new Oracle();

beforeAll(async () => {
  // Limits that exist to slow real clients down would only turn the run into a wall of 429s.
  const generous = '1000000';
  t = await buildTestApp(
    {
      RATE_LIMIT_MAX: generous,
      RATE_LIMIT_USER_MAX: generous,
      ACCOUNT_RATE_LIMIT_MAX: generous,
      CONTACT_RATE_LIMIT_MAX: generous,
      GLOBAL_SMS_MAX_PER_HOUR: generous,
      GLOBAL_REGISTRATIONS_MAX_PER_HOUR: generous,
      GLOBAL_EMAILS_MAX_PER_HOUR: generous,
      GLOBAL_CONTACT_MAX_PER_HOUR: generous,
      GLOBAL_ACCESS_CODE_FAILURES_MAX_PER_HOUR: generous,
      LOGIN_IP_MAX_FAILURES: generous,
    },
    { registry: 'sample' },
  );
  // What the real seed (seed/seed.ts) adds besides roles, registry and demo accounts: the e-mail and SMS
  // templates the routes send, and the public pages' content.
  await seedMessageTemplates(t.database.db);
  await seedPublicContent(t.database.db);
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  operations = operationsOf(res.json<OpenApiDocument>());
  const emails = IDENTITIES.flatMap((i) => [i.email, i.spare]).filter((e): e is string => Boolean(e));
  const ids = await t.database.db.select({ id: users.id }).from(users).where(inArray(users.email, emails));
  expect(ids).toHaveLength(emails.length);
  avoid = { userId: new Set(ids.map((row) => String(row.id))) };
}, 120_000);
afterAll(() => t?.close());

async function signedIn(email: string | undefined): Promise<ApiClient> {
  const client = new ApiClient(t, nextIp());
  if (!email) {
    await client.csrf();
    return client;
  }
  const res = await client.login(email);
  if (res.statusCode !== 200 || !client.token)
    throw new Error(`fuzz: cannot sign in ${email}: ${res.statusCode} ${res.body}`);
  return client;
}

async function stillSignedIn(client: ApiClient): Promise<boolean> {
  return (await client.get('/api/auth/me')).statusCode === 200;
}

/** What the identity may do (roles, permissions, pending conditions), or undefined when signed out. */
async function standing(client: ApiClient): Promise<string | undefined> {
  const res = await client.get('/api/auth/me');
  if (res.statusCode !== 200) return undefined;
  const { lastLoginAt: _ignored, ...user } = res.json<{ user: Record<string, unknown> }>().user;
  return JSON.stringify(user);
}

/** How many cases of each kind an operation gets: operations with inputs more, session-ending ones few. */
function plan(ops: Operation[], budget = BUDGET): Map<Operation, Record<Exclude<Kind, 'sweep'>, number>> {
  const weight = (op: Operation) =>
    isThrowaway(op) ? 0 : op.pathParams.length + op.queryParams.length > 0 || op.body ? 3 : 1;
  const total = ops.reduce((sum, op) => sum + weight(op), 0);
  const counts = new Map<Operation, Record<Exclude<Kind, 'sweep'>, number>>();
  for (const op of ops) {
    if (isThrowaway(op)) {
      counts.set(op, {
        valid: Math.ceil(3 * SCALE),
        mutated: Math.ceil(3 * SCALE),
        hostile: Math.ceil(4 * SCALE),
      });
      continue;
    }
    const n = Math.max(3, Math.round(Math.max(MIN_PER_OPERATION, (budget * weight(op)) / total) * SCALE));
    const inputs = weight(op) > 1;
    const valid = Math.round(n * (inputs ? 0.35 : 0.1));
    const mutated = Math.round(n * (inputs ? 0.35 : 0.45));
    counts.set(op, {
      valid: Math.max(1, valid),
      mutated: Math.max(1, mutated),
      hostile: Math.max(1, n - valid - mutated),
    });
  }
  return counts;
}

interface Stats {
  requests: number;
  statuses: Map<number, number>;
}

async function fuzzIdentity(spec: IdentitySpec, ops: Operation[], failures: Failure[]): Promise<Stats> {
  const stats: Stats = { requests: 0, statuses: new Map() };
  const main = await signedIn(spec.email);
  const initial = spec.email ? await standing(main) : undefined;
  let spare: ApiClient | undefined;
  const counts = plan(ops, spec.only?.budget);
  for (const op of ops) {
    const opStarted = performance.now();
    const requestsBefore = stats.requests;
    const opStatuses: number[] = [];
    const throwaway = isThrowaway(op) && spec.spare !== undefined;
    for (const kind of ['valid', 'mutated', 'hostile', 'sweep'] as const) {
      const seed = seedOf(SEED, spec.name, op.key, kind);
      const cases =
        kind === 'sweep'
          ? sweepRequests(op, { avoid }, seed)
          : fc.sample(requestsOf(kind, op, { avoid }), { seed, numRuns: counts.get(op)![kind] });
      for (const [index, request] of cases.entries()) {
        if (throwaway && (!spare || !(await stillSignedIn(spare)))) spare = await signedIn(spec.spare);
        const client = throwaway ? spare! : main;
        const res = await client.send(request.method, request.url, {
          headers: request.headers,
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
        stats.requests += 1;
        stats.statuses.set(res.statusCode, (stats.statuses.get(res.statusCode) ?? 0) + 1);
        if (VERBOSE) opStatuses.push(res.statusCode);
        const problem = oracle.judge(op, request, res);
        if (problem)
          failures.push({
            identity: spec.name,
            op: op.key,
            kind,
            seed,
            index,
            request,
            status: res.statusCode,
            problem,
            body: res.body,
          });
        // An anonymous client that lost its XSRF cookie (a logout clears it) gets it again.
        if (!client.cookie('XSRF-TOKEN')) await client.csrf();
      }
    }
    if (VERBOSE)
      console.info(
        `fuzz: [${spec.name}] ${op.key}: ${stats.requests - requestsBefore} requests in ${(performance.now() - opStarted).toFixed(0)} ms; ${opStatuses.join(' ')}`,
      );
    // The identity must come out of every operation as it went in, signed in with the same roles,
    // permissions and conditions: anything else is a defect, or a gap in THROWAWAY or `avoid`.
    const now = spec.email ? await standing(main) : undefined;
    if (now !== initial) {
      const problem =
        now === undefined
          ? 'the identity lost its session during this operation'
          : `the identity changed during this operation: ${initial} → ${now}`;
      failures.push({
        identity: spec.name,
        op: op.key,
        kind: 'valid',
        seed: 0,
        index: -1,
        request: { label: 'identity check', method: 'GET', url: '/api/auth/me', headers: {} },
        status: 0,
        problem,
        body: '',
      });
      return stats; // the rest of this identity's run would test something else than planned
    }
  }
  return stats;
}

function report(failures: Failure[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const f of failures) {
    const key = `${f.identity} ${f.op} ${f.problem.replace(/\d+/g, 'N').slice(0, 80)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(
      [
        `✗ [${f.identity}] ${f.op} — ${f.problem}`,
        `  case ${f.kind} #${f.index} (${f.request.label}), case seed ${f.seed}`,
        `  ${f.request.method} ${short(f.request.url, 200)}`,
        `  headers ${short(JSON.stringify(f.request.headers), 200)}`,
        ...(f.request.payload === undefined
          ? []
          : [`  payload ${short(JSON.stringify(f.request.payload), 300)}`]),
        `  → ${f.status} ${short(f.body, 400)}`,
        `  reproduce: FUZZ_SEED=${SEED} FUZZ_IDENTITY=${f.identity} FUZZ_ONLY='${f.op}' npx vitest run --project api test/fuzz.test.ts`,
      ].join('\n'),
    );
    if (lines.length >= 25) break;
  }
  return `${failures.length} failing responses, ${seen.size} distinct shown:\n${lines.join('\n')}`;
}

describe('the fuzz oracle', () => {
  const op = (): Operation => operations.find((o) => o.key === 'GET /api/institutes/{instituteId}')!;
  const req: FuzzRequest = { label: 'test', method: 'GET', url: '/api/institutes/1', headers: {} };
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const error = (statusCode: number, extra: object = {}) =>
    JSON.stringify({ statusCode, code: 'not_found', message: 'x', ...extra });

  it('refuses a 5xx, internals in a body, undeclared 2xx statuses and bodies off their schema', () => {
    expect(oracle.judge(op(), req, { statusCode: 500, headers: json, body: error(500) })).toMatch(
      /server error/,
    );
    expect(
      oracle.judge(op(), req, {
        statusCode: 404,
        headers: json,
        body: error(404, { message: 'boom\n    at run (/app/src/x.ts:1:2)' }),
      }),
    ).toMatch(/internals/);
    expect(
      oracle.judge(op(), req, {
        statusCode: 404,
        headers: json,
        body: error(404, { message: 'Failed query: select 1' }),
      }),
    ).toMatch(/internals/);
    expect(
      oracle.judge(op(), req, {
        statusCode: 404,
        headers: json,
        body: error(404, { message: 'relation "users" does not exist' }),
      }),
    ).toMatch(/internals/);
    expect(oracle.judge(op(), req, { statusCode: 201, headers: json, body: '{}' })).toMatch(
      /undeclared status/,
    );
    expect(oracle.judge(op(), req, { statusCode: 200, headers: json, body: '{"id":"uno"}' })).toMatch(
      /does not match the declared schema/,
    );
  });

  it('refuses an error outside the one shape, or one whose statusCode differs from the status', () => {
    expect(oracle.judge(op(), req, { statusCode: 404, headers: json, body: error(404) })).toBeUndefined();
    expect(oracle.judge(op(), req, { statusCode: 400, headers: json, body: error(404) })).toMatch(/says 404/);
    expect(
      oracle.judge(op(), req, {
        statusCode: 400,
        headers: json,
        body: JSON.stringify({ error: 'Bad Request', statusCode: 400, code: 'x', message: 'y' }),
      }),
    ).toMatch(/one error shape/);
    expect(
      oracle.judge(op(), req, {
        statusCode: 400,
        headers: { 'content-type': 'text/plain' },
        body: 'Bad Request',
      }),
    ).toMatch(/not JSON/);
  });
});

describe('fuzzing every operation of the OpenAPI document', () => {
  it('finds operations in the document, each with its responses', () => {
    expect(operations.length).toBeGreaterThan(50);
    for (const op of operations) expect(op.responses.size, op.key).toBeGreaterThan(0);
  });

  it('anonymous, teacher, staff (and the detector on the photo routes): no 5xx, no internals, every body as declared', async () => {
    const ops = operations.filter((op) => !ONLY || op.key.includes(ONLY));
    const identities = IDENTITIES.filter((i) => !ONLY_IDENTITY || i.name === ONLY_IDENTITY);
    const failures: Failure[] = [];
    const started = performance.now();
    console.info(
      `fuzz: seed ${SEED} (FUZZ_SEED), scale ${SCALE}, ${ops.length} operations, identities ${identities.map((i) => i.name).join(', ')}`,
    );
    const stats = await Promise.all(
      identities.map((spec) =>
        fuzzIdentity(spec, spec.only ? ops.filter((op) => spec.only!.ops.test(op.key)) : ops, failures),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const requests = stats.reduce((sum, s) => sum + s.requests, 0);
    const statuses = new Map<number, number>();
    for (const s of stats)
      for (const [status, n] of s.statuses) statuses.set(status, (statuses.get(status) ?? 0) + n);
    const histogram = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    console.info(
      `fuzz: ${requests} requests in ${seconds.toFixed(1)} s (${(requests / seconds).toFixed(0)}/s); ${histogram}`,
    );
    for (const [i, s] of stats.entries()) {
      const line = [...s.statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ');
      console.info(`fuzz: [${identities[i]!.name}] ${s.requests} requests; ${line}`);
    }
    if (failures.length > 0) console.error(report(failures));
    expect(failures.length, failures.length > 0 ? report(failures) : '').toBe(0);
    if (!ONLY && !ONLY_IDENTITY && SCALE >= 1) expect(requests).toBeGreaterThanOrEqual(10_000);
  }, 600_000);
});
