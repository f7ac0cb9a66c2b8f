import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { isEmbedded } from '../../db/client.ts';
import { SessionCache, type SessionScope } from './session-cache.ts';
import {
  localInvalidations,
  PostgresInvalidations,
  type SessionInvalidations,
} from './session-invalidations.ts';
import type { AuthUser, TokenLookup } from './authentication.ts';

export interface AuthContext {
  user: AuthUser;
  sessionId: number;
  tokenId: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The cached sessions of this instance (decision 021): writes that change sessions say so here. */
    sessions: {
      /** Drops `scope` from the cache here and on every other instance; await it before answering. */
      invalidate(scope: SessionScope): Promise<void>;
      readonly cache: SessionCache;
    };
  }
}

/**
 * How long a resolved token is used without reading the database again. Every change made through
 * the API is applied at once (see below); this bounds only changes made outside it (an operator's
 * SQL) and the delay of "last use" (recorded when the entry is read again).
 */
export const SESSION_CACHE_TTL_MS = 10_000;
/** Tokens kept per instance; the oldest one leaves first. */
export const SESSION_CACHE_MAX_ENTRIES = 50_000;

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Writes that do not invalidate every cached session when they run:
 * - the auth routes, which invalidate exactly what they change themselves (login: the user's "last
 *   login"; logout, a reused or orphaned refresh token: the session);
 * - anonymous forms that write none of what a session is made of (users, roles, permissions,
 *   sessions, tokens, institutes): contact, cookie consent, survey answers, bookings;
 * - a staff edit of a plesso (name, address, CAP, participation: `school_sites` only), the registry's
 *   most frequent write: were it to empty every cache, a few edits a second would send every
 *   request of every user back to the database (decision 026).
 * Every other POST, PUT, PATCH and DELETE whose handler runs invalidates every cached session of
 * every instance before its answer is sent, so no module has to remember to.
 */
export const SESSION_NEUTRAL_ROUTES: readonly string[] = [
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/auth/refresh',
  'POST /api/public/contact',
  'POST /api/consents',
  'POST /api/access-codes/:code/responses',
  'POST /api/surveys/current/responses',
  'POST /api/bookings',
  'DELETE /api/bookings/:cancelToken',
  'PATCH /api/school-sites/:siteId',
];

/** Reads `Authorization: Bearer <id>|<secret>`; the token is never read from the query string. */
export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match?.[1]?.trim();
}

/**
 * Resolves the bearer token of every request into `request.auth` (null for guests): from this
 * instance's cache when it holds the token, else with one database statement (decision 021).
 *
 * A cached session never outlives a change made through the API: every write whose handler ran
 * (except SESSION_NEUTRAL_ROUTES, which invalidate precisely) drops the cached sessions here before
 * its answer is sent, and on PostgreSQL notifies every other instance, which drops them when the
 * notification arrives (the notification delay, milliseconds). A lookup in flight across an
 * invalidation is not kept. Token and session ends are exact; changes made outside the API are seen
 * after SESSION_CACHE_TTL_MS at most.
 */
export const session = fp(async (app: FastifyInstance, { tokens }: { tokens: TokenLookup }) => {
  const { authenticateAccessToken, parseBearer } = tokens;
  const cache = new SessionCache({ ttlMs: SESSION_CACHE_TTL_MS, maxEntries: SESSION_CACHE_MAX_ENTRIES });
  let invalidations: SessionInvalidations;
  if (isEmbedded(app.db)) {
    invalidations = localInvalidations(cache);
  } else {
    const pool = (app.db as unknown as { $client: pg.Pool }).$client;
    const listener = new PostgresInvalidations(cache, pool, app.log);
    await listener.start();
    invalidations = listener;
  }
  app.addHook('onClose', () => invalidations.close());
  app.decorate('sessions', { invalidate: (scope: SessionScope) => invalidations.publish(scope), cache });

  app.decorateRequest('auth', null);
  // Callback-style hooks: a cached token (the common case) answers without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const bearer = bearerOf(request);
    const parsed = bearer ? parseBearer(bearer) : undefined;
    if (!bearer || !parsed) return done();
    const now = app.clock.now();
    const cached = cache.lookup(parsed.id, parsed.hash, now.getTime());
    if (cached) {
      request.auth = cached;
      return done();
    }
    const mark = cache.mark();
    authenticateAccessToken(app.db, bearer, now).then((found) => {
      if (found) {
        request.auth = { user: found.user, sessionId: found.sessionId, tokenId: found.tokenId };
        cache.store(mark, parsed.hash, request.auth, found.validUntil, now.getTime());
      }
      done();
    }, done);
  });

  // Every write whose handler runs invalidates the cached sessions before its answer is sent.
  const neutral = new Set(SESSION_NEUTRAL_ROUTES);
  const seen = new Set<string>();
  const wrote = new WeakSet<FastifyRequest>();
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) =>
      UNSAFE.has(m),
    );
    if (methods.length === 0) return;
    const keys = methods.map((m) => `${m} ${route.url}`);
    for (const key of keys) if (neutral.has(key)) seen.add(key);
    if (keys.every((key) => neutral.has(key))) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function handlerThatInvalidatesSessions(request, reply) {
      if (UNSAFE.has(request.method)) wrote.add(request);
      return handler.call(this, request, reply);
    } as RouteHandlerMethod;
  });
  const invalidateAll = () => invalidations.publish({ kind: 'all' });
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!wrote.delete(request)) return done(null, payload);
    invalidateAll().then(() => done(null, payload), done);
  });
  // A response that ended without onSend (the client went away first) still invalidates.
  app.addHook('onResponse', (request, _reply, done) => {
    if (!wrote.delete(request)) return done();
    invalidateAll().then(() => done(), done);
  });
  app.addHook('onReady', async () => {
    const missing = SESSION_NEUTRAL_ROUTES.filter((key) => !seen.has(key));
    if (missing.length > 0)
      throw new Error(`SESSION_NEUTRAL_ROUTES names routes that do not exist: ${missing.join(', ')}`);
  });
});
