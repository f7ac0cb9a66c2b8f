import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
  preValidationHookHandler,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { OwnedResource } from '@portale/shared/auth';
import { isSessionPermission, type Endpoint } from '@portale/shared/http';
import {
  requireAuth,
  requireGrant,
  requirePermission,
  type RequestCheck,
  type ResourceLoader,
} from './authorization.ts';
import { HttpError } from '../lib/http-error.ts';
import { reserveExportPlace } from '../lib/export.ts';
import { HINTS_KEY, operationHints, operationIdOf } from '../lib/openapi-operation.ts';
import { Upload } from '../lib/uploads.ts';
import { UnknownFieldsError } from '../lib/request-validation.ts';

type Parsed<S> = [NonNullable<S>] extends [z.ZodType] ? z.output<NonNullable<S>> : undefined;

/** The request of a contract's route, typed by the contract's schemas. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: Parsed<E['params']>;
  Querystring: Parsed<E['query']>;
  Body: Parsed<E['body']>;
}>;

/** A request whose params are already parsed to `P` (a resource loader's view of its route). */
export type RequestWithParams<P> = FastifyRequest<{ Params: P }>;

/**
 * Loads the record of a contract's permission check (decision 049). It runs in `preHandler`, after the
 * contract parsed the params, so it reads them typed, without a cast; a loader shared by several routes
 * names only the params it reads (`RequestWithParams<{ userId: number }>`).
 */
export type EndpointResourceLoader<E extends Endpoint> = (
  request: EndpointRequest<E>,
) => Promise<OwnedResource | undefined>;

export interface EndpointRouteOptions<E extends Endpoint = Endpoint> {
  /** Loads the record the contract's permission is checked on (`:own` grants; unknown → 404). */
  resource?: EndpointResourceLoader<E>;
  /**
   * For a route without `resource` that acts on many records (a bulk action, a list): only `:any`
   * grants pass, checked before parsing (an `:own` grant alone is a 403, not a 422).
   */
  anyOnly?: boolean;
  /** Extra checks that run after the contract's permission. */
  preHandler?: preHandlerAsyncHookHandler | preHandlerAsyncHookHandler[];
  config?: RouteShorthandOptions['config'];
}

/** A CSV/XLSX export (a download whose query takes `format`): its place in the export gate is taken before its handler runs. */
export function isExportEndpoint(endpoint: Endpoint): boolean {
  const shape = (endpoint.query as { shape?: Record<string, unknown> } | undefined)?.shape;
  return endpoint.download === true && shape !== undefined && 'format' in shape;
}

function guardsOf<E extends Endpoint>(
  endpoint: E,
  options: EndpointRouteOptions<E>,
): preHandlerAsyncHookHandler[] {
  const extra = options.preHandler === undefined ? [] : [options.preHandler].flat();
  // Last, after the session and the permission (401/403 first) but before the handler's count and
  // query: a refused export costs no database work (issue 32, bench/abuse.mjs).
  if (isExportEndpoint(endpoint)) extra.push(reserveExportPlace);
  if (endpoint.permission === 'public' || isSessionPermission(endpoint.permission)) return extra;
  // The loader's request is this route's, whose params the contract has parsed by now.
  const resource = options.resource as ResourceLoader | undefined;
  return [requirePermission(endpoint.permission, resource, endpoint.conditionsOfPage), ...extra];
}

/** Checked before the input is parsed (401/403 win over 422): the session, or the grant. */
function preValidationOf<E extends Endpoint>(
  endpoint: E,
  options: EndpointRouteOptions<E>,
): RequestCheck | undefined {
  const { permission } = endpoint;
  if (permission === 'public') return undefined;
  if (permission === 'signed-in') return requireAuth();
  if (permission === 'signed-in-pending-password') return requireAuth({ allowPendingPasswordChange: true });
  return requireGrant(permission, endpoint.conditionsOfPage, { anyOnly: options.anyOnly === true });
}

/** Synchronous checks as one callback-style hook: every request of a route passes here, without a promise. */
function hookOf(checks: RequestCheck[]): preValidationHookHandler {
  return (request, _reply, done) => {
    try {
      for (const check of checks) check(request);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
}

/** A body for a route whose contract declares none (a JSON value that is not an empty object, or text). */
export class UnexpectedBodyError extends HttpError {
  constructor() {
    super(400, 'unexpected_body', 'Questa richiesta non prevede dati nel corpo.');
  }
}

/**
 * The same rule as `strictValidatorCompiler` for what a contract does not declare at all: a query on a
 * route without `query` names unknown fields (400), and so does a body on a route without `body` (an
 * empty JSON object is no data). A raw upload (a Buffer, read by its route's own content-type parser)
 * is the route's business.
 */
function refuseUndeclaredInput(endpoint: Endpoint): RequestCheck | undefined {
  if (endpoint.query && endpoint.body) return undefined;
  return (request) => {
    if (!endpoint.query) {
      const keys = Object.keys((request.query as Record<string, unknown> | undefined) ?? {});
      if (keys.length > 0) throw new UnknownFieldsError(keys);
    }
    const body: unknown = request.body;
    if (
      endpoint.body ||
      body === undefined ||
      body === null ||
      Buffer.isBuffer(body) ||
      body instanceof Upload
    )
      return;
    if (typeof body === 'object' && !Array.isArray(body)) {
      const keys = Object.keys(body);
      if (keys.length > 0) throw new UnknownFieldsError(keys);
      return;
    }
    if (body === '') return;
    throw new UnexpectedBodyError();
  };
}

/**
 * Registers the route of a shared contract: path, method, params, query, body and response come from
 * `endpoint` (validated, serialised and documented by the same zod schemas). Download endpoints send
 * their own body. The contract's `permission` is enforced here: `requireAuth` for the session-only
 * values, `requireGrant` then `requirePermission` (on the record that `options.resource` loads) for a
 * permission check; a route is public only when its contract says so.
 */
export function registerEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  options: EndpointRouteOptions<E>,
  handler: (request: EndpointRequest<E>, reply: FastifyReply) => Promise<unknown>,
): void {
  const status = endpoint.status ?? 200;
  // The session or the grant first (401/403 win over 400/422), then what the contract does not declare.
  const checks = [preValidationOf(endpoint, options), refuseUndeclaredInput(endpoint)].filter(
    (check) => check !== undefined,
  );
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    // The session or the grant is checked before the input is parsed (401/403 win over 422), the record after.
    ...(checks.length > 0 ? { preValidation: hookOf(checks) } : {}),
    preHandler: guardsOf(endpoint, options),
    // A protocol's own HEAD (tus) is documented; the HEAD twins Fastify adds to GET routes are not.
    ...(options.config || endpoint.method === 'HEAD'
      ? {
          config: {
            ...options.config,
            ...(endpoint.method === 'HEAD' ? { swagger: { exposeHeadRoute: true } } : {}),
          },
        }
      : {}),
    schema: {
      tags: [endpoint.tag],
      summary: endpoint.summary,
      operationId: operationIdOf(endpoint.method, endpoint.path),
      // Public routes need nothing; every other one the access token (cookies alone are not a session).
      security: endpoint.permission === 'public' ? [] : [{ bearer: [] }],
      [HINTS_KEY]: operationHints(endpoint, endpoint.method !== 'GET' && endpoint.method !== 'HEAD'),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.download ? {} : { response: { [status]: endpoint.response, ...endpoint.otherResponses } }),
    },
    handler: async (request, reply) => {
      const result = await handler(request as unknown as EndpointRequest<E>, reply);
      if (reply.sent || endpoint.download) return result;
      if (status === 204) return reply.status(204).send();
      return reply.status(status).send(result);
    },
  });
}
