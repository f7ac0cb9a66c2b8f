import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { compactVerify, decodeJwt, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { taxCodeCheckChar } from '@portale/shared/accounts';
import { AUTH_PATHS, LogoutResultSchema } from '@portale/shared/http';
import {
  cieStart,
  federationEntityConfiguration,
  IDENTITY_RESULT_PATH,
  pendingIdentity,
  PendingIdentitySchema,
} from '@portale/shared/identity';
import { auditLog, users } from '../../../db/schema/index.ts';
import { hashPassword } from '../../../lib/passwords.ts';
import { loadEnv } from '../../../env.ts';
import { federationSettings } from './federation-settings.ts';
import { TrustChainResolver } from './trust-chain.ts';
import { buildTestApp, type TestApp } from '../../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../../test/http-client.ts';
import { loginAtProvider, type TestPerson } from '../../../../test/support/oidc-provider.ts';
import {
  publicOf,
  startCieFederation,
  type TestFederation,
} from '../../../../test/support/federation-fixtures.ts';

const ENTITY_ID = 'http://api.test';
const REDIRECT_URI = `${ENTITY_ID}/api/auth/cie/callback`;

let fed: TestFederation;
beforeAll(async () => {
  fed = await startCieFederation({ entityId: ENTITY_ID, redirectUri: REDIRECT_URI });
});
afterAll(async () => {
  await fed?.close();
});

const cf = (first15: string) => first15 + taxCodeCheckChar(first15);
let serial = 0;
function person(): TestPerson & { taxCode: string } {
  serial += 1;
  const taxCode = cf(`BNCPLA85B41H${String(500 + serial).padStart(3, '0')}`);
  return {
    sub: `fed-${serial}-${Math.random().toString(36).slice(2)}`,
    given_name: 'Paola',
    family_name: 'Bianchi',
    birthdate: '1985-02-01',
    fiscalNumber: `TINIT-${taxCode}`,
    taxCode,
  };
}

/** A fresh API in the federation (its resolved chain cached by it alone), closed after `fn`. */
async function withApi(env: Record<string, string>, fn: (t: TestApp) => Promise<unknown>) {
  const t = await buildTestApp({ CIE_REDIRECT_BASE: ENTITY_ID, ...env });
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

const resultOf = (location: string | undefined) => {
  const url = new URL(location!);
  expect(url.pathname).toBe(IDENTITY_RESULT_PATH);
  return { outcome: url.searchParams.get('esito'), failure: url.searchParams.get('codice') };
};

/** Start (and, when the start goes to the provider, the provider and our callback) as `who`. */
async function login(t: TestApp, who: TestPerson) {
  const c = new ApiClient(t, nextIp());
  const start = await c.get(cieStart.path);
  expect(start.statusCode).toBe(302);
  const location = start.headers.location!;
  if (location.includes(IDENTITY_RESULT_PATH)) return { c, ...resultOf(location), at: 'start' as const };
  fed.provider.op.next(who);
  const back = await loginAtProvider(location, REDIRECT_URI);
  const callback = await c.get(`${back.pathname}${back.search}`);
  expect(callback.statusCode).toBe(302);
  return { c, ...resultOf(callback.headers.location), at: 'callback' as const };
}

const auditsOf = (t: TestApp, action: string) =>
  t.database.db.select().from(auditLog).where(eq(auditLog.action, action));

/** A refusal: the result page's code, an audit of it with the reason, and no session nor pending identity. */
async function expectRefused(t: TestApp, failure: string, reason: RegExp) {
  const result = await login(t, person());
  expect({ outcome: result.outcome, failure: result.failure }).toEqual({ outcome: 'errore', failure });
  const [audit] = await auditsOf(t, `identity.login.${failure}`);
  expect((audit!.after as { reason: string }).reason).toMatch(reason);
  expect(result.c.refreshCookie()).toBeFalsy();
  expect((await result.c.get(pendingIdentity.path)).statusCode).toBe(404);
  return result;
}

describe('our entity configuration', () => {
  it('is a JWT signed with the federation key (not the OIDC key) with the relying party metadata', async () => {
    await withApi(fed.env(), async (t) => {
      const res = await new ApiClient(t, nextIp()).get(federationEntityConfiguration.path);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/entity-statement+jwt');
      const jwt = res.body;
      expect(decodeProtectedHeader(jwt)).toMatchObject({ typ: 'entity-statement+jwt', kid: 'federazione' });
      await compactVerify(jwt, await importJWK(publicOf(fed.ours.federationKey), 'RS256'));
      const oidcKey = await importJWK(publicOf(fed.provider.op.privateJwk), 'RS256');
      await expect(compactVerify(jwt, oidcKey)).rejects.toThrow();

      const ec = decodeJwt(jwt) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      const env = fed.env();
      expect(ec).toMatchObject({
        iss: ENTITY_ID,
        sub: ENTITY_ID,
        authority_hints: [fed.intermediate.entityId],
        trust_marks: JSON.parse(env.CIE_FEDERATION_TRUST_MARKS!),
        jwks: { keys: [publicOf(fed.ours.federationKey)] },
      });
      expect(ec.exp - ec.iat).toBe(24 * 3600);
      expect(ec.metadata.federation_entity).toMatchObject({ organization_name: expect.any(String) });
      const rp = ec.metadata.openid_relying_party;
      expect(rp).toMatchObject({
        client_id: ENTITY_ID,
        client_registration_types: ['automatic'],
        redirect_uris: [REDIRECT_URI],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'private_key_jwt',
        id_token_encrypted_response_alg: 'RSA-OAEP-256',
        id_token_encrypted_response_enc: 'A256CBC-HS512',
        userinfo_encrypted_response_alg: 'RSA-OAEP-256',
        userinfo_encrypted_response_enc: 'A256CBC-HS512',
      });
      const keys = rp.jwks.keys as JWK[];
      expect(keys.map((k) => [k.kid, k.use])).toEqual([
        ['rp-key', 'sig'],
        ['cifratura', 'enc'],
      ]);
      // Only public keys are published; the federation key is not among the OIDC ones.
      for (const key of [...keys, ...ec.jwks.keys]) expect(key).not.toHaveProperty('d');
      expect(keys.map((k) => k.n)).not.toContain(fed.ours.federationKey.n);
    });
  });

  it('answers 404 while the federation is off (plain CIE or none)', async () => {
    const t = await buildTestApp();
    try {
      expect((await new ApiClient(t, nextIp()).get(federationEntityConfiguration.path)).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('trust chain', () => {
  it('gives the provider metadata under the merged policy of the anchor and the intermediate, its keys inline', async () => {
    const settings = federationSettings(
      loadEnv({ NODE_ENV: 'test', CIE_REDIRECT_BASE: ENTITY_ID, ...fed.env() }),
    )!;
    const resolved = await new TrustChainResolver(settings).resolve(fed.provider.op.issuer);
    expect(resolved.metadata).toMatchObject({
      issuer: fed.provider.op.issuer,
      // The provider offers more; the intermediate's subset_of under the anchor's keeps private_key_jwt.
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      claims_parameter_supported: true,
      request_parameter_supported: true,
      client_registration_types_supported: ['automatic'],
      jwks: { keys: [expect.objectContaining({ kid: 'op-key', use: 'sig' })] },
    });
    expect(resolved.metadata).not.toHaveProperty('jwks_uri');
    // Valid until the earliest expiry of the statements (a day) and of the trust mark (30 days).
    const inADay = Math.floor(Date.now() / 1000) + 24 * 3600;
    expect(resolved.exp).toBeGreaterThan(inADay - 120);
    expect(resolved.exp).toBeLessThanOrEqual(inADay);
  });
});

describe('login with CIE through the federation', () => {
  it('resolves the chain to the anchor, registers automatically and decrypts the ID token and userinfo', async () => {
    await withApi(fed.env(), async (t) => {
      const who = person();
      const result = await login(t, who);
      expect({ outcome: result.outcome, failure: result.failure }).toEqual({
        outcome: 'registrazione',
        failure: null,
      });
      const pending = PendingIdentitySchema.parse((await result.c.get(pendingIdentity.path)).json());
      expect(pending).toMatchObject({
        provider: 'cie',
        firstName: 'Paola',
        lastName: 'Bianchi',
        taxCode: who.taxCode,
      });
      // The chain is kept until its earliest expiry: a statement tampered later is not read again.
      fed.intermediate.tamperStatements = true;
      try {
        expect((await login(t, person())).outcome).toBe('registrazione');
      } finally {
        fed.intermediate.tamperStatements = false;
      }
    });
  });

  it('refuses an expired trust mark of the provider', async () => {
    const [mark] = fed.provider.trustMarks;
    fed.provider.trustMarks = [
      {
        id: fed.providerMark,
        trust_mark: await fed.anchor.issueTrustMark(fed.provider.op.issuer, fed.providerMark, {
          exp: Math.floor(Date.now() / 1000) - 60,
        }),
      },
    ];
    try {
      await withApi(fed.env(), (t) => expectRefused(t, 'trust_mark_invalid', /trust mark .*"exp"|expired/));
    } finally {
      fed.provider.trustMarks = [mark!];
    }
  });

  it('refuses a revoked trust mark, and a provider without the required one', async () => {
    const [mark] = fed.provider.trustMarks;
    fed.anchor.revoked.add(mark!.trust_mark);
    try {
      await withApi(fed.env(), (t) => expectRefused(t, 'trust_mark_invalid', /revoked/));
    } finally {
      fed.anchor.revoked.clear();
    }
    fed.provider.trustMarks = [];
    try {
      await withApi(fed.env(), (t) => expectRefused(t, 'trust_mark_invalid', /no trust mark/));
    } finally {
      fed.provider.trustMarks = [mark!];
    }
  });

  it('refuses a provider whose authority_hints name an authority that does not know it', async () => {
    fed.provider.authorityHints = [fed.anchor.entityId];
    try {
      await withApi(fed.env(), (t) => expectRefused(t, 'authority_hints_invalid', /issues no statement/));
    } finally {
      fed.provider.authorityHints = [fed.intermediate.entityId];
    }
  });

  it('refuses a tampered subordinate statement', async () => {
    fed.intermediate.tamperStatements = true;
    try {
      await withApi(fed.env(), (t) => expectRefused(t, 'trust_chain_invalid', /signature/));
    } finally {
      fed.intermediate.tamperStatements = false;
    }
  });

  it('refuses a chain that does not reach the configured trust anchor', async () => {
    fed.intermediate.authorityHints = [];
    try {
      await withApi(fed.env(), (t) => expectRefused(t, 'trust_chain_invalid', /not the trust anchor/));
    } finally {
      fed.intermediate.authorityHints = [fed.anchor.entityId];
    }
    // An anchor that signs with keys other than the configured ones is not the anchor.
    const other = await startCieFederation({ entityId: ENTITY_ID, redirectUri: REDIRECT_URI });
    try {
      const env = { ...fed.env(), CIE_FEDERATION_TRUST_ANCHOR_JWKS: JSON.stringify(other.anchor.publicJwks) };
      await withApi(env, (t) => expectRefused(t, 'trust_chain_invalid', /trust anchor configuration/));
    } finally {
      await other.close();
    }
  });

  it.each([
    ['a userinfo', { userinfo: false }, 'userinfo_unencrypted'],
    ['an ID token', { idToken: false }, 'id_token_unencrypted'],
  ] as const)('refuses %s that is signed but not encrypted', async (_name, encrypt, failure) => {
    const plain = await startCieFederation({ entityId: ENTITY_ID, redirectUri: REDIRECT_URI, encrypt });
    const saved = fed;
    fed = plain;
    try {
      await withApi(plain.env(), async (t) => {
        const result = await expectRefused(t, failure, /not encrypted/);
        expect(result.at).toBe('callback');
      });
    } finally {
      fed = saved;
      await plain.close();
    }
  });
});

describe('logout of a session opened through the federation', () => {
  it('ends it at the provider the chain names: its end-session URL, with the ID token as the hint', async () => {
    await withApi(fed.env(), async (t) => {
      const who = person();
      await t.database.db.insert(users).values({
        email: `federazione-${serial}@scuola.it`,
        passwordHash: await hashPassword('Quaderno-Girasole-47'),
        firstName: 'Paola',
        lastName: 'Bianchi',
        taxCode: who.taxCode,
        emailVerifiedAt: t.clock.now(),
        taxCodeVerifiedAt: t.clock.now(),
        taxCodeVerifiedSource: 'cie',
      });
      const result = await login(t, who);
      expect(result.outcome).toBe('accesso');
      expect((await result.c.refresh()).statusCode).toBe(200);
      const res = await result.c.post(AUTH_PATHS.logout);
      expect(res.statusCode).toBe(200);
      const url = LogoutResultSchema.parse(res.json()).providerLogoutUrl;
      expect(url).not.toBeNull();
      const endSession = new URL(url!);
      expect(endSession.origin).toBe(new URL(fed.provider.op.issuer).origin);
      expect(endSession.searchParams.get('id_token_hint')).toBeTruthy();
    });
  });
});
