import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { actorOf, type Actor, type SignedInActor } from '../lib/audit.ts';
import { authOf } from './authorization.ts';
import type { AuthContext } from './session/session.ts';

/**
 * What a service needs from a signed-in request, made explicit (decision 049): the database, who acts
 * and when (for the audit), the signed-in user with their grants (for `can()`), and the portal's public
 * address (for the links in messages). Services take it instead of a `FastifyRequest`, so they can be
 * called, and read, without Fastify.
 */
export interface ServiceContext {
  db: Db;
  actor: Actor;
  user: AuthContext['user'];
  webUrl: string;
}

/** The service context of a request that has a session (after `requireAuth` or `requirePage`). */
export function serviceContextOf(request: FastifyRequest): ServiceContext {
  return {
    db: request.server.db,
    actor: actorOf(request),
    user: authOf(request).user,
    webUrl: request.server.env.publicWebUrl,
  };
}

/** The actor of a request that has a session (401 otherwise): its user, its address, now. */
export function signedInActorOf(request: FastifyRequest): SignedInActor {
  return { ...actorOf(request), userId: authOf(request).user.id, ip: request.ip };
}
