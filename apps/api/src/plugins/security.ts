import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/http-error.ts';
import { rateLimits } from './rate-limits.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Headers, CORS allow-list, cookies, rate limits, Fetch-Metadata and JSON-only bodies. */
export const security = fp(async (app: FastifyInstance) => {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    crossOriginResourcePolicy: { policy: 'same-site' },
    referrerPolicy: { policy: 'no-referrer' },
  });
  await app.register(cors, {
    origin: app.env.webOrigins,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['content-type', 'authorization', 'x-xsrf-token', 'accept'],
    // Exports: the web reads the file name and the row count (progress) of a download.
    exposedHeaders: ['content-disposition', 'x-total-count'],
    maxAge: 600,
  });
  await app.register(cookie);
  await app.register(rateLimits);
  // Only JSON bodies: fastify answers 415 for any content type without a parser.
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', async (request) => {
    if (UNSAFE.has(request.method) && request.headers['sec-fetch-site'] === 'cross-site') {
      throw new HttpError(403, 'cross_site_request', 'Richiesta da un altro sito rifiutata.');
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
});
