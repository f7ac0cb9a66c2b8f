import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler, RouteShorthandOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Endpoint } from '@portale/shared/http';
import { requireGrant, requirePermission, type ResourceLoader } from '../plugins/authorization.ts';

type Parsed<S> = [NonNullable<S>] extends [z.ZodType] ? z.output<NonNullable<S>> : undefined;

/** The request of a contract's route, typed by the contract's schemas. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: Parsed<E['params']>;
  Querystring: Parsed<E['query']>;
  Body: Parsed<E['body']>;
}>;

export interface EndpointRouteOptions {
  /** Loads the record the contract's permission is checked on (`:own` grants; unknown → 404). */
  resource?: ResourceLoader;
  /**
   * For contracts without `permission` only: the protection, `requirePermission(...)` or `'public'`.
   * With a contract permission, extra checks that run after it.
   */
  preHandler?: preHandlerAsyncHookHandler | preHandlerAsyncHookHandler[] | 'public';
  config?: RouteShorthandOptions['config'];
}

function guardsOf(endpoint: Endpoint, options: EndpointRouteOptions): preHandlerAsyncHookHandler[] {
  const extra = options.preHandler === undefined || options.preHandler === 'public' ? [] : [options.preHandler].flat();
  if (endpoint.permission === 'public') return extra;
  if (endpoint.permission) return [requirePermission(endpoint.permission, options.resource), ...extra];
  // A route is never unprotected by omission.
  if (options.preHandler === undefined) throw new Error(`${endpoint.method} ${endpoint.path}: no permission in the contract and no preHandler`);
  return extra;
}

/**
 * Registers the route of a shared contract: path, method, params, query, body and response come from
 * `endpoint` (validated, serialised and documented by the same zod schemas). Download endpoints send
 * their own body. The contract's `permission` is enforced here with `requirePermission` (on the record
 * that `options.resource` loads); a route is public only when its contract says so.
 */
export function registerEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  options: EndpointRouteOptions,
  handler: (request: EndpointRequest<E>, reply: FastifyReply) => Promise<unknown>,
): void {
  const status = endpoint.status ?? 200;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    // The grant is checked before the input is parsed (401/403 win over 422), the record after.
    ...(endpoint.permission && endpoint.permission !== 'public' ? { preValidation: requireGrant(endpoint.permission) } : {}),
    preHandler: guardsOf(endpoint, options),
    ...(options.config ? { config: options.config } : {}),
    schema: {
      tags: [endpoint.tag],
      summary: endpoint.summary,
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
