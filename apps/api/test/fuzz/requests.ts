import fc from 'fast-check';
import {
  clean,
  HOSTILE_PATH_SEGMENTS,
  HOSTILE_STRINGS,
  MEGABYTE,
  mutatedValue,
  validValue,
} from './arbitraries.ts';
import { typeOf, type JsonSchema } from './json-schema.ts';
import type { Method, Operation, Parameter } from './operations.ts';

/** One request of the fuzz run, plain data so that a failure can be printed and replayed. */
export interface FuzzRequest {
  /** What kind of case it is (`valid`, `mutated`, `hostile:…`), for the report. */
  label: string;
  method: Method;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export type Kind = 'valid' | 'mutated' | 'hostile' | 'sweep';

export interface RequestOptions {
  /** Path param values never to use (e.g. the ids of the fuzzing identities: suspending them would end the run). */
  avoid?: Record<string, ReadonlySet<string>>;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const UNSAFE = new Set<Method>(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A query or path value as text: arrays become repeated keys, the rest String(). */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

type Pair = [key: string, value: string, raw?: boolean];

/** The number a path segment may be read as (`01`, ` 1`, `0x10`, `1e3`), as text. */
function asNumber(segment: string): string | undefined {
  try {
    const n = Number(decodeURIComponent(segment).trim());
    return Number.isFinite(n) ? String(n) : undefined;
  } catch {
    return undefined;
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** encodeURIComponent, with a lone surrogate sent as the bytes of one (invalid UTF-8) instead of throwing. */
export function encode(value: string): string {
  return value.split(LONE_SURROGATE).map(encodeURIComponent).join('%ED%A0%80');
}

function queryString(pairs: Pair[]): string {
  if (pairs.length === 0) return '';
  const parts = pairs.map(([k, v, raw]) => (raw ? `${k}=${v}` : `${encode(k)}=${encode(v)}`));
  return `?${parts.join('&')}`;
}

function pathWith(op: Operation, segments: Record<string, string>): string {
  return op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => segments[name] ?? '1');
}

/** Path segments: valid-shaped values, encoded, avoiding the protected ones. */
function validSegments(op: Operation, options: RequestOptions): fc.Arbitrary<Record<string, string>> {
  const entries = op.pathParams.map((p) => {
    const avoid = options.avoid?.[p.name];
    const value = validValue(p.schema)
      .map(asText)
      .filter((v) => clean(v) && !avoid?.has(v));
    return [p.name, value.map(encode)] as const;
  });
  return fc.record(Object.fromEntries(entries));
}

function validQuery(params: Parameter[]): fc.Arbitrary<Pair[]> {
  if (params.length === 0) return fc.constant([]);
  const values = params.map((p) => {
    const value = validValue(p.schema);
    return (p.required ? value : fc.option(value, { nil: undefined, freq: 2 })).map((v): Pair[] => {
      if (v === undefined || v === null) return [];
      if (Array.isArray(v)) return v.map((item) => [p.name, asText(item)]);
      return [[p.name, asText(v)]];
    });
  });
  return fc.tuple(...values).map((lists) => lists.flat());
}

/** A query with one thing wrong: a value of another type, a key twice, array notation, an unknown or empty key. */
function mutatedQuery(params: Parameter[]): fc.Arbitrary<Pair[]> {
  const base = validQuery(params);
  const variants: fc.Arbitrary<Pair[]>[] = [
    fc
      .tuple(
        base,
        fc
          .string({ minLength: 1, maxLength: 10 })
          .filter((k) => clean(k) && !params.some((p) => p.name === k)),
      )
      .map(([pairs, key]) => [...pairs, [key, '1']]),
    base.map((pairs) => [...pairs, ['', 'x'], ['=', '=']]),
  ];
  if (params.length > 0) {
    const param = fc.constantFrom(...params);
    variants.push(
      fc
        .tuple(base, param)
        .chain(([pairs, p]) =>
          mutatedValue(p.schema).map((v): Pair[] => [
            ...pairs.filter(([k]) => k !== p.name),
            [p.name, asText(v)],
          ]),
        ),
      fc
        .tuple(base, param, fc.constantFrom(...HOSTILE_STRINGS))
        .map(([pairs, p, s]): Pair[] => [...pairs.filter(([k]) => k !== p.name), [p.name, s]]),
      // The same key twice (parameter pollution), and array notation.
      fc
        .tuple(base, param)
        .chain(([pairs, p]) =>
          fc
            .tuple(validValue(p.schema), validValue(p.schema))
            .map(([a, b]): Pair[] => [...pairs, [p.name, asText(a)], [p.name, asText(b)]]),
        ),
      fc
        .tuple(base, param)
        .map(([pairs, p]): Pair[] => [...pairs, [`${p.name}[]`, '1'], [`${p.name}[0]`, '2']]),
      fc
        .tuple(base, param)
        .map(([pairs, p]): Pair[] => [...pairs.filter(([k]) => k !== p.name), [p.name, '']]),
    );
  }
  return fc.oneof(...variants);
}

function request(
  op: Operation,
  label: string,
  segments: Record<string, string>,
  pairs: Pair[],
  body?: { payload: string; headers?: Record<string, string> },
): FuzzRequest {
  return {
    label,
    method: op.method,
    url: pathWith(op, segments) + queryString(pairs),
    headers: body?.headers ?? (body ? { ...JSON_TYPE } : {}),
    ...(body ? { payload: body.payload } : {}),
  };
}

function bodyOf(op: Operation, value: unknown) {
  return op.body ? { payload: JSON.stringify(value) ?? 'null' } : undefined;
}

/** Requests shaped as the document declares them. */
export function validRequests(op: Operation, options: RequestOptions = {}): fc.Arbitrary<FuzzRequest> {
  const body = op.body ? validValue(op.body) : fc.constant(undefined);
  return fc
    .tuple(validSegments(op, options), validQuery(op.queryParams), body)
    .map(([segments, pairs, value]) => request(op, 'valid', segments, pairs, bodyOf(op, value)));
}

/** Requests with one mutation of the declared shape, in the query or in the body. */
export function mutatedRequests(op: Operation, options: RequestOptions = {}): fc.Arbitrary<FuzzRequest> {
  const segments = validSegments(op, options);
  const variants: fc.Arbitrary<FuzzRequest>[] = [
    fc
      .tuple(segments, mutatedQuery(op.queryParams), op.body ? validValue(op.body) : fc.constant(undefined))
      .map(([s, pairs, value]) => request(op, 'mutated:query', s, pairs, bodyOf(op, value))),
  ];
  if (op.body) {
    const bodySchema = op.body;
    variants.push(
      fc
        .tuple(segments, validQuery(op.queryParams), mutatedValue(bodySchema))
        .map(([s, pairs, value]) => request(op, 'mutated:body', s, pairs, bodyOf(op, value))),
    );
    variants.push(
      fc
        .tuple(
          segments,
          validQuery(op.queryParams),
          validValue(bodySchema),
          fc.constantFrom(...HOSTILE_STRINGS),
        )
        .map(([s, pairs, value, hostile]) =>
          request(op, 'mutated:body-strings', s, pairs, bodyOf(op, withStrings(bodySchema, value, hostile))),
        ),
    );
  }
  return fc.oneof(...variants);
}

/** Every string field of a valid body replaced by one hostile string (unicode, NUL, surrogates, quotes). */
function withStrings(schema: JsonSchema, value: unknown, hostile: string): unknown {
  if (typeof value === 'string') return hostile;
  if (Array.isArray(value)) return value.map((v) => withStrings(schema.items ?? {}, v, hostile));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, withStrings(schema.properties?.[k] ?? {}, v, hostile)]),
    );
  return value;
}

/** A body whose first string field is `size` characters long (or an object holding such a string). */
function hugeBody(schema: JsonSchema | undefined, valid: unknown, size: number): string {
  const big = 'é'.repeat(Math.floor(size / 2));
  if (schema && typeOf(schema) === 'object' && valid && typeof valid === 'object' && !Array.isArray(valid)) {
    const key =
      Object.keys(schema.properties ?? {}).find((k) => typeOf(schema.properties![k]!) === 'string') ??
      Object.keys(schema.properties ?? {})[0] ??
      'x';
    return JSON.stringify({ ...valid, [key]: big });
  }
  return JSON.stringify(big);
}

const MALFORMED_JSON = [
  '',
  '{',
  '{"a":',
  '[',
  'nul',
  '{"a":1}{"b":2}',
  '{"a":1,}',
  "{'a':1}",
  '\u0000',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  `${'['.repeat(3000)}${']'.repeat(3000)}`,
  '1e400',
  '"\\ud800"',
  '{"a":"\\u0000"}',
  '\uFEFF{}',
  '{"a":1,"a":2}',
  'null',
  '[]',
  '0',
];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/merge-patch+json',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/jsonx',
  '',
];

const HOSTILE_QUERIES = [
  `?${'a'.repeat(10_000)}`,
  '?%',
  '?q=%zz',
  '?__proto__=1',
  '?constructor[prototype][polluted]=1',
  '?&&&',
  '?=',
  '?a=1&a=2&a=3',
  '?%00=%00',
  `?q=${'%F0%9F%98%80'.repeat(200)}`,
];

const HOSTILE_HEADERS: Record<string, string>[] = [
  { authorization: 'Bearer ' },
  { authorization: `Bearer ${'x'.repeat(4096)}` },
  { authorization: 'Basic Zm9vOmJhcg==' },
  { authorization: 'Bearer 1|abcdef' },
  { cookie: 'XSRF-TOKEN=%; refresh_token=%zz' },
  { 'x-xsrf-token': 'x'.repeat(2048) },
  { accept: 'application/xml' },
  { 'sec-fetch-site': 'cross-site' },
  { 'content-length': '5' },
  { 'x-forwarded-for': '::ffff:999.1.1.1, <script>' },
];

/** Requests no client of the API would send: broken JSON, wrong content types, huge and odd paths, queries and headers. */
export function hostileRequests(op: Operation, options: RequestOptions = {}): fc.Arbitrary<FuzzRequest> {
  const segments = validSegments(op, options);
  const query = validQuery(op.queryParams);
  const body = op.body ? validValue(op.body) : fc.constant({});
  const unsafe = UNSAFE.has(op.method);
  const variants: fc.Arbitrary<FuzzRequest>[] = [
    fc.tuple(segments, fc.constantFrom(...HOSTILE_QUERIES), body).map(([s, q, value]) => ({
      ...request(op, 'hostile:query', s, [], unsafe ? { payload: JSON.stringify(value) } : undefined),
      url: pathWith(op, s) + q,
    })),
    fc.tuple(segments, query, body, fc.constantFrom(...HOSTILE_HEADERS)).map(([s, pairs, value, headers]) => {
      const base = request(
        op,
        'hostile:headers',
        s,
        pairs,
        unsafe ? { payload: JSON.stringify(value) } : undefined,
      );
      return { ...base, headers: { ...base.headers, ...headers } };
    }),
  ];
  if (op.pathParams.length > 0) {
    const param = fc.constantFrom(...op.pathParams.map((p) => p.name));
    variants.push(
      fc
        .tuple(segments, param, fc.constantFrom(...HOSTILE_PATH_SEGMENTS), query, body)
        // `01`, ` 1`, `0x10`… may still name a record: never a protected one.
        .filter(([, name, segment]) => !options.avoid?.[name]?.has(asNumber(segment) ?? ''))
        .map(([s, name, segment, pairs, value]) =>
          request(
            op,
            'hostile:path',
            { ...s, [name]: segment },
            pairs,
            op.body ? { payload: JSON.stringify(value) } : undefined,
          ),
        ),
    );
  }
  if (unsafe) {
    variants.push(
      fc
        .tuple(segments, query, fc.constantFrom(...MALFORMED_JSON))
        .map(([s, pairs, payload]) => request(op, 'hostile:malformed-json', s, pairs, { payload })),
      fc.tuple(segments, query, body, fc.constantFrom(...CONTENT_TYPES)).map(([s, pairs, value, type]) =>
        request(op, 'hostile:content-type', s, pairs, {
          payload: type.includes('form') ? 'a=1&b=2' : JSON.stringify(value),
          headers: type ? { 'content-type': type } : {},
        }),
      ),
      // Just past the body limit (413) and just under it (the schema's length limits).
      fc
        .tuple(segments, query, body, fc.constantFrom(MEGABYTE + 10, MEGABYTE - 4096))
        .map(([s, pairs, value, size]) =>
          request(op, 'hostile:huge-body', s, pairs, { payload: hugeBody(op.body, value, size) }),
        ),
    );
  } else {
    // A body on a GET, and a method the path does not have.
    variants.push(
      fc
        .tuple(segments, query)
        .map(([s, pairs]) => request(op, 'hostile:get-with-body', s, pairs, { payload: '{"a":1}' })),
    );
  }
  const otherMethods = (['PUT', 'DELETE', 'PATCH', 'POST'] as const).filter((m) => !op.pathMethods.has(m));
  if (otherMethods.length > 0) {
    variants.push(
      fc
        .tuple(segments, query, fc.constantFrom(...otherMethods))
        .map(([s, pairs, method]) => ({ ...request(op, 'hostile:method', s, pairs), method })),
    );
  }
  return fc.oneof(...variants);
}

export function requestsOf(
  kind: Exclude<Kind, 'sweep'>,
  op: Operation,
  options: RequestOptions = {},
): fc.Arbitrary<FuzzRequest> {
  if (kind === 'valid') return validRequests(op, options);
  if (kind === 'mutated') return mutatedRequests(op, options);
  return hostileRequests(op, options);
}

/** The strings every free-text input of every operation gets, whatever the seed (random cases may miss one). */
export const SWEEP_STRINGS: readonly string[] = [
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\u202Eevil\u202C',
  '👩🏽‍🏫📚 مرحبا',
  "' OR '1'='1' --",
  '%_\\',
  'a'.repeat(10_000),
];

const isFreeText = (schema: JsonSchema | undefined): boolean => {
  if (!schema || schema.enum) return false;
  const type = typeOf(schema);
  return type === 'string' || (type === 'array' && isFreeText(schema.items));
};

/** A valid body with every free-text property (optional ones included) set to `text`. */
function filled(schema: JsonSchema, base: unknown, text: string): unknown {
  if (typeOf(schema) !== 'object' || !schema.properties)
    return isFreeText(schema) ? (typeOf(schema) === 'array' ? [text] : text) : base;
  const value = { ...(base && typeof base === 'object' ? base : {}) } as Record<string, unknown>;
  for (const [key, sub] of Object.entries(schema.properties)) {
    if (isFreeText(sub)) value[key] = typeOf(sub) === 'array' ? [text] : text;
  }
  return value;
}

/**
 * For each of SWEEP_STRINGS, one request with every free-text body field, and one with every free-text
 * query value, set to it (the rest valid): NUL, lone surrogates, RTL, emoji, quotes, a long string.
 */
export function sweepRequests(op: Operation, options: RequestOptions, seed: number): FuzzRequest[] {
  const textParams = op.queryParams.filter((p) => isFreeText(p.schema));
  if (
    !isFreeText(op.body) &&
    !Object.values(op.body?.properties ?? {}).some(isFreeText) &&
    textParams.length === 0
  )
    return [];
  const [segments] = fc.sample(validSegments(op, options), { seed, numRuns: 1 });
  const [pairs] = fc.sample(validQuery(op.queryParams), { seed, numRuns: 1 });
  const [base] = op.body ? fc.sample(validValue(op.body), { seed, numRuns: 1 }) : [undefined];
  const requests: FuzzRequest[] = [];
  for (const text of SWEEP_STRINGS) {
    if (op.body && (isFreeText(op.body) || Object.values(op.body.properties ?? {}).some(isFreeText))) {
      requests.push(request(op, 'sweep:body', segments!, pairs!, bodyOf(op, filled(op.body, base, text))));
    }
    if (textParams.length > 0) {
      const swept: Pair[] = [
        ...pairs!.filter(([k]) => !textParams.some((p) => p.name === k)),
        ...textParams.map((p): Pair => [p.name, text]),
      ];
      requests.push(request(op, 'sweep:query', segments!, swept, bodyOf(op, base)));
    }
  }
  return requests;
}
