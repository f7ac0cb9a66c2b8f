import { importJWK, type JWK } from 'jose';
import * as oidc from 'openid-client';
import type { Env } from '../../../env.ts';
import { cieSettings, OidcRelyingParty, type CieSettings } from '../cie-client.ts';
import { CONTENT_ENCRYPTION, encryptionAlgOf, ID_TOKEN_SIGNING_ALG } from './entity-configuration.ts';
import { federationSettings, type FederationSettings } from './federation-settings.ts';
import { FederationError, TrustChainResolver } from './trust-chain.ts';

type Ready = { config: oidc.Configuration; key: oidc.PrivateKey };

const isJwe = (value: unknown) => typeof value === 'string' && value.split('.').length === 5;

/**
 * The relying party towards CIE through the SPID/CIE OpenID Connect Federation (decision 056): the
 * same authorization as the plain one (signed request object, PKCE S256, private_key_jwt, acr_values,
 * claims; decision 048), but the provider's metadata come from the trust chain resolved up to the
 * configured trust anchor (cached until its earliest expiry), our client id is our entity id
 * (automatic registration), and the ID token and userinfo must come encrypted to our key and signed
 * with the keys the federation vouches for.
 */
export class FederationRelyingParty extends OidcRelyingParty {
  private current: { exp: number; ready: Promise<Ready> } | undefined;
  private readonly resolver: TrustChainResolver;

  constructor(
    settings: CieSettings,
    readonly federation: FederationSettings,
    private readonly now: () => Date = () => new Date(),
  ) {
    super(settings);
    this.resolver = new TrustChainResolver(federation, now);
  }

  /** The configuration from the resolved chain; resolved again once the chain expires or after a failure. */
  override ready(): Promise<Ready> {
    const seconds = Math.floor(this.now().getTime() / 1000);
    if (this.current && this.current.exp > seconds) return this.current.ready;
    const entry = { exp: Number.POSITIVE_INFINITY, ready: undefined as unknown as Promise<Ready> };
    entry.ready = this.build(entry).catch((error: unknown) => {
      if (this.current === entry) this.current = undefined;
      throw error;
    });
    this.current = entry;
    return entry.ready;
  }

  private async build(entry: { exp: number }): Promise<Ready> {
    const { settings, federation } = this;
    const resolved = await this.resolver.resolve(settings.issuer);
    entry.exp = resolved.exp;
    const metadata = { ...resolved.metadata } as {
      -readonly [K in keyof oidc.ServerMetadata]: oidc.ServerMetadata[K];
    } & {
      jwks?: { keys: JWK[] };
    };
    // The provider's keys are the ones in its federation metadata (CIE publishes them inline).
    const jwks = metadata.jwks;
    if (jwks) metadata.jwks_uri ??= `${settings.issuer.replace(/\/$/, '')}/.well-known/jwks-from-federation`;
    const alg = settings.jwk.alg ?? 'RS256';
    const key = {
      key: (await importJWK(settings.jwk, alg)) as CryptoKey,
      ...(settings.jwk.kid ? { kid: settings.jwk.kid } : {}),
    };
    const encAlg = encryptionAlgOf(federation.encryptionJwk);
    const config = new oidc.Configuration(
      metadata,
      federation.entityId,
      {
        redirect_uris: [settings.redirectUri],
        response_types: ['code'],
        token_endpoint_auth_method: 'private_key_jwt',
        id_token_signed_response_alg: ID_TOKEN_SIGNING_ALG,
        userinfo_signed_response_alg: ID_TOKEN_SIGNING_ALG,
      },
      oidc.PrivateKeyJwt(key),
    );
    if (settings.insecure) oidc.allowInsecureRequests(config);
    const decryption = (await importJWK(federation.encryptionJwk, encAlg)) as CryptoKey;
    oidc.enableDecryptingResponses(config, [CONTENT_ENCRYPTION], {
      key: decryption,
      alg: encAlg,
      ...(federation.encryptionJwk.kid ? { kid: federation.encryptionJwk.kid } : {}),
    });
    config[oidc.customFetch] = async (url, options) => {
      if (jwks && url === metadata.jwks_uri) return Response.json(jwks);
      const response = await fetch(url, options as RequestInit);
      if (!response.ok) return response;
      if (url === metadata.token_endpoint) {
        const body = (await response
          .clone()
          .json()
          .catch(() => null)) as { id_token?: unknown } | null;
        if (body?.id_token !== undefined && !isJwe(body.id_token))
          throw new FederationError('id_token_unencrypted', 'the ID token is not encrypted');
      }
      if (url === metadata.userinfo_endpoint && !isJwe((await response.clone().text()).trim()))
        throw new FederationError('userinfo_unencrypted', 'the userinfo response is not encrypted');
      return response;
    };
    return { config, key };
  }
}

/** The CIE relying party the environment asks for: through the federation, by plain discovery, or none. */
export function cieRelyingParty(env: Env, settings = cieSettings(env)): OidcRelyingParty | null {
  if (!settings) return null;
  const federation = federationSettings(env);
  return federation ? new FederationRelyingParty(settings, federation) : new OidcRelyingParty(settings);
}
