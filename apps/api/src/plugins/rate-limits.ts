import rateLimit, { normalizeIP, type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_MESSAGES } from '@portale/shared/http';
import { isEmbedded } from '../db/client.ts';
import { auditWrite } from '../lib/audit.ts';
import { HttpError } from '../lib/http-error.ts';
import { MemoryCounter, PostgresCounter, type RateCounter } from '../lib/rate-counters.ts';

const HOUR_MS = 60 * 60_000;

/** "tra circa 1 minuto", "tra circa 12 minuti". */
const inMinutes = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `tra circa ${minutes} ${minutes === 1 ? 'minuto' : 'minuti'}`;
};

/**
 * While the portal-wide failed access-code look-ups are past their ceiling, an address that has
 * already failed this many times in the hour is refused before any look-up (no more guesses); every
 * other address, a school whose pupils type valid codes, goes on as before.
 */
export const CODE_FAILURES_PER_IP_UNDER_ATTACK = 10;

export type CeilingName = 'sms' | 'registrations' | 'emails' | 'contact' | 'access-code-failures';

export interface GlobalCap {
  name: CeilingName;
  /** Italian name of what is counted, for the staff home ("codici via SMS"). */
  label: string;
  /** `METHOD /path` of every route whose every valid request counts against the ceiling (checked before the handler). */
  routes: string[];
  max: number;
  /**
   * `refuse`: past the ceiling the portal refuses (what is counted goes to addresses nobody has verified:
   * SMS codes to new numbers, registrations, contact messages); `alert`: staff are alerted and the
   * requests still go through (e-mails to existing accounts, each already limited per recipient).
   */
  past: 'refuse' | 'alert';
  /** What happened past the ceiling, in Italian, for the staff home's note. */
  consequence: string;
  /** The answer past a refusing ceiling. */
  message?: (retryAfterSeconds: number) => string;
  /** The answer to one client (IP or signed-in user) that used up its share of the ceiling (`take`). */
  clientMessage?: (retryAfterSeconds: number) => string;
}

/**
 * The costly endpoints (each request may send an SMS or an e-mail) and their hourly ceiling for the
 * whole portal, whatever the source address: rotating addresses gets past the per-IP limits, not
 * past these. A ceiling must protect the budget, not hand it to whoever floods it:
 * - each client (IP, or user when signed in) may take at most GLOBAL_CLIENT_SHARE_PERCENT of a ceiling
 *   in the hour, so one client alone never empties it;
 * - e-mails to existing accounts are counted only when one is really queued (a forgot-password for an
 *   unknown address counts nothing), so unknown addresses cannot exhaust what real users need;
 * - reaching a ceiling is logged once per window and shown to the super-admin on the staff home.
 * Each route also keeps its own tighter per-IP (or per-user) limit in its `config`.
 */
export function globalCaps(env: FastifyInstance['env']): GlobalCap[] {
  return [
    {
      name: 'sms',
      label: 'codici via SMS',
      routes: [
        'POST /api/phone-verifications',
        'POST /api/phone-verifications/:verificationId/resend',
        'POST /api/account/phone-verifications',
      ],
      max: env.GLOBAL_SMS_MAX_PER_HOUR,
      past: 'refuse',
      consequence: 'I codici via SMS a nuovi numeri sono stati rifiutati fino alla fine dell’ora.',
      message: (s) =>
        `Per sicurezza l’invio dei codici via SMS è sospeso: il portale ne ha inviati troppi nell’ultima ora. Riprova ${inMinutes(s)}.`,
      clientMessage: (s) =>
        `Da questa connessione sono stati chiesti troppi codici via SMS nell’ultima ora. Riprova ${inMinutes(s)}.`,
    },
    {
      name: 'registrations',
      label: 'registrazioni e iscrizioni',
      routes: ['POST /api/registrations', 'POST /api/enrolments'],
      max: env.GLOBAL_REGISTRATIONS_MAX_PER_HOUR,
      past: 'refuse',
      consequence: 'Le nuove registrazioni e iscrizioni sono state rifiutate fino alla fine dell’ora.',
      message: (s) =>
        `Per sicurezza le nuove registrazioni sono sospese: il portale ne ha ricevute troppe nell’ultima ora. Riprova ${inMinutes(s)}.`,
      clientMessage: (s) =>
        `Da questa connessione sono arrivate troppe registrazioni nell’ultima ora. Riprova ${inMinutes(s)}.`,
    },
    {
      name: 'emails',
      label: 'e-mail agli account (recupero password, verifica dell’indirizzo)',
      // Counted in the services, only when an e-mail to an existing account is queued (`Ceilings.take`).
      routes: [],
      max: env.GLOBAL_EMAILS_MAX_PER_HOUR,
      past: 'alert',
      consequence: 'Le e-mail agli account sono comunque partite (ogni account ha un proprio limite).',
      clientMessage: (s) =>
        `Da questa connessione sono state chieste troppe e-mail nell’ultima ora. Riprova ${inMinutes(s)}.`,
    },
    {
      name: 'contact',
      label: 'messaggi del modulo di contatto',
      routes: ['POST /api/public/contact'],
      max: env.GLOBAL_CONTACT_MAX_PER_HOUR,
      past: 'refuse',
      consequence: 'I messaggi del modulo di contatto sono stati rifiutati fino alla fine dell’ora.',
      message: (s) =>
        `Per sicurezza il modulo di contatto è sospeso: il portale ha ricevuto troppi messaggi nell’ultima ora. Riprova ${inMinutes(s)}.`,
      clientMessage: (s) =>
        `Da questa connessione sono arrivati troppi messaggi nell’ultima ora. Riprova ${inMinutes(s)}.`,
    },
    {
      name: 'access-code-failures',
      label: 'codici di accesso errati',
      // Counted by the access-code look-ups that find nothing (`Ceilings.accessCodes`).
      routes: [],
      max: env.GLOBAL_ACCESS_CODE_FAILURES_MAX_PER_HOUR,
      past: 'alert',
      consequence: `Fino alla fine dell’ora gli indirizzi con ${CODE_FAILURES_PER_IP_UNDER_ATTACK} o più codici errati sono stati fermati; i codici validi hanno continuato a funzionare.`,
      message: (s) =>
        `Per sicurezza la verifica dei codici di accesso da questa connessione è sospesa: sul portale sono stati provati troppi codici errati. Riprova ${inMinutes(s)}.`,
    },
  ];
}

/** The audit action (entity `ceiling`, id the ceiling's name) written when a ceiling is reached. */
export const CEILING_REACHED_ACTION = 'security.ceiling_reached';

export type TakeOutcome = { ok: true } | { ok: false; refusal: HttpError };

/** The hourly ceilings, for the routes and services that count against them (`app.ceilings`). */
export interface Ceilings {
  /**
   * Takes one unit of ceiling `name` for `client` (`rateLimitKey`): refused when the client has used
   * its share, or when a `refuse` ceiling is used up. `weight` 0 runs the same statements and takes
   * nothing (a path that sends nothing costs the same as one that sends).
   */
  take(name: CeilingName, client: string, log: FastifyBaseLogger, weight?: 0 | 1): Promise<TakeOutcome>;
  /** Adds `weight` hits to a key of the shared exact counter (every instance agrees) and returns the window's count. */
  count(key: string, windowMs: number, weight?: number): Promise<{ count: number; resetInMs: number }>;
  /** The access-code look-ups: a portal-wide ceiling on the failed ones. */
  accessCodes: {
    /** Before a look-up: throws the Italian 429 when failures are past the ceiling and this address keeps failing. */
    beforeLookup(request: FastifyRequest): Promise<void>;
    /** After a look-up that found nothing. */
    failed(request: FastifyRequest): Promise<void>;
  };
}

/** Who a request counts against: the signed-in user (every teacher of a school shares one IP), else the IP. */
export function rateLimitKey(request: FastifyRequest): string {
  return request.auth ? `user:${request.auth.user.id}` : `ip:${normalizeIP(request.ip)}`;
}

const routeKeys = (method: string | string[], url: string) =>
  (Array.isArray(method) ? method : [method]).map((m) => `${m} ${url}`);

/**
 * Rate limits, shared by every API instance on PostgreSQL (counters in `rate_limit_hits`), in this
 * process on the embedded database:
 * - every route: RATE_LIMIT_MAX requests a minute per IP for anonymous traffic, RATE_LIMIT_USER_MAX
 *   per user for signed-in traffic. The check runs in `preParsing`, after the session hook
 *   (`onRequest`) has resolved the bearer token, so only a valid token counts as a user; a made-up
 *   one counts against its IP;
 * - the sensitive routes keep their own tighter limit (`config.rateLimit`), per IP or user;
 * - the costly ones also count against an hourly ceiling for the whole portal (`globalCaps`), of
 *   which one client may take only a share; the services reach them through `app.ceilings`.
 * Every refusal is a 429 in Italian with Retry-After.
 */
export const rateLimits = fp(async (app: FastifyInstance) => {
  const { env } = app;
  const onError = (error: unknown) =>
    app.log.warn({ err: error }, 'rate-limit counters: database unreachable, counting locally meanwhile');
  const shared = !isEmbedded(app.db);
  const counters: { everyRoute: RateCounter; exact: RateCounter } = shared
    ? {
        everyRoute: new PostgresCounter(
          app.db,
          app.clock,
          env.APP_SECRET,
          { kind: 'batched', flushMs: 1000 },
          onError,
        ),
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

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ) {
      this.counter.hit(`${this.scope}|${key}`, timeWindow).then(
        (r) => callback(null, { current: r.count, ttl: r.resetInMs }),
        (error: Error) => callback(error),
      );
    }

    child(options: unknown) {
      const route = (options as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
      return new Store(undefined, {
        scope: routeKeys(route?.method ?? '*', route?.url ?? '*').join(','),
        counter: counters.exact,
      });
    }
  }

  await app.register(rateLimit, {
    hook: 'preParsing',
    store: Store,
    keyGenerator: rateLimitKey,
    max: (request) => (request.auth ? env.RATE_LIMIT_USER_MAX : env.RATE_LIMIT_MAX),
    timeWindow: '1 minute',
    // The counters are told only with a refusal (429 with Retry-After), not on every answer (decision 024).
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    errorResponseBuilder: (_req, ctx) =>
      new HttpError(429, 'rate_limited', ERROR_MESSAGES.rateLimited, {
        'retry-after': String(Math.max(1, Math.ceil(ctx.ttl / 1000))),
      }),
  });

  const caps = globalCaps(env);
  const capByName = new Map(caps.map((cap) => [cap.name, cap] as const));
  const capOfRoute = new Map(caps.flatMap((cap) => cap.routes.map((route) => [route, cap] as const)));
  const seen = new Set<string>();
  const shareOf = (cap: GlobalCap) =>
    Math.max(1, Math.floor((cap.max * env.GLOBAL_CLIENT_SHARE_PERCENT) / 100));
  const retryAfterOf = (resetInMs: number) => Math.max(1, Math.ceil(resetInMs / 1000));

  /** Once per window for the whole portal (the hit that passes the ceiling): a log warning and an audit row for the staff home. */
  const reached = async (cap: GlobalCap, resetInMs: number, log: FastifyBaseLogger) => {
    const now = app.clock.now();
    const windowEnd = new Date(now.getTime() + resetInMs);
    log.warn(
      { cap: cap.name, max: cap.max, windowEnd: windowEnd.toISOString(), past: cap.past },
      'global hourly ceiling reached: staff alerted',
    );
    await auditWrite(
      app.db,
      { userId: null, ip: null, at: now },
      {
        action: CEILING_REACHED_ACTION,
        entity: 'ceiling',
        entityId: cap.name,
        after: {
          max: cap.max,
          windowEnd: windowEnd.toISOString(),
          past: cap.past,
          consequence: cap.consequence,
        },
      },
    ).catch((error: unknown) => log.error({ err: error }, 'could not record the ceiling alert'));
  };

  const take: Ceilings['take'] = async (name, client, log, weight = 1) => {
    const cap = capByName.get(name)!;
    const own = await counters.exact.hit(`cap:${cap.name}|${client}`, HOUR_MS, weight);
    if (weight > 0 && own.count > shareOf(cap)) {
      const retryAfter = retryAfterOf(own.resetInMs);
      const message = cap.clientMessage?.(retryAfter) ?? ERROR_MESSAGES.rateLimited;
      return {
        ok: false,
        refusal: new HttpError(429, 'rate_limited', message, { 'retry-after': String(retryAfter) }),
      };
    }
    const { count, resetInMs } = await counters.exact.hit(`cap:${cap.name}`, HOUR_MS, weight);
    if (weight === 0 || count <= cap.max) return { ok: true };
    if (count === cap.max + 1) await reached(cap, resetInMs, log);
    if (cap.past === 'alert') return { ok: true };
    const retryAfter = retryAfterOf(resetInMs);
    const message = cap.message?.(retryAfter) ?? ERROR_MESSAGES.rateLimited;
    return {
      ok: false,
      refusal: new HttpError(429, 'global_rate_limited', message, { 'retry-after': String(retryAfter) }),
    };
  };

  const codes = capByName.get('access-code-failures')!;
  /** Until when (epoch ms) this instance knows the failed look-ups to be past their ceiling. */
  let codesUnderAttackUntil = 0;
  const ipOf = (request: FastifyRequest) => `ip:${normalizeIP(request.ip)}`;
  const ceilings: Ceilings = {
    take,
    count: (key, windowMs, weight) => counters.exact.hit(`count:${key}`, windowMs, weight),
    accessCodes: {
      async beforeLookup(request) {
        if (app.clock.now().getTime() >= codesUnderAttackUntil) return;
        const own = await counters.exact.hit(`cap:${codes.name}|${ipOf(request)}`, HOUR_MS, 0);
        if (own.count < CODE_FAILURES_PER_IP_UNDER_ATTACK) return;
        const retryAfter = retryAfterOf(own.resetInMs);
        throw new HttpError(
          429,
          'global_rate_limited',
          codes.message?.(retryAfter) ?? ERROR_MESSAGES.rateLimited,
          { 'retry-after': String(retryAfter) },
        );
      },
      async failed(request) {
        await counters.exact.hit(`cap:${codes.name}|${ipOf(request)}`, HOUR_MS);
        const { count, resetInMs } = await counters.exact.hit(`cap:${codes.name}`, HOUR_MS);
        if (count <= codes.max) return;
        codesUnderAttackUntil = app.clock.now().getTime() + resetInMs;
        if (count === codes.max + 1) await reached(codes, resetInMs, request.log);
      },
    },
  };
  app.decorate('ceilings', ceilings);

  const capHook = (cap: GlobalCap): preHandlerAsyncHookHandler =>
    async function globalCap(request) {
      const outcome = await take(cap.name, rateLimitKey(request), request.log);
      if (!outcome.ok) throw outcome.refusal;
    };
  app.addHook('onRoute', (route) => {
    for (const key of routeKeys(route.method, route.url)) {
      const cap = capOfRoute.get(key);
      if (!cap) continue;
      seen.add(key);
      const own = route.preHandler
        ? Array.isArray(route.preHandler)
          ? route.preHandler
          : [route.preHandler]
        : [];
      // After the route's own checks (authentication, validation): refused requests cost nothing.
      route.preHandler = [...own, capHook(cap)];
    }
  });
  app.addHook('onReady', async () => {
    const missing = [...capOfRoute.keys()].filter((key) => !seen.has(key));
    if (missing.length > 0)
      throw new Error(`globalCaps names routes that do not exist: ${missing.join(', ')}`);
  });
});
