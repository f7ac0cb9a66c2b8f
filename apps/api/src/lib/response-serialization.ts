import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import {
  ResponseSerializationError,
  serializerCompiler as encodingSerializerCompiler,
} from 'fastify-type-provider-zod';
import { $ZodType, safeParse } from 'zod/v4/core';

type Def = {
  type: string;
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  innerType?: $ZodType;
  element?: $ZodType;
  options?: $ZodType[];
  left?: $ZodType;
  right?: $ZodType;
  keyType?: $ZodType;
  valueType?: $ZodType;
  items?: $ZodType[];
  rest?: $ZodType | null;
  getter?: () => $ZodType;
};

/** Schema kinds whose backward pass (encode) may differ from their forward pass (parse). */
const DIRECTIONAL = new Set(['pipe', 'transform', 'default', 'prefault', 'catch', 'success']);

/**
 * Whether parsing a value with `schema` gives exactly what encoding it gives: true when no part of the
 * schema transforms, pipes or fills in a value (zod: "in most cases, this is a distinction without a
 * difference"). Recursive schemas are followed once.
 */
export function parsesAsItEncodes(schema: $ZodType, seen = new Set<$ZodType>()): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = schema._zod.def as unknown as Def;
  if (DIRECTIONAL.has(def.type)) return false;
  const parts: ($ZodType | null | undefined)[] = [
    ...Object.values(def.shape ?? {}),
    def.catchall,
    def.innerType,
    def.element,
    ...(def.options ?? []),
    def.left,
    def.right,
    def.keyType,
    def.valueType,
    ...(def.items ?? []),
    def.rest,
    def.type === 'lazy' && def.getter ? def.getter() : undefined,
  ];
  return parts.every((part) => !part || parsesAsItEncodes(part, seen));
}

/**
 * Serialises a declared answer: zod checks it and strips every field the contract does not declare,
 * then `JSON.stringify`. Where parsing and encoding give the same result (every answer of this API so
 * far), the check is zod's forward parse, which zod compiles for each object schema; its backward pass
 * (`encode`, what fastify-type-provider-zod runs) is interpreted, and took 9–16 µs of a cached
 * `GET /api/auth/me` in the API process (decision 024). Other schemas keep the encoding serializer.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const { schema, method, url } = route as { schema: unknown; method: string; url: string };
  if (!(schema instanceof $ZodType) || !parsesAsItEncodes(schema))
    return encodingSerializerCompiler(route as never);
  // Answers a handler keeps and returns again (frozenAnswer): checked and written once per route.
  const written = new WeakMap<object, string>();
  return (data) => {
    const kept = isFrozenAnswer(data);
    if (kept) {
      const text = written.get(data);
      if (text !== undefined) return text;
    }
    const result = safeParse(schema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    const text = JSON.stringify(result.data);
    if (kept) written.set(data, text);
    return text;
  };
};

function isFrozenAnswer(data: unknown): data is object {
  return typeof data === 'object' && data !== null && Object.isFrozen(data);
}

/**
 * An answer that a handler keeps and sends again while what it shows is unchanged (`/me` for one
 * cached session): a deep copy of `answer`, frozen all the way down, so it can never change after
 * its first check. responseSerializerCompiler checks and writes such an answer once per route and
 * sends the same text every later time (decision 025); a handler builds a new one when the data
 * changes.
 */
export function frozenAnswer<T extends object>(answer: T): Readonly<T> {
  return deepFreeze(structuredClone(answer));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
