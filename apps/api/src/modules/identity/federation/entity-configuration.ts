import { importJWK, SignJWT, type JWK } from 'jose';
import type { FederationSettings } from './federation-settings.ts';

/** The media type of an entity statement (OpenID Federation 1.0) and the `typ` of its header. */
export const ENTITY_STATEMENT_TYPE = 'entity-statement+jwt';
export const ENTITY_STATEMENT_MEDIA = `application/${ENTITY_STATEMENT_TYPE}`;
/** How long our entity configuration is valid: the federation's authorities read it again after. */
const ENTITY_CONFIGURATION_SECONDS = 24 * 3600;

/** How the provider signs and encrypts what it sends us (CIE: RS256, RSA-OAEP(-256), A256CBC-HS512). */
export const ID_TOKEN_SIGNING_ALG = 'RS256';
export const CONTENT_ENCRYPTION = 'A256CBC-HS512';
export const encryptionAlgOf = (jwk: JWK) => jwk.alg ?? 'RSA-OAEP-256';

/** The public half of a private JWK (the private members removed), with its use. */
export function publicJwk(jwk: JWK, use: 'sig' | 'enc'): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, k: _k, ...rest } = jwk;
  return { ...rest, use };
}

/** The payload of our entity configuration (self-signed: `iss` = `sub` = our entity id). */
export function entityConfigurationClaims(
  fed: FederationSettings,
  oidc: { signingJwk: JWK; redirectUri: string },
  now: Date,
) {
  const iat = Math.floor(now.getTime() / 1000);
  const encryption = { alg: encryptionAlgOf(fed.encryptionJwk), enc: CONTENT_ENCRYPTION };
  return {
    iss: fed.entityId,
    sub: fed.entityId,
    iat,
    exp: iat + ENTITY_CONFIGURATION_SECONDS,
    jwks: { keys: [publicJwk(fed.federationJwk, 'sig')] },
    authority_hints: fed.authorityHints,
    trust_marks: fed.trustMarks,
    metadata: {
      federation_entity: {
        organization_name: fed.organizationName,
        homepage_uri: fed.homepageUri,
        contacts: fed.contacts,
      },
      openid_relying_party: {
        client_id: fed.entityId,
        client_registration_types: ['automatic'],
        application_type: 'web',
        client_name: fed.organizationName,
        contacts: fed.contacts,
        redirect_uris: [oidc.redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [publicJwk(oidc.signingJwk, 'sig'), publicJwk(fed.encryptionJwk, 'enc')] },
        request_object_signing_alg: oidc.signingJwk.alg ?? 'RS256',
        id_token_signed_response_alg: ID_TOKEN_SIGNING_ALG,
        id_token_encrypted_response_alg: encryption.alg,
        id_token_encrypted_response_enc: encryption.enc,
        userinfo_signed_response_alg: ID_TOKEN_SIGNING_ALG,
        userinfo_encrypted_response_alg: encryption.alg,
        userinfo_encrypted_response_enc: encryption.enc,
      },
    },
  };
}

/** Our entity configuration, signed with the federation key (never with the OIDC keys). */
export async function signEntityConfiguration(
  fed: FederationSettings,
  oidc: { signingJwk: JWK; redirectUri: string },
  now: Date,
): Promise<string> {
  const alg = fed.federationJwk.alg ?? 'RS256';
  const key = await importJWK(fed.federationJwk, alg);
  return new SignJWT(entityConfigurationClaims(fed, oidc, now))
    .setProtectedHeader({
      alg,
      typ: ENTITY_STATEMENT_TYPE,
      ...(fed.federationJwk.kid ? { kid: fed.federationJwk.kid } : {}),
    })
    .sign(key);
}
