import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type Transform = typeof jsonSchemaTransform;

/** The request bodies are documented as they are checked: no field beyond the declared ones (lib/request-validation.ts). */
const transform: Transform = (input) => {
  const result = jsonSchemaTransform(input);
  const body = (result.schema as { body?: Record<string, unknown> } | undefined)?.body;
  if (body && body.type === 'object' && body.properties && !('additionalProperties' in body)) body.additionalProperties = false;
  return result;
};

/** The OpenAPI document, built from the route schemas and served at /api/openapi.json. */
export const openapi = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Portale Scuole API', version: '1.0.0', description: 'API del Portale Scuole.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
