import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  jwtVerify,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { IdentityFailure } from '@portale/shared/identity';
import { ENTITY_STATEMENT_MEDIA, ENTITY_STATEMENT_TYPE } from './entity-configuration.ts';
import type { FederationSettings, TrustMarkEntry } from './federation-settings.ts';
import {
  applyPolicy,
  mergePolicies,
  MetadataPolicyError,
  type Metadata,
  type MetadataPolicy,
} from './metadata-policy.ts';

/** Why the federation refused a provider: one of the login's audited failures, with what was found. */
export class FederationError extends Error {
  constructor(
    readonly failure: Extract<
      IdentityFailure,
      | 'trust_chain_invalid'
      | 'authority_hints_invalid'
      | 'trust_mark_invalid'
      | 'userinfo_unencrypted'
      | 'id_token_unencrypted'
    >,
    message: string,
  ) {
    super(message);
  }
}

/** The federation refusal an error carries (openid-client wraps what a fetch throws), or null. */
export function federationErrorOf(error: unknown): FederationError | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1)
    if (e instanceof FederationError) return e;
  return null;
}

/** An entity statement: its JWT and its payload (OpenID Federation 1.0, section 3). */
export interface EntityStatement extends JWTPayload {
  iss: string;
  sub: string;
  exp: number;
  jwks: { keys: JWK[] };
  authority_hints?: string[];
  metadata?: Record<string, Metadata>;
  metadata_policy?: Record<string, MetadataPolicy>;
  trust_marks?: (TrustMarkEntry & { trust_mark_type?: string })[];
  trust_mark_issuers?: Record<string, string[]>;
}

/** The provider's metadata after the chain's policy, and when the chain stops being valid. */
export interface ResolvedProvider {
  metadata: Metadata;
  /** Seconds since the epoch: the earliest `exp` of the chain's statements and required trust marks. */
  exp: number;
}

const MAX_DEPTH = 5;
const TIMEOUT_MS = 10_000;
const wellKnown = (entityId: string) => `${entityId.replace(/\/$/, '')}/.well-known/openid-federation`;

/**
 * The trust chain from a leaf (the CIE provider) to the configured trust anchor: the leaf's entity
 * configuration, its superiors' subordinate statements about it, up to the trust anchor, whose
 * statements are checked with its configured keys (never with keys it publishes itself). Then the
 * merged metadata policy and the required trust marks. `now` gives the time (tests move it).
 */
export class TrustChainResolver {
  constructor(
    private readonly fed: FederationSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private seconds() {
    return Math.floor(this.now().getTime() / 1000);
  }

  private async get(url: string, init?: RequestInit): Promise<Response> {
    return fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  }

  /** Verifies a statement's signature with `keys`, its type and times; the payload, or a refusal. */
  private async verify(
    jwt: string,
    keys: { keys: JWK[] },
    failure: FederationError['failure'],
    what: string,
  ) {
    try {
      const { payload, protectedHeader } = await jwtVerify(jwt, createLocalJWKSet(keys), {
        currentDate: this.now(),
        clockTolerance: 30,
      });
      if (
        protectedHeader.typ &&
        protectedHeader.typ !== ENTITY_STATEMENT_TYPE &&
        !what.startsWith('trust mark')
      )
        throw new Error(`unexpected typ ${protectedHeader.typ}`);
      // Every entity statement expires; a trust mark may not (then it holds until revoked).
      if (typeof payload.exp !== 'number' && !what.startsWith('trust mark')) throw new Error('no exp');
      return payload;
    } catch (error) {
      throw new FederationError(failure, `${what}: ${(error as Error).message}`);
    }
  }

  /** An entity's configuration, verified with its own keys (their trust comes from its superior). */
  private async entityConfiguration(entityId: string, failure: FederationError['failure']) {
    const res = await this.get(wellKnown(entityId));
    if (!res.ok)
      throw new FederationError(failure, `entity configuration of ${entityId}: HTTP ${res.status}`);
    const jwt = (await res.text()).trim();
    let self: EntityStatement;
    try {
      self = decodeJwt(jwt) as EntityStatement;
      decodeProtectedHeader(jwt);
    } catch {
      throw new FederationError(failure, `entity configuration of ${entityId}: not a JWT`);
    }
    if (self.iss !== entityId || self.sub !== entityId || !Array.isArray(self.jwks?.keys))
      throw new FederationError(failure, `entity configuration of ${entityId}: not self-issued`);
    await this.verify(jwt, self.jwks, failure, `entity configuration of ${entityId}`);
    return { jwt, statement: self };
  }

  /** The superior's statement about `subject`, from its fetch endpoint, verified with the superior's keys. */
  private async subordinateStatement(superior: EntityStatement, subject: string, keys: { keys: JWK[] }) {
    const endpoint = (
      superior.metadata?.federation_entity as { federation_fetch_endpoint?: string } | undefined
    )?.federation_fetch_endpoint;
    if (!endpoint)
      throw new FederationError(
        'authority_hints_invalid',
        `${superior.sub} has no fetch endpoint: not an authority`,
      );
    const url = new URL(endpoint);
    url.searchParams.set('sub', subject);
    const res = await this.get(url.href, { headers: { accept: ENTITY_STATEMENT_MEDIA } });
    if (res.status === 404 || res.status === 400)
      throw new FederationError(
        'authority_hints_invalid',
        `${superior.sub} issues no statement about ${subject}`,
      );
    if (!res.ok)
      throw new FederationError('trust_chain_invalid', `${superior.sub} fetch: HTTP ${res.status}`);
    const jwt = (await res.text()).trim();
    const payload = (await this.verify(
      jwt,
      keys,
      'trust_chain_invalid',
      `statement of ${superior.sub} about ${subject}`,
    )) as EntityStatement;
    if (payload.iss !== superior.sub || payload.sub !== subject || !Array.isArray(payload.jwks?.keys))
      throw new FederationError(
        'trust_chain_invalid',
        `statement of ${superior.sub} about ${subject}: wrong iss/sub/jwks`,
      );
    return payload;
  }

  /**
   * The statements from `subject` (verified with its own keys so far) up to the trust anchor: each
   * superior's statement about the entity below, superior first at the end. Tries the hints in order.
   */
  private async chainUp(
    subject: { jwt: string; statement: EntityStatement },
    depth: number,
  ): Promise<{ statements: EntityStatement[]; anchor: EntityStatement }> {
    const { fed } = this;
    const hints = subject.statement.authority_hints ?? [];
    if (hints.length === 0)
      throw new FederationError(
        'trust_chain_invalid',
        `${subject.statement.sub} has no authority and is not the trust anchor`,
      );
    if (depth >= MAX_DEPTH) throw new FederationError('trust_chain_invalid', 'trust chain too long');
    let first: unknown;
    for (const hint of hints) {
      try {
        const anchor = hint === fed.trustAnchor;
        const superior = await this.entityConfiguration(hint, 'authority_hints_invalid');
        // The trust anchor's own configuration must be signed with its configured keys.
        if (anchor)
          await this.verify(
            superior.jwt,
            fed.trustAnchorJwks,
            'trust_chain_invalid',
            'trust anchor configuration',
          );
        const keys = anchor ? fed.trustAnchorJwks : superior.statement.jwks;
        const statement = await this.subordinateStatement(superior.statement, subject.statement.sub, keys);
        // The subject's configuration must be signed with the keys its superior vouches for.
        await this.verify(
          subject.jwt,
          statement.jwks,
          'trust_chain_invalid',
          `keys of ${subject.statement.sub}`,
        );
        const above = anchor
          ? { statements: [], anchor: superior.statement }
          : await this.chainUp(superior, depth + 1);
        return { statements: [statement, ...above.statements], anchor: above.anchor };
      } catch (error) {
        first ??= error;
      }
    }
    throw first;
  }

  /** The provider's metadata as the federation vouches for it; throws a FederationError or a network error. */
  async resolve(providerId: string): Promise<ResolvedProvider> {
    const leaf = await this.entityConfiguration(providerId, 'trust_chain_invalid');
    if (!(leaf.statement.authority_hints ?? []).length)
      throw new FederationError('authority_hints_invalid', `${providerId} names no authority`);
    const { statements, anchor } = await this.chainUp(leaf, 0);
    const policies = statements
      .map((s) => s.metadata_policy?.openid_provider)
      .filter((p): p is MetadataPolicy => p !== undefined)
      .reverse();
    const declared = {
      ...(leaf.statement.metadata?.openid_provider ?? {}),
      ...(statements[0]?.metadata?.openid_provider ?? {}),
    };
    let metadata: Metadata;
    try {
      metadata = applyPolicy(declared, mergePolicies(policies));
    } catch (error) {
      if (error instanceof MetadataPolicyError)
        throw new FederationError('trust_chain_invalid', `metadata policy: ${error.message}`);
      throw error;
    }
    if (metadata.issuer !== providerId)
      throw new FederationError('trust_chain_invalid', `the provider's issuer is not its entity id`);
    const marks = await this.checkTrustMarks(leaf.statement, anchor, statements);
    const exp = Math.min(leaf.statement.exp, ...statements.map((s) => s.exp), ...marks);
    return { metadata, exp };
  }

  /** Checks the required trust marks of the provider; their expiries. */
  private async checkTrustMarks(leaf: EntityStatement, anchor: EntityStatement, chain: EntityStatement[]) {
    const exps: number[] = [];
    for (const id of this.fed.requiredTrustMarks) {
      const entry = (leaf.trust_marks ?? []).find((m) => (m.id ?? m.trust_mark_type) === id);
      if (!entry) throw new FederationError('trust_mark_invalid', `the provider has no trust mark ${id}`);
      let issuer: string;
      try {
        issuer = String(decodeJwt(entry.trust_mark).iss);
      } catch {
        throw new FederationError('trust_mark_invalid', `trust mark ${id}: not a JWT`);
      }
      const allowed =
        issuer === this.fed.trustAnchor || (anchor.trust_mark_issuers?.[id] ?? []).includes(issuer);
      if (!allowed)
        throw new FederationError('trust_mark_invalid', `trust mark ${id}: ${issuer} may not issue it`);
      const issuerConfiguration =
        issuer === this.fed.trustAnchor
          ? anchor
          : (await this.entityConfiguration(issuer, 'trust_mark_invalid')).statement;
      const keys =
        issuer === this.fed.trustAnchor
          ? this.fed.trustAnchorJwks
          : (chain.find((s) => s.sub === issuer)?.jwks ?? issuerConfiguration.jwks);
      const mark = await this.verify(entry.trust_mark, keys, 'trust_mark_invalid', `trust mark ${id}`);
      if (mark.sub !== leaf.sub || ((mark.id ?? mark.trust_mark_type) as string | undefined) !== id)
        throw new FederationError(
          'trust_mark_invalid',
          `trust mark ${id}: issued for another entity or mark`,
        );
      if (mark.exp !== undefined && mark.exp <= this.seconds())
        throw new FederationError('trust_mark_invalid', `trust mark ${id}: expired`);
      await this.checkStatus(issuerConfiguration, entry.trust_mark, id);
      if (mark.exp !== undefined) exps.push(mark.exp);
    }
    return exps;
  }

  /** Asks the issuer's trust mark status endpoint, when it has one, whether the mark is still active. */
  private async checkStatus(issuer: EntityStatement, trustMark: string, id: string) {
    const endpoint = (
      issuer.metadata?.federation_entity as { federation_trust_mark_status_endpoint?: string } | undefined
    )?.federation_trust_mark_status_endpoint;
    if (!endpoint) return;
    const res = await this.get(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ trust_mark: trustMark }).toString(),
    });
    const body = res.ok ? ((await res.json().catch(() => null)) as { active?: unknown } | null) : null;
    if (body?.active !== true)
      throw new FederationError('trust_mark_invalid', `trust mark ${id}: revoked (status ${res.status})`);
  }
}
