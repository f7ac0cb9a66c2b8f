import type { Db } from '../../db/client.ts';
import { sealSecret } from '../../lib/secret-box.ts';
import { insertCieSession } from './cie-sessions.repository.ts';
import type { ProviderAnswer } from './cie-client.ts';
import type { SpidAnswer } from './spid-client.ts';
import { insertSpidSession, type SpidSessionKeys } from './spid-sessions.repository.ts';

/** CIE's logout keys: the ID token (`id_token_hint`) and the access token (revocation), sealed. */
export interface CieLogoutKeys {
  idTokenSealed: string;
  accessTokenSealed: string | null;
}

/**
 * What the provider's logout needs of a session opened by SPID or CIE (decisions 052, 048): kept with
 * the session when the login opens it at once, or with the pending identity until a link opens it.
 */
export type LogoutKeys = { spid: SpidSessionKeys } | { cie: CieLogoutKeys };

/** The logout keys a provider's verified answer gives, or null (none: the provider's logout is not possible). */
export function logoutKeysOf(answer: ProviderAnswer, appSecret: string): LogoutKeys | null {
  const { nameId, nameIdFormat, sessionIndex, idpEntityId } = answer as Partial<SpidAnswer>;
  if (nameId && idpEntityId)
    return {
      spid: { idpEntityId, nameId, nameIdFormat: nameIdFormat ?? null, sessionIndex: sessionIndex ?? null },
    };
  if (answer.tokens)
    return {
      cie: {
        idTokenSealed: sealSecret(appSecret, answer.tokens.idToken),
        accessTokenSealed: answer.tokens.accessToken
          ? sealSecret(appSecret, answer.tokens.accessToken)
          : null,
      },
    };
  return null;
}

/** Reads logout keys back from a pending identity's JSON (anything else: none). */
export function logoutKeysFromJson(value: unknown): LogoutKeys | null {
  if (!value || typeof value !== 'object') return null;
  const keys = value as Partial<{ spid: SpidSessionKeys; cie: CieLogoutKeys }>;
  if (keys.spid?.idpEntityId && keys.spid.nameId) return { spid: keys.spid };
  if (keys.cie?.idTokenSealed) return { cie: keys.cie };
  return null;
}

/** Keeps the logout keys with the session just opened (the `opened` of `openLoginSession`). */
export function keepLogoutKeys(db: Db, keys: LogoutKeys | null, now: Date) {
  if (!keys) return undefined;
  return async (sessionId: number) => {
    if ('spid' in keys) await insertSpidSession(db, sessionId, keys.spid, now);
    else await insertCieSession(db, sessionId, keys.cie, now);
  };
}
