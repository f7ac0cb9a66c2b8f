import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IDENTITY_RESULT_PATH, spidLogout } from '@portale/shared/identity';
import { actorOf, type Actor } from '../../lib/audit.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { cieRelyingParty } from './federation/federation-client.ts';
import { startCieLogout } from './cie-logout.service.ts';
import type { SpidServiceProvider } from './spid-client.ts';
import {
  refuseLogout,
  startProviderLogout,
  takeLogoutRequest,
  takeLogoutResponse,
  type LogoutOutcome,
  type SpidLogoutDeps,
} from './spid-logout.service.ts';
import type { SpidIdpRegistry } from './spid-settings.ts';

interface Spid {
  sp: SpidServiceProvider | null;
  idps: SpidIdpRegistry | null;
}

function depsOf(app: FastifyInstance, sp: SpidServiceProvider, idps: SpidIdpRegistry): SpidLogoutDeps {
  return {
    db: app.db,
    sp,
    idps,
    invalidateSession: (sessionId) => app.sessions.invalidate({ kind: 'session', sessionId }),
    warn: (error, message) => app.log.warn({ err: error }, message),
  };
}

/**
 * What the auth module's logout calls after ending a session (wired in app.ts, so that auth imports
 * no identity code): the provider's logout URL when SPID (single logout) or CIE (RP-initiated logout,
 * with the access token revoked) opened the session, else null.
 */
export function providerLogout(app: FastifyInstance, { sp, idps }: Spid) {
  // The same relying party as the login's: through the federation when it is configured.
  const rp = cieRelyingParty(app.env);
  const warn = (error: unknown, message: string) => app.log.warn({ err: error }, message);
  return async (actor: Actor, sessionId: number): Promise<string | null> => {
    const spid = sp && idps ? await startProviderLogout(depsOf(app, sp, idps), actor, sessionId) : null;
    if (spid || !rp) return spid;
    const deps = {
      db: app.db,
      rp,
      appSecret: app.env.APP_SECRET,
      postLogoutRedirectUri: `${app.env.publicWebUrl}/`,
      warn,
    };
    return startCieLogout(deps, actor, sessionId);
  };
}

/** The query string exactly as received: the provider signed its parameters in that encoding. */
const rawQueryOf = (request: FastifyRequest) => {
  const at = request.url.indexOf('?');
  return at < 0 ? '' : request.url.slice(at + 1);
};

/**
 * Our single logout service (decision 052), HTTP-Redirect: the provider's LogoutResponse to the
 * LogoutRequest of our logout, or its own LogoutRequest. Registered in the SPID plugin; 404 without
 * SPID (`requireSpid`).
 */
export function spidLogoutRoute(
  app: FastifyInstance,
  requireSpid: () => { sp: SpidServiceProvider; idps: SpidIdpRegistry },
  config: Record<string, unknown>,
) {
  const { env } = app;
  registerEndpoint(app, spidLogout, { config }, async (request, reply) => {
    const { sp, idps } = requireSpid();
    const deps = depsOf(app, sp, idps);
    const { SAMLRequest, SAMLResponse } = request.query;
    const params = Object.fromEntries(
      Object.entries(request.query).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const query = { params, raw: rawQueryOf(request) };
    const actor = actorOf(request);
    let outcome: LogoutOutcome;
    if (SAMLResponse && !SAMLRequest) outcome = await takeLogoutResponse(deps, actor, query);
    else if (SAMLRequest && !SAMLResponse) outcome = await takeLogoutRequest(deps, actor, query);
    // Neither message, or both at once: nothing to act on.
    else outcome = await refuseLogout(deps, actor, 'logout_invalid');
    if (outcome.kind === 'provider') return reply.redirect(outcome.url, 302);
    if (outcome.kind === 'home') return reply.redirect(`${env.publicWebUrl}/`, 302);
    return reply.redirect(
      `${env.publicWebUrl}${IDENTITY_RESULT_PATH}?esito=uscita&codice=${outcome.failure}`,
      302,
    );
  });
}
