/** The subset of OpenAPI 3.0 schema objects that `@fastify/swagger` writes from the zod contracts. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

/** The one type a schema has (`nullable` aside), or undefined for unions and the empty schema. */
export function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

/** Inclusive numeric bounds, reading OpenAPI 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` too. */
export function boundsOf(schema: JsonSchema, integer: boolean): { min: number; max: number } {
  const step = integer ? 1 : Number.EPSILON;
  let min = schema.minimum ?? Number.MIN_SAFE_INTEGER;
  let max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
  if (schema.exclusiveMinimum === true) min += step;
  else if (typeof schema.exclusiveMinimum === 'number') min = schema.exclusiveMinimum + step;
  if (schema.exclusiveMaximum === true) max -= step;
  else if (typeof schema.exclusiveMaximum === 'number') max = schema.exclusiveMaximum - step;
  if (integer) {
    min = Math.max(Math.ceil(min), Number.MIN_SAFE_INTEGER);
    max = Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER);
  }
  return { min, max };
}

/**
 * The same schema in the JSON Schema dialect Ajv reads (draft-07): OpenAPI 3.0's boolean exclusive
 * bounds become numbers and `nullable: true` becomes a union with null. Everything else is kept.
 */
export function toAjvSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toAjvSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const source = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, toAjvSchema(sub)]),
      );
    } else if (
      key !== 'nullable' &&
      key !== 'exclusiveMinimum' &&
      key !== 'exclusiveMaximum' &&
      key !== 'example' &&
      key !== 'description'
    ) {
      out[key] = toAjvSchema(value);
    }
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (source[flag] === true && typeof source[bound] === 'number') {
      out[flag] = source[bound];
      delete out[bound];
    } else if (typeof source[flag] === 'number') out[flag] = source[flag];
  }
  if (source.nullable === true) {
    const { default: _default, ...rest } = out;
    return { anyOf: [rest, { type: 'null' }], ...(_default === undefined ? {} : { default: _default }) };
  }
  return out;
}
