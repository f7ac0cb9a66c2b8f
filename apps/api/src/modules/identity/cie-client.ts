import { readFileSync } from 'node:fs';
import { importJWK, type JWK } from 'jose';
import * as oidc from 'openid-client';
import { ACR_LEVEL_2 } from '@portale/shared/identity';
import type { Env } from '../../env.ts';

/** The CIE settings of the environment, or null when CIE is not configured (decision 048). */
export interface CieSettings {
  issuer: string;
  clientId: string;
  jwk: JWK;
  redirectUri: string;
  /** Plain http to the provider (a local test provider); never in production. */
  insecure: boolean;
}

export function cieSettings(env: Env): CieSettings | null {
  if (!env.CIE_ISSUER || !env.CIE_CLIENT_ID || !env.CIE_PRIVATE_JWK || !env.CIE_REDIRECT_BASE) return null;
  const raw = env.CIE_PRIVATE_JWK.trim();
  const jwk = JSON.parse(raw.startsWith('{') ? raw : readFileSync(raw, 'utf8')) as JWK;
  return {
    issuer: env.CIE_ISSUER,
    clientId: env.CIE_CLIENT_ID,
    jwk,
    redirectUri: `${env.CIE_REDIRECT_BASE.replace(/\/$/, '')}/api/auth/cie/callback`,
    insecure: env.NODE_ENV !== 'production' && env.CIE_ISSUER.startsWith('http:'),
  };
}

/** What the callback learnt from the provider: the ID token's subject and level, and the userinfo claims. */
export interface ProviderAnswer {
  subject: string;
  acr: string | null;
  claims: Record<string, unknown>;
  /** CIE: what the provider's logout needs (the ID token as `id_token_hint`, the access token to revoke). */
  tokens?: { idToken: string; accessToken: string };
}

/**
 * The relying party towards one OpenID Connect provider, with openid-client: discovery once (retried
 * after a failure), authorization code with PKCE S256, a signed request object (JAR), acr_values for
 * level 2, private_key_jwt at the token endpoint, and the checks of the authorization response (state,
 * `iss`), of the ID token (signature, audience, nonce, times) and of userinfo's subject.
 */
export class OidcRelyingParty {
  private configuration: Promise<{ config: oidc.Configuration; key: oidc.PrivateKey }> | undefined;

  constructor(readonly settings: CieSettings) {}

  private async load() {
    const { jwk } = this.settings;
    const alg = jwk.alg ?? 'RS256';
    const key = { key: (await importJWK(jwk, alg)) as CryptoKey, ...(jwk.kid ? { kid: jwk.kid } : {}) };
    const options = this.settings.insecure ? { execute: [oidc.allowInsecureRequests] } : {};
    const config = await oidc.discovery(
      new URL(this.settings.issuer),
      this.settings.clientId,
      {
        redirect_uris: [this.settings.redirectUri],
        response_types: ['code'],
        token_endpoint_auth_method: 'private_key_jwt',
        id_token_signed_response_alg: 'RS256',
      },
      oidc.PrivateKeyJwt(key),
      options,
    );
    return { config, key };
  }

  /** The discovered configuration; a failed discovery is tried again at the next call. */
  ready() {
    this.configuration ??= this.load().catch((error: unknown) => {
      this.configuration = undefined;
      throw error;
    });
    return this.configuration;
  }

  async issuer(): Promise<string> {
    return (await this.ready()).config.serverMetadata().issuer;
  }

  /** The URL the browser is sent to: a signed request object carrying state, nonce and the PKCE challenge. */
  async authorizationUrl(input: { state: string; nonce: string; codeVerifier: string }): Promise<URL> {
    const { config, key } = await this.ready();
    return oidc.buildAuthorizationUrlWithJAR(
      config,
      {
        redirect_uri: this.settings.redirectUri,
        response_type: 'code',
        scope: 'openid profile',
        state: input.state,
        nonce: input.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(input.codeVerifier),
        code_challenge_method: 'S256',
        acr_values: ACR_LEVEL_2,
        prompt: 'login',
        claims: JSON.stringify({
          id_token: { acr: { essential: true } },
          userinfo: {
            given_name: { essential: true },
            family_name: { essential: true },
            'https://attributes.eid.gov.it/fiscal_number': { essential: true },
            birthdate: null,
          },
        }),
      },
      key,
    );
  }

  /** Exchanges the code (private_key_jwt) and reads userinfo; throws what openid-client throws. */
  async complete(
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<ProviderAnswer> {
    const { config } = await this.ready();
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      pkceCodeVerifier: checks.codeVerifier,
      idTokenExpected: true,
    });
    const idToken = tokens.claims()!;
    const claims = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
    return {
      subject: idToken.sub,
      acr: typeof idToken.acr === 'string' ? idToken.acr : null,
      claims: { ...claims },
      ...(tokens.id_token ? { tokens: { idToken: tokens.id_token, accessToken: tokens.access_token } } : {}),
    };
  }
}
