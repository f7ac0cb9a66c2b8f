import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { $ZodType } from 'zod/v4/core';
import { FieldErrors } from './field-errors.ts';
import { HttpError } from './http-error.ts';

type Def = {
  type: string;
  shape?: Record<string, unknown>;
  catchall?: $ZodType;
  innerType?: $ZodType;
  in?: $ZodType;
  options?: $ZodType[];
  left?: $ZodType;
  right?: $ZodType;
  getter?: () => $ZodType;
};

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/**
 * The keys a schema declares at its top level (through optional, default, refine, pipe and transform
 * wrappers; a union declares the keys of all its options), or `undefined` when it declares no fixed
 * set: not an object, a record, a loose object or one with a catch-all. Only top-level keys: nested
 * objects are left to their own schemas.
 */
export function declaredKeys(schema: $ZodType, depth = 0): Set<string> | undefined {
  if (depth > 20) return undefined;
  const def = schema._zod.def as unknown as Def;
  if (def.type === 'object') {
    // z.object strips (no catchall), z.strictObject has a `never` catchall; anything else accepts extras.
    if (def.catchall && (def.catchall._zod.def as unknown as Def).type !== 'never') return undefined;
    return new Set(Object.keys(def.shape ?? {}));
  }
  if (WRAPPERS.has(def.type) && def.innerType) return declaredKeys(def.innerType, depth + 1);
  if (def.type === 'pipe' && def.in) return declaredKeys(def.in, depth + 1);
  if (def.type === 'lazy' && def.getter) return declaredKeys(def.getter(), depth + 1);
  const parts =
    def.type === 'union' ? def.options : def.type === 'intersection' ? [def.left, def.right] : undefined;
  if (!parts) return undefined;
  const keys = new Set<string>();
  for (const part of parts) {
    const partKeys = part ? declaredKeys(part, depth + 1) : undefined;
    if (!partKeys) return undefined;
    for (const key of partKeys) keys.add(key);
  }
  return keys;
}

/** How a field name is quoted in a message: short and printable, whatever the client sent. */
function quoted(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const printable = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  return `«${printable.length > 40 ? `${printable.slice(0, 40)}…` : printable}»`;
}

/** A body or query field that the route's schema does not declare: 400, naming the field(s). */
export class UnknownFieldsError extends HttpError {
  constructor(readonly fields: string[]) {
    const names = fields.slice(0, 5).map(quoted).join(', ') + (fields.length > 5 ? ', …' : '');
    super(
      400,
      'unknown_field',
      fields.length === 1 ? `Campo non previsto: ${names}.` : `Campi non previsti: ${names}.`,
    );
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A NUL character, or half of a surrogate pair without its other half (not Unicode text). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Where a value holds text PostgreSQL cannot store (`a.b.0`), or undefined: a NUL character (refused
 * by every text column) or a lone surrogate (refused by json/jsonb, e.g. the audit log's before/after).
 */
export function unstorablePath(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path.join('.') || '_' : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unstorablePath(item, [...path, String(index)]);
      if (found !== undefined) return found;
    }
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (UNSTORABLE.test(key)) return [...path, key].join('.');
      const found = unstorablePath(item, [...path, key]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

export const UNSTORABLE_MESSAGE = 'Contiene un carattere non ammesso.';

/**
 * The zod validator compiler for every route, with two rules no schema has to repeat:
 * - a body or query string carrying a field beyond those its schema declares is refused (400
 *   `unknown_field`, before the values are validated, so nothing is changed) instead of dropped
 *   silently: a misspelt or forbidden field (`role`, `permissions`…) is never ignored;
 * - a parsed string holding a NUL character or a lone surrogate is refused on its field (422):
 *   PostgreSQL cannot store it, so it would otherwise fail deep in a query as a 500.
 */
export const strictValidatorCompiler: FastifySchemaCompiler<$ZodType> = (route) => {
  const validate = validatorCompiler(route);
  // Params and headers keep the plain compiler: a path param that is not an id names no record (404).
  if ((route.httpPart !== 'body' && route.httpPart !== 'querystring') || !(route.schema instanceof $ZodType))
    return validate;
  const keys = declaredKeys(route.schema);
  return (data) => {
    if (keys && isObject(data)) {
      const unknown = Object.keys(data).filter((key) => !keys.has(key));
      if (unknown.length > 0) return { error: new UnknownFieldsError(unknown) };
    }
    const result = validate(data) as { error?: Error; value?: unknown };
    if (result.error) return result;
    const unstorable = unstorablePath(result.value);
    return unstorable === undefined
      ? result
      : { error: new FieldErrors({ [unstorable]: [UNSTORABLE_MESSAGE] }) };
  };
};
