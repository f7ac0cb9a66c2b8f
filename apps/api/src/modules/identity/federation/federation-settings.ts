import { readFileSync } from 'node:fs';
import type { JWK } from 'jose';
import type { Env } from '../../../env.ts';

/** A trust mark we or the provider carry: its identifier and the JWT its issuer signed. */
export interface TrustMarkEntry {
  id: string;
  trust_mark: string;
}

/**
 * The CIE federation settings of the environment (decision 056), or null while the federation is
 * off (CIE then goes by plain discovery, decision 048). Our entity id is CIE_CLIENT_ID.
 */
export interface FederationSettings {
  entityId: string;
  trustAnchor: string;
  trustAnchorJwks: { keys: JWK[] };
  authorityHints: string[];
  /** Private: signs our entity configuration only. */
  federationJwk: JWK;
  /** Private: the provider encrypts the ID token and userinfo to its public half. */
  encryptionJwk: JWK;
  trustMarks: TrustMarkEntry[];
  /** Trust mark ids the provider must carry, valid and not revoked. */
  requiredTrustMarks: string[];
  organizationName: string;
  homepageUri: string;
  contacts: string[];
}

/** A JSON value given inline or as the path of a file holding it. */
export function jsonOrFile<T>(raw: string): T {
  const text = raw.trim();
  return JSON.parse(text.startsWith('{') || text.startsWith('[') ? text : readFileSync(text, 'utf8')) as T;
}

const list = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export function federationSettings(env: Env): FederationSettings | null {
  const anchor = env.CIE_FEDERATION_TRUST_ANCHOR;
  if (!anchor || !env.CIE_CLIENT_ID) return null;
  const jwks = jsonOrFile<{ keys: JWK[] } | JWK[]>(env.CIE_FEDERATION_TRUST_ANCHOR_JWKS!);
  return {
    entityId: env.CIE_CLIENT_ID,
    trustAnchor: anchor,
    trustAnchorJwks: Array.isArray(jwks) ? { keys: jwks } : jwks,
    authorityHints: list(env.CIE_FEDERATION_AUTHORITY_HINTS),
    federationJwk: jsonOrFile<JWK>(env.CIE_FEDERATION_KEY!),
    encryptionJwk: jsonOrFile<JWK>(env.CIE_ENCRYPTION_JWK!),
    trustMarks: env.CIE_FEDERATION_TRUST_MARKS
      ? jsonOrFile<TrustMarkEntry[]>(env.CIE_FEDERATION_TRUST_MARKS)
      : [],
    requiredTrustMarks: list(env.CIE_FEDERATION_REQUIRED_TRUST_MARKS),
    organizationName: env.SPID_ORGANIZATION_NAME,
    homepageUri: env.publicWebUrl,
    contacts: [env.SPID_CONTACT_EMAIL],
  };
}
