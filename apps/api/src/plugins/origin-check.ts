import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** At most this many distinct origins are remembered (and reported). */
const MAX_REPORTED = 50;

/**
 * Development aid only (it refuses nothing: the refusal of a write from a foreign origin is in
 * `security.ts`). A browser request from an origin that the CORS allow-list (WEB_ORIGIN) does not
 * hold fails in the browser with nothing in the API log. Outside production, say so once per origin.
 */
export const originCheck = fp(async (app: FastifyInstance) => {
  if (app.env.NODE_ENV === 'production') return;
  const allowed = new Set(app.env.webOrigins);
  const reported = new Set<string>();
  const report = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (!origin || origin === 'null' || allowed.has(origin) || reported.has(origin)) return;
    if (reported.size >= MAX_REPORTED) return;
    // Same-origin requests (a page served by the API itself) are not cross-origin at all.
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (host && host === request.headers.host) return;
    reported.add(origin);
    request.log.warn(
      { origin, allowedOrigins: [...allowed] },
      `Richiesta da un'origine non consentita (${origin}): aggiungila a WEB_ORIGIN (ora: ${[...allowed].join(',') || 'vuota'}), altrimenti il browser la blocca`,
    );
  };
  app.addHook('onRequest', (request, _reply, done) => {
    report(request);
    done();
  });
});
