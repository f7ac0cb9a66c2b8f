import rateLimit, { normalizeIP, type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_MESSAGES } from '@portale/shared/http';
import { isEmbedded } from '../db/client.ts';
import { HttpError } from '../lib/http-error.ts';
import { MemoryCounter, PostgresCounter, type RateCounter } from '../lib/rate-counters.ts';

const HOUR_MS = 60 * 60_000;

/** "tra circa 1 minuto", "tra circa 12 minuti". */
const inMinutes = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `tra circa ${minutes} ${minutes === 1 ? 'minuto' : 'minuti'}`;
};

export interface GlobalCap {
  name: string;
  /** `METHOD /path` of every route that counts against the ceiling. */
  routes: string[];
  max: number;
  message: (retryAfterSeconds: number) => string;
}

/**
 * The costly endpoints (each request may send an SMS or an e-mail) and their hourly ceiling for the
 * whole portal, whatever the source address: rotating addresses gets past the per-IP limits, not
 * past these. Each route also keeps its own tighter per-IP (or per-user) limit in its `config`.
 * Codes and bookings join here when they exist.
 */
export function globalCaps(env: FastifyInstance['env']): GlobalCap[] {
  return [
    {
      name: 'sms',
      routes: ['POST /api/phone-verifications', 'POST /api/phone-verifications/:verificationId/resend', 'POST /api/account/phone-verifications'],
      max: env.GLOBAL_SMS_MAX_PER_HOUR,
      message: (s) => `Per sicurezza l’invio dei codici via SMS è sospeso: il portale ne ha inviati troppi nell’ultima ora. Riprova ${inMinutes(s)}.`,
    },
    {
      name: 'registrations',
      routes: ['POST /api/registrations', 'POST /api/enrolments'],
      max: env.GLOBAL_REGISTRATIONS_MAX_PER_HOUR,
      message: (s) => `Per sicurezza le nuove registrazioni sono sospese: il portale ne ha ricevute troppe nell’ultima ora. Riprova ${inMinutes(s)}.`,
    },
    {
      name: 'emails',
      routes: ['POST /api/auth/forgot-password', 'POST /api/email-verifications/resend'],
      max: env.GLOBAL_EMAILS_MAX_PER_HOUR,
      message: (s) => `Per sicurezza l’invio di questo tipo di e-mail è sospeso: il portale ne ha inviate troppe nell’ultima ora. Riprova ${inMinutes(s)}.`,
    },
    {
      name: 'contact',
      routes: ['POST /api/public/contact'],
      max: env.GLOBAL_CONTACT_MAX_PER_HOUR,
      message: (s) => `Per sicurezza il modulo di contatto è sospeso: il portale ha ricevuto troppi messaggi nell’ultima ora. Riprova ${inMinutes(s)}.`,
    },
  ];
}

/** Who a request counts against: the signed-in user (every teacher of a school shares one IP), else the IP. */
export function rateLimitKey(request: FastifyRequest): string {
  return request.auth ? `user:${request.auth.user.id}` : `ip:${normalizeIP(request.ip)}`;
}

const routeKeys = (method: string | string[], url: string) => (Array.isArray(method) ? method : [method]).map((m) => `${m} ${url}`);

/**
 * Rate limits, shared by every API instance on PostgreSQL (counters in `rate_limit_hits`), in this
 * process on the embedded database:
 * - every route: RATE_LIMIT_MAX requests a minute per IP for anonymous traffic, RATE_LIMIT_USER_MAX
 *   per user for signed-in traffic. The check runs in `preParsing`, after the session hook
 *   (`onRequest`) has resolved the bearer token, so only a valid token counts as a user; a made-up
 *   one counts against its IP;
 * - the sensitive routes keep their own tighter limit (`config.rateLimit`), per IP or user;
 * - the costly ones also count against an hourly ceiling for the whole portal (`globalCaps`).
 * Every refusal is a 429 in Italian with Retry-After.
 */
export const rateLimits = fp(async (app: FastifyInstance) => {
  const { env } = app;
  const onError = (error: unknown) => app.log.warn({ err: error }, 'rate-limit counters: database unreachable, counting locally meanwhile');
  const shared = !isEmbedded(app.db);
  const counters: { everyRoute: RateCounter; exact: RateCounter } = shared
    ? {
        everyRoute: new PostgresCounter(app.db, app.clock, env.APP_SECRET, { kind: 'batched', flushMs: 1000 }, onError),
        exact: new PostgresCounter(app.db, app.clock, env.APP_SECRET, { kind: 'exact' }, onError),
      }
    : { everyRoute: new MemoryCounter(app.clock), exact: new MemoryCounter(app.clock) };
  app.addHook('onClose', async () => {
    await counters.everyRoute.close();
    await counters.exact.close();
  });

  /** @fastify/rate-limit's store: the route-wide limit on the batched counter, each route's own on the exact one. */
  class Store implements FastifyRateLimitStore {
    private readonly scope: string;
    private readonly counter: RateCounter;

    /** The plugin passes its options (unused); `child` passes the route's scope. */
    constructor(_options?: unknown, route?: { scope: string; counter: RateCounter }) {
      this.scope = route?.scope ?? '*';
      this.counter = route?.counter ?? counters.everyRoute;
    }

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      this.counter.hit(`${this.scope}|${key}`, timeWindow).then(
        (r) => callback(null, { current: r.count, ttl: r.resetInMs }),
        (error: Error) => callback(error),
      );
    }

    child(options: unknown) {
      const route = (options as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
      return new Store(undefined, { scope: routeKeys(route?.method ?? '*', route?.url ?? '*').join(','), counter: counters.exact });
    }
  }

  await app.register(rateLimit, {
    hook: 'preParsing',
    store: Store,
    keyGenerator: rateLimitKey,
    max: (request) => (request.auth ? env.RATE_LIMIT_USER_MAX : env.RATE_LIMIT_MAX),
    timeWindow: '1 minute',
    // The counters are told only with a refusal (429 with Retry-After), not on every answer (decision 024).
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    errorResponseBuilder: (_req, ctx) =>
      new HttpError(429, 'rate_limited', ERROR_MESSAGES.rateLimited, { 'retry-after': String(Math.max(1, Math.ceil(ctx.ttl / 1000))) }),
  });

  const caps = globalCaps(env);
  const capOfRoute = new Map(caps.flatMap((cap) => cap.routes.map((route) => [route, cap] as const)));
  const seen = new Set<string>();
  const warnedUntil = new Map<string, number>();
  const capHook = (cap: GlobalCap): preHandlerAsyncHookHandler =>
    async function globalCap(request) {
      const { count, resetInMs } = await counters.exact.hit(`cap:${cap.name}`, HOUR_MS);
      if (count <= cap.max) return;
      const retryAfter = Math.max(1, Math.ceil(resetInMs / 1000));
      const windowEnd = app.clock.now().getTime() + resetInMs;
      if ((warnedUntil.get(cap.name) ?? 0) < windowEnd) {
        // Once per window and instance: someone is sending many costly requests from many addresses.
        warnedUntil.set(cap.name, windowEnd);
        request.log.warn({ cap: cap.name, max: cap.max, retryAfter }, 'global hourly ceiling reached: requests refused until the window ends');
      }
      throw new HttpError(429, 'global_rate_limited', cap.message(retryAfter), { 'retry-after': String(retryAfter) });
    };
  app.addHook('onRoute', (route) => {
    for (const key of routeKeys(route.method, route.url)) {
      const cap = capOfRoute.get(key);
      if (!cap) continue;
      seen.add(key);
      const own = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
      // After the route's own checks (authentication, validation): refused requests cost nothing.
      route.preHandler = [...own, capHook(cap)];
    }
  });
  app.addHook('onReady', async () => {
    const missing = [...capOfRoute.keys()].filter((key) => !seen.has(key));
    if (missing.length > 0) throw new Error(`globalCaps names routes that do not exist: ${missing.join(', ')}`);
  });
});
