import { randomBytes } from 'node:crypto';
import type { SpidLogoutFailure } from '@portale/shared/identity';
import type { Db } from '../../db/client.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
import { revokeSession } from '../auth/index.ts';
import { LOGIN_ATTEMPT_MINUTES } from './identity-responder.ts';
import type { SpidServiceProvider } from './spid-client.ts';
import { readLogoutMessage } from './spid-logout-message.ts';
import {
  findByLogoutRequest,
  findLiveSpidSessions,
  findSpidSession,
  markLogoutRequested,
  markProviderLoggedOut,
} from './spid-sessions.repository.ts';
import type { SpidIdp, SpidIdpRegistry } from './spid-settings.ts';

/** What SAML single logout needs (decision 052): the database, our provider, theirs, the session cache. */
export interface SpidLogoutDeps {
  db: Db;
  sp: SpidServiceProvider;
  idps: SpidIdpRegistry;
  invalidateSession(sessionId: number): Promise<void>;
  warn(error: unknown, message: string): void;
}

/** The query of the HTTP-Redirect binding as received: its parameters, and the raw string they were signed in. */
export interface RedirectQuery {
  params: Record<string, string>;
  raw: string;
}

/** Where the browser goes after a logout message: the home page, the provider, or the result page with a failure. */
export type LogoutOutcome =
  { kind: 'home' } | { kind: 'provider'; url: string } | { kind: 'failed'; failure: SpidLogoutFailure };

const newRequestId = () => `_${randomBytes(20).toString('hex')}`;

/** An audited refusal of a logout message: nothing changes, the browser sees why. */
export async function refuseLogout(
  deps: SpidLogoutDeps,
  actor: Actor,
  failure: SpidLogoutFailure,
  detail?: Record<string, unknown>,
): Promise<LogoutOutcome> {
  await auditWrite(deps.db, actor, {
    action: `identity.logout.${failure}`,
    entity: 'identity',
    entityId: 'spid',
    ...(detail ? { after: detail } : {}),
  });
  return { kind: 'failed', failure };
}

async function findIdp(deps: SpidLogoutDeps, entityId: string): Promise<SpidIdp | undefined | 'unreachable'> {
  try {
    return await deps.idps.find(entityId);
  } catch (error) {
    deps.warn(error, 'SPID metadata not readable');
    return 'unreachable';
  }
}

/** The failure a node-saml refusal of a logout message stands for. */
function failureOfLogoutError(error: unknown): SpidLogoutFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (/status/i.test(message)) return 'logout_provider_error';
  if (/signature/i.test(message)) return 'logout_signature_invalid';
  if (/issuer/i.test(message)) return 'logout_issuer_mismatch';
  if (/InResponseTo/i.test(message)) return 'logout_unknown';
  if (/expired|not yet valid/i.test(message)) return 'logout_expired';
  return 'logout_invalid';
}

const errorDetail = (error: unknown) => ({
  message: (error instanceof Error ? error.message : String(error)).slice(0, 500),
});

/**
 * After our logout of a session (already revoked and audited by the auth module): when SPID opened
 * it, the provider's single logout URL with our signed LogoutRequest, recorded (its ID) and audited;
 * null otherwise, or when the provider has no single logout service, or for a second logout.
 */
export async function startProviderLogout(
  deps: SpidLogoutDeps,
  actor: Actor,
  sessionId: number,
): Promise<string | null> {
  const session = await findSpidSession(deps.db, sessionId);
  if (!session || session.logoutRequestId || session.providerLoggedOutAt) return null;
  const idp = await findIdp(deps, session.idpEntityId);
  if (idp === 'unreachable' || !idp?.sloUrl) {
    await auditWrite(deps.db, actor, {
      action: 'identity.logout.unsupported',
      entity: 'session',
      entityId: sessionId,
      after: { idp: session.idpEntityId, reason: idp === 'unreachable' ? 'metadata' : 'no_slo' },
    });
    return null;
  }
  const requestId = newRequestId();
  const url = await deps.sp.logoutUrl(idp, session, requestId);
  if (!(await markLogoutRequested(deps.db, sessionId, requestId, actor.at))) return null;
  await auditWrite(deps.db, actor, {
    action: 'identity.logout.requested',
    entity: 'session',
    entityId: sessionId,
    after: { idp: idp.entityId },
  });
  return url;
}

/**
 * The provider's LogoutResponse to ours, checked in this order (each refusal audited, nothing
 * changed): a SAML LogoutResponse at all; one of our requests (InResponseTo), not answered yet, not
 * older than a login may take; from the provider we asked, to our single logout service; signed by
 * it (node-saml: query signature, Issuer, InResponseTo, status Success). Then the provider's side is
 * recorded as ended, audited.
 */
export async function takeLogoutResponse(
  deps: SpidLogoutDeps,
  actor: Actor,
  query: RedirectQuery,
): Promise<LogoutOutcome> {
  const { db, sp } = deps;
  const message = readLogoutMessage(query.params.SAMLResponse ?? '', 'response');
  if (!message) return refuseLogout(deps, actor, 'logout_invalid');
  if (!message.inResponseTo) return refuseLogout(deps, actor, 'logout_unknown');
  const found = await findByLogoutRequest(db, message.inResponseTo);
  if (!found) return refuseLogout(deps, actor, 'logout_unknown', { inResponseTo: message.inResponseTo });
  const { spid: session } = found;
  const who = { ...actor, userId: found.userId };
  const detail = { sessionId: session.sessionId, issuer: message.issuer };
  if (session.providerLoggedOutAt) return refuseLogout(deps, who, 'logout_replayed', detail);
  const requestedAt = session.logoutRequestedAt?.getTime() ?? 0;
  if (requestedAt + LOGIN_ATTEMPT_MINUTES * 60_000 <= actor.at.getTime())
    return refuseLogout(deps, who, 'logout_expired', detail);
  if (message.issuer !== session.idpEntityId)
    return refuseLogout(deps, who, 'logout_issuer_mismatch', detail);
  if (message.destination !== sp.settings.sloUrl)
    return refuseLogout(deps, who, 'logout_destination_invalid', {
      ...detail,
      destination: message.destination,
    });
  const idp = await findIdp(deps, session.idpEntityId);
  if (idp === 'unreachable') return refuseLogout(deps, who, 'logout_provider_unreachable', detail);
  if (!idp) return refuseLogout(deps, who, 'logout_issuer_mismatch', detail);
  try {
    await sp.verifyLogout(idp, query.params, query.raw, message.inResponseTo);
  } catch (error) {
    // node-saml reads the status after the signature was checked (checkRedirectSignature).
    const failure = failureOfLogoutError(error);
    return refuseLogout(deps, who, failure, { ...detail, ...errorDetail(error), status: message.status });
  }
  if (!(await markProviderLoggedOut(db, session.sessionId, actor.at)))
    return refuseLogout(deps, who, 'logout_replayed', detail);
  await auditWrite(db, who, {
    action: 'identity.logout.completed',
    entity: 'session',
    entityId: session.sessionId,
    after: { idp: idp.entityId },
  });
  return { kind: 'home' };
}

/**
 * The provider's own LogoutRequest (the user logged out there, or at another service): a SAML
 * LogoutRequest at all, from a configured provider, to our single logout service, signed by it
 * (node-saml: query signature, Issuer, times). Then every live session of ours with its NameID (and
 * SessionIndex, when given) ends, each audited; the browser goes back with our signed
 * LogoutResponse: Success, or UnknownPrincipal when none matched (nothing changed, audited too).
 */
export async function takeLogoutRequest(
  deps: SpidLogoutDeps,
  actor: Actor,
  query: RedirectQuery,
): Promise<LogoutOutcome> {
  const { db, sp } = deps;
  const message = readLogoutMessage(query.params.SAMLRequest ?? '', 'request');
  if (!message || !message.id || !message.nameId) return refuseLogout(deps, actor, 'logout_invalid');
  const idp = message.issuer ? await findIdp(deps, message.issuer) : undefined;
  if (idp === 'unreachable') return refuseLogout(deps, actor, 'logout_provider_unreachable');
  if (!idp) return refuseLogout(deps, actor, 'logout_issuer_mismatch', { issuer: message.issuer });
  const detail = { issuer: idp.entityId, request: message.id };
  if (message.destination !== sp.settings.sloUrl)
    return refuseLogout(deps, actor, 'logout_destination_invalid', {
      ...detail,
      destination: message.destination,
    });
  try {
    await sp.verifyLogout(idp, query.params, query.raw, null);
  } catch (error) {
    return refuseLogout(deps, actor, failureOfLogoutError(error), { ...detail, ...errorDetail(error) });
  }
  const sessions = await findLiveSpidSessions(
    db,
    { idpEntityId: idp.entityId, nameId: message.nameId, sessionIndex: message.sessionIndex },
    actor.at,
  );
  for (const { sessionId, userId } of sessions) {
    await revokeSession(db, sessionId, 'spid_logout', actor.at);
    await markProviderLoggedOut(db, sessionId, actor.at);
    await deps.invalidateSession(sessionId);
    await auditWrite(
      db,
      { ...actor, userId },
      {
        action: 'identity.logout.provider',
        entity: 'session',
        entityId: sessionId,
        after: detail,
      },
    );
  }
  if (sessions.length === 0)
    await auditWrite(db, actor, {
      action: 'identity.logout.unknown_session',
      entity: 'identity',
      entityId: 'spid',
      after: detail,
    });
  if (!idp.sloUrl) return { kind: 'home' };
  const url = await sp.logoutResponseUrl(idp, message.id, sessions.length > 0, query.params.RelayState ?? '');
  return { kind: 'provider', url };
}
