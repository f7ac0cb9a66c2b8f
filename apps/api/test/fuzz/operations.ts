import type { JsonSchema } from './json-schema.ts';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

/** One operation of the OpenAPI document, as the fuzzer needs it. */
export interface Operation {
  /** `METHOD /path/{param}`: names the operation in reports and in FUZZ_ONLY. */
  key: string;
  method: Method;
  /** OpenAPI path, with `{param}` segments. */
  path: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body?: JsonSchema;
  bodyRequired: boolean;
  /** Every method the document declares on this path (a `hostile:method` case uses another one). */
  pathMethods: ReadonlySet<Method>;
  /** Declared responses: status → JSON schema of the body (undefined: no body documented). */
  responses: Map<number, JsonSchema | undefined>;
}

interface OpenApiOperation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const METHODS = new Set(['get', 'head', 'post', 'put', 'patch', 'delete']);

/** A response schema that names a shared component → that component (the error shape → none: see below). */
function resolved(document: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema | undefined {
  const ref = (schema as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== 'string') return schema;
  // The one error shape: the oracle checks it itself, with the status it must repeat.
  if (ref === '#/components/schemas/ApiError') return undefined;
  const found = document.components?.schemas?.[ref.replace('#/components/schemas/', '')];
  if (!found) throw new Error(`unresolved ${ref} in the OpenAPI document`);
  return found;
}

/** Every operation of the document (HEAD twins of GET routes included: they are routes too). */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const pathMethods = new Set(
      Object.keys(item)
        .filter((verb) => METHODS.has(verb))
        .map((verb) => verb.toUpperCase() as Method),
    );
    for (const [verb, operation] of Object.entries(item)) {
      if (!METHODS.has(verb)) continue;
      const method = verb.toUpperCase() as Method;
      const parameters = operation.parameters ?? [];
      const responses = new Map<number, JsonSchema | undefined>();
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (/^\d{3}$/.test(status))
          responses.set(Number(status), resolved(document, response.content?.['application/json']?.schema));
      }
      operations.push({
        key: `${method} ${path}`,
        method,
        path,
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        body: operation.requestBody?.content?.['application/json']?.schema,
        bodyRequired: operation.requestBody?.required ?? false,
        pathMethods,
        responses,
      });
    }
  }
  return operations;
}
