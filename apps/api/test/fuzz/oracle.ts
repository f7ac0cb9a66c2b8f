import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { LEAK } from './arbitraries.ts';
import { toAjvSchema, type JsonSchema } from './json-schema.ts';
import type { Operation } from './operations.ts';
import type { FuzzRequest } from './requests.ts';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

export interface Response {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** The API's one error shape (packages/shared/src/http/api-error.ts), nothing more. */
const ERROR_SHAPE = {
  type: 'object',
  required: ['statusCode', 'code', 'message'],
  additionalProperties: false,
  properties: {
    statusCode: { type: 'integer', minimum: 400, maximum: 599 },
    code: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
    message: { type: 'string', minLength: 1 },
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
};

/**
 * Judges each response of the fuzz run: no 5xx, no internals in a text body, 2xx bodies valid against
 * the declared schema of their status (undeclared 2xx statuses fail), other statuses in the one error
 * shape with a matching `statusCode` (or their own declared schema, e.g. the health check's 503).
 */
export class Oracle {
  private readonly ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly errorShape: ValidateFunction;

  constructor() {
    addFormats(this.ajv);
    this.errorShape = this.ajv.compile(ERROR_SHAPE);
  }

  private validator(op: Operation, status: number, schema: JsonSchema): ValidateFunction {
    const key = `${op.key} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(toAjvSchema(schema) as object);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /** What is wrong with the response, or undefined. */
  judge(op: Operation, req: FuzzRequest, res: Response): string | undefined {
    const status = res.statusCode;
    if (status >= 500) return `server error ${status}`;
    const type = String(res.headers['content-type'] ?? '');
    const textual = type === '' || /json|text|xml|csv|html/i.test(type);
    if (textual) {
      const leak = LEAK.exec(res.body);
      if (leak) return `internals in the body: «${leak[0]}»`;
    }
    if (req.method === 'HEAD') return res.body === '' ? undefined : 'HEAD answered with a body';
    const declared = op.responses;
    const schema = declared.get(status);
    if (status >= 200 && status < 300) {
      if (declared.size > 0 && !declared.has(status))
        return `undeclared status ${status} (declared: ${[...declared.keys()].join(', ')})`;
      if (status === 204) return res.body === '' ? undefined : '204 with a body';
      if (!schema) return undefined;
      return this.validate(op, status, schema, type, res.body);
    }
    if (status >= 300 && status < 400) return `unexpected redirect ${status}`;
    if (schema) return this.validate(op, status, schema, type, res.body);
    if (!/^application\/json\b/.test(type))
      return `error ${status} is not JSON (${type || 'no content type'})`;
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      return `error ${status} body is not valid JSON`;
    }
    if (!this.errorShape(body))
      return `error ${status} not in the one error shape: ${this.ajv.errorsText(this.errorShape.errors)}`;
    if ((body as { statusCode: number }).statusCode !== status)
      return `error body says ${(body as { statusCode: number }).statusCode}, status is ${status}`;
    return undefined;
  }

  private validate(
    op: Operation,
    status: number,
    schema: JsonSchema,
    type: string,
    text: string,
  ): string | undefined {
    if (!/^application\/json\b/.test(type))
      return `${status} is not JSON (${type || 'no content type'}) but the document declares a JSON body`;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `${status} body is not valid JSON`;
    }
    const validate = this.validator(op, status, schema);
    if (!validate(body))
      return `${status} body does not match the declared schema: ${this.ajv.errorsText(validate.errors)}`;
    return undefined;
  }
}
