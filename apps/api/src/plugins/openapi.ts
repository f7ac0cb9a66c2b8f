import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { documentOperations } from '../lib/openapi-operation.ts';

type Transform = typeof jsonSchemaTransform;

/** The request bodies are documented as they are checked: no field beyond the declared ones (lib/request-validation.ts). */
const transform: Transform = (input) => {
  const result = jsonSchemaTransform(input);
  const body = (result.schema as { body?: Record<string, unknown> } | undefined)?.body;
  if (body && body.type === 'object' && body.properties && !('additionalProperties' in body))
    body.additionalProperties = false;
  return result;
};

/** The OpenAPI document, built from the route schemas and served at /api/openapi.json. */
export const openapi = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Portale Scuole API', version: '1.0.0', description: 'API del Portale Scuole.' },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'Il token di accesso di `POST /api/auth/login` (o di `/api/auth/refresh`). Le richieste che cambiano dati inviano anche `X-XSRF-TOKEN` con il valore del cookie `XSRF-TOKEN` (`GET /sanctum/csrf-cookie`).',
          },
        },
      },
    },
    transform,
    // Security, error answers, file bodies and the shared error schema of every operation.
    transformObject: (input) =>
      documentOperations(
        ('openapiObject' in input ? input.openapiObject : input.swaggerObject) as Parameters<
          typeof documentOperations
        >[0],
      ) as never,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
