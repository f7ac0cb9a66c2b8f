import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler, RouteShorthandOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Endpoint } from '@portale/shared/http';

type Parsed<S> = [NonNullable<S>] extends [z.ZodType] ? z.output<NonNullable<S>> : undefined;

/** The request of a contract's route, typed by the contract's schemas. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: Parsed<E['params']>;
  Querystring: Parsed<E['query']>;
  Body: Parsed<E['body']>;
}>;

export interface EndpointRouteOptions {
  /** The only way to protect a data route: `requirePermission(...)` (plus any extra checks). */
  preHandler: preHandlerAsyncHookHandler | preHandlerAsyncHookHandler[] | 'public';
  config?: RouteShorthandOptions['config'];
}

/**
 * Registers the route of a shared contract: path, method, params, query, body and response come from
 * `endpoint` (validated, serialised and documented by the same zod schemas). Download endpoints send
 * their own body. Every route states its protection: a preHandler, or `'public'` on purpose.
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
    ...(options.preHandler === 'public' ? {} : { preHandler: options.preHandler }),
    ...(options.config ? { config: options.config } : {}),
    schema: {
      tags: [endpoint.tag],
      summary: endpoint.summary,
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.download ? {} : { response: { [status]: endpoint.response } }),
    },
    handler: async (request, reply) => {
      const result = await handler(request as unknown as EndpointRequest<E>, reply);
      if (reply.sent || endpoint.download) return result;
      if (status === 204) return reply.status(204).send();
      return reply.status(status).send(result);
    },
  });
}
