import fc from 'fast-check';
import { boundsOf, typeOf, type JsonSchema } from './json-schema.ts';

/**
 * What would betray internals in a response: a stack frame, SQL or driver text, framework codes (also
 * with the newlines and quotes escaped as in JSON). Generated strings never contain these, so a match in
 * a response cannot be an echo of the input.
 */
export const LEAK =
  /\bat (?:async )?(?:\S+ )?\(?\S+\.(?:ts|js|mjs|cjs):\d+|(?:\n|\\n)\s+at \S|\bselect |insert into|syntax error|\bpg_|drizzle|relation \\?"|failed query|node_modules|\bFST_[A-Z_]+|violates .{0,80}constraint/i;

export const clean = (value: string) => !LEAK.test(value);

/** A megabyte: the API's body limit. */
export const MEGABYTE = 1_048_576;

/** Strings a careless parser or query builder trips on; none of them matches LEAK. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\u202Eevil\u202C',
  'مرحبا بالعالم',
  '👩🏽‍🏫📚',
  '\u200B\u200D\uFEFF',
  'Città Sant’Angelo',
  "' OR '1'='1' --",
  "'; DROP TABLE users; --",
  '" OR ""="',
  "') OR ('x'='x",
  '\\',
  '%',
  '%00',
  '%27',
  '_',
  '$1',
  '::text',
  '{"$gt":""}',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '..\\..\\windows',
  '${7*7}{{7*7}}',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-0',
  '1e3',
  '0x10',
  '9'.repeat(400),
  'a'.repeat(10_000),
  '__proto__',
  'constructor',
  '\r\nX-Injected: 1',
];

/** Realistic words, so that searches and filters also find rows. */
const WORDS = [
  'Roma',
  'RM',
  'PV',
  'Pavia',
  'Lazio',
  'Lombardia',
  'liceo',
  'scientifico',
  'citta',
  'Istituto',
  'RMIC8AB00X',
  'insegnante',
  'demo',
  'Matematica',
];

function text(min: number, max: number): fc.Arbitrary<string> {
  const words = WORDS.filter((w) => w.length >= min && w.length <= max);
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: max }) },
      { weight: 2, arbitrary: fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }) },
      { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: max, unit: 'binary' }) },
      ...(words.length > 0 ? [{ weight: 2, arbitrary: fc.constantFrom(...words) }] : []),
    )
    .filter(clean);
}

function stringArb(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 40, 60));
  const fits = (s: string) => s.length >= min && s.length <= (schema.maxLength ?? Infinity) && clean(s);
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (schema.format === 'uri') return fc.webUrl().filter(fits);
  if (schema.pattern) {
    try {
      const matching = fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
      return schema.format === 'email' ? fc.oneof(matching, fc.emailAddress().filter(fits)) : matching;
    } catch {
      // A pattern fast-check cannot read: plain strings (mostly refused, still a valid test).
    }
  }
  if (schema.format === 'email') return fc.emailAddress().filter(fits);
  return text(min, max);
}

function integerArb(schema: JsonSchema): fc.Arbitrary<number> {
  const { min, max } = boundsOf(schema, true);
  // Ids and page numbers: mostly small values, which name existing rows.
  const smallMax = Math.min(max, Math.max(min, 0) + 300);
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min, max: Math.max(min, smallMax) }) },
    { weight: 1, arbitrary: fc.integer({ min, max }) },
  );
}

/** Values a schema accepts (as far as the JSON schema tells: refinements of the contract may still refuse them). */
export function validValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.enum && schema.enum.length > 0) return withNull(schema, fc.constantFrom(...schema.enum));
  if (schema.const !== undefined) return fc.constant(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (union && union.length > 0)
    return withNull(schema, fc.oneof(...union.map((s) => validValue(s, depth + 1))));
  if (schema.allOf && schema.allOf.length > 0) return validValue(schema.allOf[0]!, depth + 1);
  const type = typeOf(schema);
  switch (type) {
    case 'string':
      return withNull(schema, stringArb(schema));
    case 'integer':
      return withNull(schema, integerArb(schema));
    case 'number': {
      const { min, max } = boundsOf(schema, false);
      return withNull(
        schema,
        fc.oneof(
          integerArb(schema),
          fc.double({
            min: Math.max(min, -1e9),
            max: Math.min(max, 1e9),
            noNaN: true,
            noDefaultInfinity: true,
          }),
        ),
      );
    }
    case 'boolean':
      return withNull(schema, fc.boolean());
    case 'array': {
      const items = schema.items ? validValue(schema.items, depth + 1) : fc.string();
      const minLength = schema.minItems ?? 0;
      return withNull(
        schema,
        fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 4, 4)) }),
      );
    }
    case 'object':
      return withNull(schema, objectArb(schema, depth));
    default:
      return depth > 3
        ? fc.constant(null)
        : fc.jsonValue({ maxDepth: 2 }).filter((v) => clean(JSON.stringify(v) ?? ''));
  }
}

function withNull<T>(schema: JsonSchema, arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return schema.nullable ? fc.option(arb, { nil: null, freq: 6 }) : arb;
}

/**
 * Values that pass the contracts' refinements too (a tax code's check character, a strong password, an
 * Italian mobile number), offered beside the generated ones for fields of these names: without them
 * a form like the registration would only ever be refused, and its success path never fuzzed.
 */
export const FIELD_EXAMPLES: Record<string, readonly unknown[]> = {
  taxCode: ['RSSMRA85T10A562S', 'rssmra85t10a562s'],
  phone: ['+39 347 123 4567', '3471234567'],
  password: ['Lampone-Viola-Quercia-88'],
  password_confirmation: ['Lampone-Viola-Quercia-88'],
  subjects: [['Matematica'], ['Italiano', 'Storia']],
  schoolSiteId: [1, 2, 3],
  website: ['https://www.scuola.edu.it'],
  postalCode: ['00184'],
};

export function propertyValue(key: string, schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const examples = FIELD_EXAMPLES[key];
  return examples
    ? fc.oneof(validValue(schema, depth), fc.constantFrom(...examples))
    : validValue(schema, depth);
}

function objectArb(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const shape = Object.fromEntries(
    Object.entries(properties).map(([key, sub]) => [key, propertyValue(key, sub, depth + 1)]),
  );
  return fc.record(shape, {
    requiredKeys: (schema.required ?? []).filter((k) => k in properties),
  }) as fc.Arbitrary<Record<string, unknown>>;
}

const hostileString = fc.constantFrom(...HOSTILE_STRINGS);

/** A value of another type than the schema's, or one just past its bounds. */
function wrongValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const others: fc.Arbitrary<unknown>[] = [
    fc.constant(null),
    fc.constantFrom(true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1),
    hostileString,
    fc.constant([]),
    fc.constant({}),
    fc.array(fc.string().filter(clean), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }).filter(clean), fc.string({ maxLength: 8 }).filter(clean), {
      maxKeys: 3,
    }),
  ];
  const type = typeOf(schema);
  if (type === 'string') {
    const max = schema.maxLength ?? 200;
    others.push(fc.constant('x'.repeat(max + 1)));
    if (schema.minLength) others.push(fc.constant('x'.repeat(schema.minLength - 1)));
  }
  if (type === 'integer' || type === 'number') {
    const { min, max } = boundsOf(schema, type === 'integer');
    others.push(fc.constantFrom(min - 1, max + 1, 0.5, '12', '1e3', '0x1f'));
  }
  if (type === 'array' && schema.items) {
    others.push(
      fc.array(validValue(schema.items), {
        minLength: (schema.maxItems ?? 50) + 1,
        maxLength: (schema.maxItems ?? 50) + 2,
      }),
    );
    others.push(validValue(schema.items));
  }
  return fc.oneof(...others);
}

/** A schema's value with one thing wrong: a field of another type, a required field missing, a field too many. */
export function mutatedValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const keys = Object.keys(properties);
  if (typeOf(schema) !== 'object' || keys.length === 0) return wrongValue(schema);
  const valid = objectArb(schema, 0);
  const one = fc.constantFrom(...keys);
  const variants: fc.Arbitrary<unknown>[] = [
    fc
      .tuple(valid, one)
      .chain(([value, key]) => wrongValue(properties[key]!).map((wrong) => ({ ...value, [key]: wrong }))),
    fc
      .tuple(valid, one)
      .chain(([value, key]) => fc.constantFrom(...HOSTILE_STRINGS).map((s) => ({ ...value, [key]: s }))),
    fc
      .tuple(
        valid,
        fc.string({ minLength: 1, maxLength: 12 }).filter((k) => clean(k) && !(k in properties)),
      )
      .map(([value, key]) => ({ ...value, [key]: 1 })),
    wrongValue(schema),
  ];
  const required = (schema.required ?? []).filter((k) => k in properties);
  if (required.length > 0) {
    variants.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([value, key]) => {
        const copy = { ...value };
        delete copy[key];
        return copy;
      }),
    );
  }
  return fc.oneof(...variants);
}

/** Path parameter values: ids that exist, ids that do not, and things that are not ids at all. */
export const HOSTILE_PATH_SEGMENTS: readonly string[] = [
  '0',
  '-1',
  '1e3',
  '1.5',
  '01',
  '+1',
  ' 1',
  '0x10',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  '%00',
  '%2e%2e',
  '..%2F..%2Fetc%2Fpasswd',
  '..',
  '.',
  '%',
  '%zz',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '%E2%80%AE1',
  '1%0A',
  '9'.repeat(400),
  String(2 ** 53),
  '9007199254740993',
  '-9007199254740993',
  '__proto__',
  "1'--",
  'a'.repeat(5000),
];
