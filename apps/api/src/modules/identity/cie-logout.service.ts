import * as oidc from 'openid-client';
import type { Db } from '../../db/client.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
import type { OidcRelyingParty } from './cie-client.ts';
import { openSecret } from '../../lib/secret-box.ts';
import { markCieLogoutRequested } from './cie-sessions.repository.ts';

export interface CieLogoutDeps {
  db: Db;
  rp: OidcRelyingParty;
  appSecret: string;
  /** Where the provider sends the browser back after its logout (the web's home, registered there). */
  postLogoutRedirectUri: string;
  warn(error: unknown, message: string): void;
}

/**
 * After our logout ended a session opened by CIE (issue 38): once, the provider's side too, as far as
 * its metadata allows — the access token revoked at its `revocation_endpoint` (RFC 7009, server to
 * server), and the URL of its `end_session_endpoint` (OpenID Connect RP-initiated logout, with
 * `id_token_hint` and `post_logout_redirect_uri`) where the browser goes next. Audited
 * `identity.logout.requested` with what was done, or `identity.logout.unsupported` when nothing could.
 */
export async function startCieLogout(
  deps: CieLogoutDeps,
  actor: Actor,
  sessionId: number,
): Promise<string | null> {
  const row = await markCieLogoutRequested(deps.db, sessionId, actor.at);
  if (!row) return null;
  const tokens = {
    idToken: openSecret(deps.appSecret, row.idTokenSealed),
    accessToken: row.accessTokenSealed ? openSecret(deps.appSecret, row.accessTokenSealed) : null,
  };
  const unsupported = (reason: string) =>
    auditWrite(deps.db, actor, {
      action: 'identity.logout.unsupported',
      entity: 'session',
      entityId: sessionId,
      after: { provider: 'cie', reason },
    });
  let config: oidc.Configuration;
  try {
    config = (await deps.rp.ready()).config;
  } catch (error) {
    deps.warn(error, 'CIE provider not reachable for the logout');
    await unsupported('provider_unreachable');
    return null;
  }
  const metadata = config.serverMetadata();
  let revoked = false;
  if (metadata.revocation_endpoint && tokens.accessToken) {
    try {
      await oidc.tokenRevocation(config, tokens.accessToken, { token_type_hint: 'access_token' });
      revoked = true;
    } catch (error) {
      deps.warn(error, 'CIE access token not revoked');
    }
  }
  const url = metadata.end_session_endpoint
    ? oidc.buildEndSessionUrl(config, {
        id_token_hint: tokens.idToken,
        post_logout_redirect_uri: deps.postLogoutRedirectUri,
      }).href
    : null;
  if (!revoked && !url) {
    await unsupported(metadata.revocation_endpoint ? 'revocation_failed' : 'no_logout');
    return null;
  }
  await auditWrite(deps.db, actor, {
    action: 'identity.logout.requested',
    entity: 'session',
    entityId: sessionId,
    after: { provider: 'cie', idp: metadata.issuer, revoked, endSession: url !== null },
  });
  return url;
}
