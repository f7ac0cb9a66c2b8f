// Serves the built web app: hashed assets cached for a year, index.html and build.json never cached,
// every unknown path answered with the app (client-side routing decides on 404), strict CSP.
// HSTS is sent on every answer: browsers ignore it over plain http (development), and in production
// TLS usually ends at a proxy, so this server cannot tell. Only GET and HEAD exist (TRACE & co.: 405).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

const root = fileURLToPath(new URL('../dist/', import.meta.url));
const host = process.env.HOST ?? 'localhost';
const port = Number(process.env.PORT ?? 3000);
const apiOrigin = process.env.API_ORIGIN ?? 'http://localhost:8000';
const extraConnect = (process.env.CSP_CONNECT_EXTRA ?? '').split(' ').filter(Boolean);
// Google Analytics 4 only when a measurement id is configured; the app loads it only after consent.
const gaId = /^G-[A-Z0-9]{4,20}$/.test(process.env.GA_MEASUREMENT_ID ?? '')
  ? process.env.GA_MEASUREMENT_ID
  : '';
if (process.env.GA_MEASUREMENT_ID && !gaId) throw new Error('GA_MEASUREMENT_ID must look like G-XXXXXXXXXX');
const ga = gaId
  ? {
      script: ['https://*.googletagmanager.com'],
      connect: [
        'https://*.google-analytics.com',
        'https://*.analytics.google.com',
        'https://*.googletagmanager.com',
      ],
      img: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
    }
  : { script: [], connect: [], img: [] };
const sources = (...list) => list.flat().filter(Boolean).join(' ');

const escapeAttr = (value) => value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
const withConfig = (html) =>
  html.replace('%PORTALE_API_ORIGIN%', escapeAttr(apiOrigin)).replace('%PORTALE_GA_ID%', escapeAttr(gaId));
const indexHtml = withConfig(readFileSync(`${root}index.html`, 'utf8'));
// The public pages rendered at build time with their critical CSS (scripts/post-build.mjs,
// dist/prerendered.json: path → its two files): a phone paints them before the app's code arrives, and
// the app renders the same page over them. A browser with no valid choice about cookies gets the variant
// with the banner, by the app's own rule (dist/server/consent-cookies.js), so that the banner is in the
// first paint too. Any other path gets the empty app.
const prerendered = new Map(
  existsSync(`${root}prerendered.json`)
    ? Object.entries(JSON.parse(readFileSync(`${root}prerendered.json`, 'utf8'))).map(([path, files]) => [
        path,
        {
          page: withConfig(readFileSync(`${root}${files.page}`, 'utf8')),
          withConsentBanner: withConfig(readFileSync(`${root}${files.withConsentBanner}`, 'utf8')),
        },
      ])
    : [],
);
const { readStoredConsent } = prerendered.size ? await import(`${root}server/consent-cookies.js`) : {};
/** The prerendered page for a request (path with or without a trailing slash), if there is one. */
const prerenderedFor = (req) => {
  const path = req.url.split('?')[0];
  const variants = prerendered.get(path) ?? prerendered.get(path.replace(/(.)\/$/, '$1'));
  if (!variants) return undefined;
  return readStoredConsent(Date.now(), req.headers.cookie ?? '').mustAsk
    ? variants.withConsentBanner
    : variants.page;
};
const csp = [
  "default-src 'self'",
  `script-src ${sources("'self'", ga.script)}`,
  "style-src 'self' 'unsafe-inline'",
  `img-src ${sources("'self' data:", ga.img)}`,
  "font-src 'self' data:",
  `connect-src ${sources("'self'", apiOrigin, extraConnect, ga.connect)}`,
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

// The reset link carries its token in the query string: that page never sends a Referer.
const NO_REFERRER_PATHS = new Set(['/auth/reset-password', '/auth/reset-password/']);
const ALLOWED_METHODS = new Set(['GET', 'HEAD']);

const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' } });
app.addHook('onRequest', async (req, reply) => {
  if (!ALLOWED_METHODS.has(req.method))
    return reply.code(405).header('allow', 'GET, HEAD').type('text/plain').send('Method Not Allowed');
});
app.addHook('onSend', async (req, reply) => {
  reply.header('content-security-policy', csp);
  reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  reply.header('x-content-type-options', 'nosniff');
  reply.header(
    'referrer-policy',
    NO_REFERRER_PATHS.has(req.url.split('?')[0]) ? 'no-referrer' : 'strict-origin-when-cross-origin',
  );
  reply.header('x-frame-options', 'DENY');
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
});
await app.register(compress, { global: true });
await app.register(fastifyStatic, {
  root,
  index: false,
  cacheControl: false,
  wildcard: false,
  // The HTML templates are only served through the routes below, with their configuration filled in;
  // dist/server/ is this server's own code.
  allowedPath: (pathName) => !pathName.endsWith('.html') && !pathName.startsWith('/server/'),
  setHeaders(res, path) {
    res.setHeader(
      'cache-control',
      path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
  },
});
const sendHtml = (reply, html) =>
  reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
const sendIndex = (req, reply) => {
  const page = prerenderedFor(req);
  // A prerendered page depends on the consent cookies: no shared cache may give one visitor's to another.
  if (page) reply.header('vary', 'Cookie');
  return sendHtml(reply, page ?? indexHtml);
};
app.get('/', sendIndex);
// Files of dist/ have their own routes (wildcard: false); every other path is the app, except a
// missing hashed asset, which is a real 404 (stale chunk after a deploy).
app.get('/*', (req, reply) =>
  req.url.startsWith('/assets/')
    ? reply.code(404).type('text/plain').send('Not found')
    : sendIndex(req, reply),
);
app.setNotFoundHandler(sendIndex);

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => app.close().then(() => process.exit(0)));
await app.listen({ host, port });
