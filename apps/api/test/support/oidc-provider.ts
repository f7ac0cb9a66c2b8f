import type { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';
import { taxCodeCheckChar } from '@portale/shared/accounts';
import { chooserPage } from './test-provider-chooser.ts';

/**
 * A local OpenID Connect provider configured like CIE (decision 048): oidc-provider on 127.0.0.1,
 * with our client registered for private_key_jwt, signed request objects, PKCE S256, the claims
 * parameter, `iss` in the authorization response and the SpidL2/L3 acr values. The interaction
 * (the user's login at the provider) is not a form: the test names the user (and the level, or an
 * error) before the browser gets there, and the provider completes it at once.
 */
export interface TestPerson {
  sub: string;
  given_name: string;
  family_name: string;
  birthdate?: string;
  /** Under the CIE name (`https://attributes.eid.gov.it/fiscal_number`) unless `spidName`. */
  fiscalNumber?: string;
  spidName?: boolean;
}

const cf = (first15: string) => first15 + taxCodeCheckChar(first15);

/** Test users: a valid CF, the same with `TINIT-`, an odd (wrong check character) one, a name that disagrees. */
export const TEST_PEOPLE = {
  valid: {
    sub: 'cie-valid',
    given_name: 'Giulia',
    family_name: 'Verdi',
    birthdate: '1980-03-15',
    fiscalNumber: cf('VRDGLI80C55H501'),
  },
  prefixed: {
    sub: 'cie-prefixed',
    given_name: 'Marco',
    family_name: 'Neri',
    fiscalNumber: `TINIT-${cf('NRIMRC75A01F205')}`,
    spidName: true,
  },
  odd: {
    sub: 'cie-odd',
    given_name: 'Anna',
    family_name: 'Bianchi',
    fiscalNumber: 'TINIT-BNCNNA70A41F205A',
  },
} satisfies Record<string, TestPerson>;

export const ACR_L2 = 'https://www.spid.gov.it/SpidL2';

/**
 * The provider as a member of a local CIE federation (decision 056, `federation-fixtures.ts`): our
 * client id is our entity id, with our encryption key among its keys and the client's encryption
 * settings (the automatic registration stands in as a client known in advance); ID tokens and
 * userinfo encrypted; `handle` serves the federation's paths (its entity configuration) first.
 */
export interface FederatedProviderOptions {
  clientId: string;
  clientKeys: JWK[];
  client: Record<string, unknown>;
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  /** Our private key, as CIE_PRIVATE_JWK takes it. */
  privateJwk: JWK;
  /** The person the next login completes as (and at which level), or the error the provider answers. */
  next(person: TestPerson, options?: { acr?: string; error?: string }): void;
  /** The subjects whose access token the provider destroyed (our revocation, RFC 7009), in order. */
  revoked: string[];
  close(): Promise<void>;
}

const CHOOSER_PEOPLE: Record<keyof typeof TEST_PEOPLE, string> = {
  valid: 'codice fiscale valido, con data di nascita',
  prefixed: 'codice fiscale con prefisso TINIT- (nome SPID dell’attributo)',
  odd: 'codice fiscale con carattere di controllo errato: l’accesso è rifiutato',
};

/**
 * `chooser`: when no test named the person, the provider asks the browser which one (`npm start` in
 * development offers it as "CIE di prova"); otherwise the login of a test with no person fails.
 */
export async function startOidcProvider(
  redirectUri: string,
  options: { chooser?: boolean; federation?: FederatedProviderOptions; postLogoutRedirectUri?: string } = {},
): Promise<TestOidcProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const privateJwk = { ...(await exportJWK(privateKey)), kid: 'rp-key', alg: 'RS256', use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'rp-key', alg: 'RS256', use: 'sig' };
  const signing = await generateKeyPair('RS256', { extractable: true });
  const providerJwk = { ...(await exportJWK(signing.privateKey)), kid: 'op-key', alg: 'RS256', use: 'sig' };
  const fed = options.federation;
  const clientId = fed?.clientId ?? 'https://portale-scuole.test/rp';
  const people = new Map<string, TestPerson>();
  type Pending = { person: TestPerson; acr: string; error?: string };
  let pending: Pending | undefined;

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        redirect_uris: [redirectUri],
        post_logout_redirect_uris: [options.postLogoutRedirectUri ?? 'http://127.0.0.1:3000/'],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'private_key_jwt',
        token_endpoint_auth_signing_alg: 'RS256',
        request_object_signing_alg: 'RS256',
        jwks: { keys: [publicJwk, ...(fed?.clientKeys ?? [])] },
        ...fed?.client,
      },
    ],
    jwks: { keys: [providerJwk] },
    acrValues: [ACR_L2, 'https://www.spid.gov.it/SpidL3', 'https://www.spid.gov.it/SpidL1'],
    claims: {
      openid: ['sub'],
      acr: null,
      profile: [
        'given_name',
        'family_name',
        'birthdate',
        'fiscalNumber',
        'https://attributes.eid.gov.it/fiscal_number',
      ],
    },
    features: {
      devInteractions: { enabled: false },
      requestObjects: { enabled: true, requireSignedRequestObject: true },
      claimsParameter: { enabled: true },
      ...(fed ? { encryption: { enabled: true }, jwtUserinfo: { enabled: true } } : {}),
      // What CIE offers for a relying party's logout: RP-initiated logout and token revocation.
      rpInitiatedLogout: { enabled: true },
      revocation: { enabled: true },
    },
    pkce: { required: () => true },
    ttl: {
      Interaction: 600,
      Grant: 600,
      Session: 600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => {
      const person = people.get(sub);
      if (!person) return undefined;
      return {
        accountId: sub,
        claims: () => {
          const { fiscalNumber, spidName: spid, sub: subject, ...rest } = person;
          return {
            sub: subject,
            ...rest,
            ...(fiscalNumber
              ? { [spid ? 'fiscalNumber' : 'https://attributes.eid.gov.it/fiscal_number']: fiscalNumber }
              : {}),
          };
        },
      };
    },
  });

  const revoked: string[] = [];
  (provider as unknown as EventEmitter).on('access_token.destroyed', (token: { accountId?: string }) => {
    revoked.push(token.accountId ?? '');
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (fed?.handle(req, res)) return;
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const asked = new URL(req.url!, issuer).searchParams.get('persona') as keyof typeof TEST_PEOPLE | null;
      const chosen: Pending | undefined =
        pending ??
        (options.chooser && asked && asked in TEST_PEOPLE
          ? { person: TEST_PEOPLE[asked], acr: ACR_L2 }
          : undefined);
      if (!chosen && options.chooser) {
        const people = Object.fromEntries(
          Object.entries(TEST_PEOPLE).map(([key, p]) => [
            key,
            {
              label: `${p.given_name} ${p.family_name}`,
              detail: CHOOSER_PEOPLE[key as keyof typeof TEST_PEOPLE],
            },
          ]),
        );
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(chooserPage('CIE di prova', people, (key) => `/interaction/${details.uid}?persona=${key}`));
        return;
      }
      if (!chosen) throw new Error('no test person named for this login');
      if (chosen.error) {
        pending = undefined;
        return provider.interactionFinished(req, res, { error: chosen.error, error_description: 'test' });
      }
      const accountId = chosen.person.sub;
      people.set(accountId, chosen.person);
      const grant = new provider.Grant({ accountId, clientId });
      grant.addOIDCScope('openid profile');
      grant.addOIDCClaims([
        'given_name',
        'family_name',
        'birthdate',
        'fiscalNumber',
        'https://attributes.eid.gov.it/fiscal_number',
        'acr',
      ]);
      const grantId = await grant.save();
      const result =
        details.prompt.name === 'login'
          ? { login: { accountId, acr: chosen.acr }, consent: { grantId } }
          : { consent: { grantId } };
      return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  return {
    issuer,
    clientId,
    privateJwk,
    next(person, options = {}) {
      pending = { person, acr: options.acr ?? ACR_L2, ...(options.error ? { error: options.error } : {}) };
    },
    revoked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A browser at the providers: follows redirects from `start` with its cookies, until a URL under
 * `stopAt` (not fetched) or a page that is not a redirect (its HTML returned).
 */
export async function browse(
  start: string,
  stopAt: string,
  cookies = new Map<string, string>(),
): Promise<{ url: URL; html: string | null }> {
  let url = start;
  for (let hop = 0; hop < 10; hop += 1) {
    if (url.startsWith(stopAt)) return { url: new URL(url), html: null };
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location) return { url: new URL(url), html: `${res.status} ${await res.text()}` };
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects at the provider');
}

/**
 * Follows the browser's way through the provider: from our start URL's redirect to the provider's
 * redirect back to our callback. Returns the callback URL (path and query), not yet called.
 */
export async function loginAtProvider(authorizationUrl: string, redirectUri: string): Promise<URL> {
  const { url, html } = await browse(authorizationUrl, redirectUri);
  if (html !== null) throw new Error(`provider stopped at ${url.href}: ${html}`);
  return url;
}
