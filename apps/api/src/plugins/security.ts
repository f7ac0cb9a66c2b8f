import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { HttpError } from '../lib/http-error.ts';
import { rateLimits } from './rate-limits.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const HELMET: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
    },
  },
  crossOriginResourcePolicy: { policy: 'same-site' },
  referrerPolicy: { policy: 'no-referrer' },
  // A page of the API (the OpenAPI viewer, a file opened in a tab) keeps no handle on, and is kept by
  // none of, another site's window (issue 32: restored after decision 024 dropped it).
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  // Headers that act only on an HTML document or a legacy browser or plug-in, never on the JSON and
  // the files this API answers (decision 024). Each one cost about 1 % of a cached request.
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/**
 * The headers helmet sets with `options`, computed once: every answer of the API gets the same ones,
 * and helmet's Fastify plugin built its configuration again on every request (~9 % of a cached
 * `GET /api/auth/me`, decision 021).
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let done = false;
  helmet(options)({} as never, response as never, () => (done = true));
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

/** The origin of a URL as browsers send it (`scheme://host[:port]`), or undefined when it is none. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a write may come from `origin` (the `Origin` header, absent for non-browser clients, which
 * still need the XSRF pair): an origin of WEB_ORIGIN, or the API's own (a page it serves itself).
 * `null` (sandboxed frames, some cross-site redirects) and anything else are foreign.
 */
export function isAllowedOrigin(
  origin: string | undefined,
  allowed: ReadonlySet<string>,
  host: string | undefined,
): boolean {
  if (origin === undefined) return true;
  const normalised = originOf(origin);
  if (!normalised) return false;
  return allowed.has(normalised) || (host !== undefined && new URL(normalised).host === host.toLowerCase());
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route receives a form another site's page posts (SAML HTTP-POST binding: SPID's identity
     * providers post the signed Response to our assertion consumer service, decision 052): neither the
     * Fetch-Metadata/Origin check nor the XSRF pair applies. The route authenticates the body itself
     * (the provider's XML signature, bound to a one-time request of this browser) and uses no session.
     */
    crossSiteForm?: true;
  }
}

/** Whether the request's route takes a cross-site form (see `crossSiteForm`). */
export function takesCrossSiteForm(request: FastifyRequest): boolean {
  return request.routeOptions.config.crossSiteForm === true;
}

export const FOREIGN_ORIGIN_MESSAGE = 'Richiesta da un’origine non consentita rifiutata.';

/** Headers, CORS allow-list, cookies, rate limits, Fetch-Metadata, Origin and JSON-only bodies. */
export const security = fp(async (app: FastifyInstance) => {
  const securityHeaders = helmetHeaders(HELMET);
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(securityHeaders);
    done();
  });
  await app.register(cors, {
    origin: app.env.webOrigins,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'content-type',
      'authorization',
      'x-xsrf-token',
      'accept',
      // tus (the resumable photo uploads of decision 055).
      'tus-resumable',
      'upload-length',
      'upload-metadata',
      'upload-offset',
    ],
    // Exports: the web reads the file name and the row count (progress) of a download.
    exposedHeaders: ['content-disposition', 'x-total-count'],
    maxAge: 600,
  });
  await app.register(cookie);
  await app.register(rateLimits);
  // Only JSON bodies: fastify answers 415 for any content type without a parser.
  app.removeContentTypeParser('text/plain');

  // Fetch Metadata and Origin: a write sent by another site, or by a page of an origin that WEB_ORIGIN
  // does not list, is refused (after CORS, so the refusal is readable). The XSRF pair stays the check
  // of every write; this one also holds when a cookie leaks to a sibling subdomain (issue 32).
  const allowedOrigins = new Set(app.env.webOrigins.map((o) => originOf(o) ?? o));
  app.addHook('onRequest', (request, _reply, done) => {
    if (!UNSAFE.has(request.method) || takesCrossSiteForm(request)) return done();
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      return done(new HttpError(403, 'cross_site_request', 'Richiesta da un altro sito rifiutata.'));
    }
    if (!isAllowedOrigin(request.headers.origin, allowedOrigins, request.headers.host)) {
      return done(new HttpError(403, 'cross_origin_request', FOREIGN_ORIGIN_MESSAGE));
    }
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
});
