import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { startOidcProvider, type TestOidcProvider } from './oidc-provider.ts';

/**
 * A local SPID/CIE OpenID Connect Federation on 127.0.0.1 (decision 056): a trust anchor and an
 * intermediate (each serving its entity configuration, its fetch endpoint and the trust mark status
 * endpoint), and the CIE provider (oidc-provider) as their leaf with its own entity configuration
 * and a trust mark of the anchor. The tests change what each serves to make the chain fail.
 */

const DAY = 24 * 3600;
const seconds = () => Math.floor(Date.now() / 1000);
export const TRUST_MARK_TYPE = 'trust-mark+jwt';

/** A private JWK with its kid, alg and use. */
export async function privateJwk(alg: string, kid: string, use: 'sig' | 'enc'): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg, use };
}

/** The public half of a private RSA JWK. */
export function publicOf(jwk: JWK): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...rest } = jwk;
  return rest;
}

export async function signStatement(
  payload: Record<string, unknown>,
  jwk: JWK,
  typ = 'entity-statement+jwt',
) {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: jwk.alg!, kid: jwk.kid!, typ })
    .sign(await importJWK(jwk, jwk.alg));
}

/** Changes a JWT's payload and keeps its signature, as an attacker between us and the authority would. */
export function tamper(jwt: string, change: (payload: Record<string, unknown>) => void): string {
  const [header, body, signature] = jwt.split('.');
  const payload = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
  change(payload);
  return `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => resolve(body));
  });

interface Subordinate {
  jwks: { keys: JWK[] };
  metadataPolicy?: Record<string, Record<string, Record<string, unknown>>>;
}

/** A trust anchor or an intermediate of the test federation. */
export interface TestAuthority {
  entityId: string;
  key: JWK;
  publicJwks: { keys: JWK[] };
  authorityHints: string[];
  subordinates: Map<string, Subordinate>;
  trustMarkIssuers: Record<string, string[]>;
  revoked: Set<string>;
  /** Changes the statements it fetches after signing them (a tampered statement). */
  tamperStatements: boolean;
  issueTrustMark(sub: string, id: string, options?: { exp?: number }): Promise<string>;
  close(): Promise<void>;
}

export async function startAuthority(name: string): Promise<TestAuthority> {
  const key = await privateJwk('RS256', `${name}-key`, 'sig');
  const authority = {} as TestAuthority;
  const server = await listen((req, res) => {
    void (async () => {
      const url = new URL(req.url!, authority.entityId);
      const reply = (status: number, type: string, body: string) => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      };
      if (url.pathname === '/.well-known/openid-federation') {
        const id = authority.entityId;
        const jwt = await signStatement(
          {
            iss: id,
            sub: id,
            iat: seconds(),
            exp: seconds() + DAY,
            jwks: authority.publicJwks,
            ...(authority.authorityHints.length ? { authority_hints: authority.authorityHints } : {}),
            ...(Object.keys(authority.trustMarkIssuers).length
              ? { trust_mark_issuers: authority.trustMarkIssuers }
              : {}),
            metadata: {
              federation_entity: {
                organization_name: name,
                federation_fetch_endpoint: `${id}/fetch`,
                federation_trust_mark_status_endpoint: `${id}/trust_mark_status`,
              },
            },
          },
          key,
        );
        return reply(200, 'application/entity-statement+jwt', jwt);
      }
      if (url.pathname === '/fetch') {
        const sub = url.searchParams.get('sub') ?? '';
        const known = authority.subordinates.get(sub);
        if (!known) return reply(404, 'application/json', JSON.stringify({ error: 'not_found' }));
        const jwt = await signStatement(
          {
            iss: authority.entityId,
            sub,
            iat: seconds(),
            exp: seconds() + DAY,
            jwks: known.jwks,
            ...(known.metadataPolicy ? { metadata_policy: known.metadataPolicy } : {}),
          },
          key,
        );
        const served = authority.tamperStatements
          ? tamper(jwt, (p) => {
              // The federation's limits on the provider dropped, and a year of validity.
              delete p.metadata_policy;
              p.exp = seconds() + 365 * DAY;
            })
          : jwt;
        return reply(200, 'application/entity-statement+jwt', served);
      }
      if (url.pathname === '/trust_mark_status' && req.method === 'POST') {
        const mark = new URLSearchParams(await readBody(req)).get('trust_mark') ?? '';
        return reply(200, 'application/json', JSON.stringify({ active: !authority.revoked.has(mark) }));
      }
      reply(404, 'text/plain', 'not found');
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  Object.assign(authority, {
    entityId: server.url,
    key,
    publicJwks: { keys: [publicOf(key)] },
    authorityHints: [],
    subordinates: new Map(),
    trustMarkIssuers: {},
    revoked: new Set(),
    tamperStatements: false,
    issueTrustMark: (sub: string, id: string, options: { exp?: number } = {}) =>
      signStatement(
        { iss: server.url, sub, id, iat: seconds(), exp: options.exp ?? seconds() + 30 * DAY },
        key,
        TRUST_MARK_TYPE,
      ),
    close: server.close,
  });
  return authority;
}

export const ENCRYPTION = { alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' } as const;

/** The CIE provider of the test federation: what its entity configuration says can be changed by a test. */
export interface FederatedProvider {
  op: TestOidcProvider;
  federationKey: JWK;
  authorityHints: string[];
  trustMarks: { id: string; trust_mark: string }[];
}

/**
 * The whole federation for our entity `entityId` (redirect URI under it): anchor ← intermediate ←
 * provider, our keys, the trust mark ids, and the API's environment that joins it. `encrypt` false
 * for the ID token or userinfo makes a provider that sends it signed but not encrypted.
 */
export async function startCieFederation(options: {
  entityId: string;
  redirectUri: string;
  encrypt?: { idToken?: boolean; userinfo?: boolean };
}) {
  const anchor = await startAuthority('Trust anchor di prova');
  const intermediate = await startAuthority('Intermediario di prova');
  intermediate.authorityHints.push(anchor.entityId);
  const providerMark = `${anchor.entityId}/openid_provider/public`;
  const ourMark = `${anchor.entityId}/openid_relying_party/public`;
  anchor.trustMarkIssuers[providerMark] = [anchor.entityId];
  anchor.subordinates.set(intermediate.entityId, {
    jwks: intermediate.publicJwks,
    metadataPolicy: {
      openid_provider: {
        token_endpoint_auth_methods_supported: {
          subset_of: ['private_key_jwt', 'client_secret_basic'],
          essential: true,
        },
        userinfo_endpoint: { essential: true },
        claims_parameter_supported: { default: true },
      },
    },
  });

  const ours = {
    federationKey: await privateJwk('RS256', 'federazione', 'sig'),
    encryptionKey: await privateJwk(ENCRYPTION.alg, 'cifratura', 'enc'),
  };
  const provider = {
    federationKey: await privateJwk('RS256', 'op-federazione', 'sig'),
    authorityHints: [intermediate.entityId],
    trustMarks: [],
  } as unknown as FederatedProvider;

  const serveConfiguration = async (res: ServerResponse) => {
    const issuer = provider.op.issuer;
    const discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    const jwks = await (await fetch(String(discovery.jwks_uri))).json();
    const { jwks_uri: _uri, ...metadata } = discovery;
    const jwt = await signStatement(
      {
        iss: issuer,
        sub: issuer,
        iat: seconds(),
        exp: seconds() + DAY,
        jwks: { keys: [publicOf(provider.federationKey)] },
        authority_hints: provider.authorityHints,
        trust_marks: provider.trustMarks,
        metadata: {
          openid_provider: { ...metadata, jwks, client_registration_types_supported: ['automatic'] },
          federation_entity: { organization_name: 'CIE di prova' },
        },
      },
      provider.federationKey,
    );
    res.writeHead(200, { 'content-type': 'application/entity-statement+jwt' });
    res.end(jwt);
  };

  const encrypt = { idToken: true, userinfo: true, ...options.encrypt };
  provider.op = await startOidcProvider(options.redirectUri, {
    federation: {
      clientId: options.entityId,
      clientKeys: [publicOf(ours.encryptionKey)],
      client: {
        id_token_signed_response_alg: 'RS256',
        ...(encrypt.idToken
          ? {
              id_token_encrypted_response_alg: ENCRYPTION.alg,
              id_token_encrypted_response_enc: ENCRYPTION.enc,
            }
          : {}),
        userinfo_signed_response_alg: 'RS256',
        ...(encrypt.userinfo
          ? {
              userinfo_encrypted_response_alg: ENCRYPTION.alg,
              userinfo_encrypted_response_enc: ENCRYPTION.enc,
            }
          : {}),
      },
      handle(req, res) {
        if (req.url !== '/.well-known/openid-federation') return false;
        serveConfiguration(res).catch((error: unknown) => {
          res.statusCode = 500;
          res.end(String(error));
        });
        return true;
      },
    },
  });
  intermediate.subordinates.set(provider.op.issuer, {
    jwks: { keys: [publicOf(provider.federationKey)] },
    metadataPolicy: {
      openid_provider: {
        token_endpoint_auth_methods_supported: { subset_of: ['private_key_jwt'] },
        request_parameter_supported: { one_of: [true] },
      },
    },
  });
  provider.trustMarks = [
    { id: providerMark, trust_mark: await anchor.issueTrustMark(provider.op.issuer, providerMark) },
  ];
  const ourTrustMark = { id: ourMark, trust_mark: await anchor.issueTrustMark(options.entityId, ourMark) };

  /** The API's environment in this federation (decision 056). */
  const env = (): Record<string, string> => ({
    CIE_ISSUER: provider.op.issuer,
    CIE_CLIENT_ID: options.entityId,
    CIE_PRIVATE_JWK: JSON.stringify(provider.op.privateJwk),
    CIE_ENCRYPTION_JWK: JSON.stringify(ours.encryptionKey),
    CIE_FEDERATION_KEY: JSON.stringify(ours.federationKey),
    CIE_FEDERATION_TRUST_ANCHOR: anchor.entityId,
    CIE_FEDERATION_TRUST_ANCHOR_JWKS: JSON.stringify(anchor.publicJwks),
    CIE_FEDERATION_AUTHORITY_HINTS: intermediate.entityId,
    CIE_FEDERATION_TRUST_MARKS: JSON.stringify([ourTrustMark]),
    CIE_FEDERATION_REQUIRED_TRUST_MARKS: providerMark,
  });

  return {
    anchor,
    intermediate,
    provider,
    ours,
    providerMark,
    env,
    close: async () => {
      await provider.op.close();
      await intermediate.close();
      await anchor.close();
    },
  };
}
export type TestFederation = Awaited<ReturnType<typeof startCieFederation>>;
