import { randomBytes } from 'node:crypto';
import {
  SAML,
  SamlStatusError,
  ValidateInResponseTo,
  type CacheProvider,
  type Profile,
  type SamlConfig,
} from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import { ACR_LEVEL_2, type IdentityFailure } from '@portale/shared/identity';
import type { ProviderAnswer } from './cie-client.ts';
import { ATTRIBUTE_CONSUMING_SERVICE_INDEX, xmlEscape } from './spid-metadata.ts';
import type { SpidIdp, SpidSettings } from './spid-settings.ts';
import type { SpidSessionKeys } from './spid-sessions.repository.ts';

const SAML_P = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML_A = 'urn:oasis:names:tc:SAML:2.0:assertion';
const STATUS_SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
/** The query signatures a provider's logout message may carry (SPID: RSA with SHA-256 or stronger). */
const SIGNATURE_ALGORITHMS = [
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
];
/** Seconds of clock difference tolerated with a provider (NotBefore, NotOnOrAfter). */
const CLOCK_SKEW_MS = 30_000;

/**
 * The Issuer of our AuthnRequest, LogoutRequest and LogoutResponse as SPID wants it: the entity
 * format and its NameQualifier (node-saml writes a bare one).
 */
class SpidSaml extends SAML {
  constructor(
    config: SamlConfig,
    private readonly entityId: string,
  ) {
    super(config);
  }

  private spidIssuer(xml: string): string {
    return xml.replace(
      /<saml:Issuer(?: xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion")?>/,
      `<saml:Issuer xmlns:saml="${SAML_A}" NameQualifier="${xmlEscape(this.entityId)}" ` +
        `Format="urn:oasis:names:tc:SAML:2.0:nameid-format:entity">`,
    );
  }

  protected override async generateAuthorizeRequestAsync(
    isPassive: boolean,
    isHttpPostBinding: boolean,
  ): Promise<string> {
    return this.spidIssuer(await super.generateAuthorizeRequestAsync(isPassive, isHttpPostBinding));
  }

  override async _generateLogoutRequest(user: Profile): Promise<string> {
    return this.spidIssuer(await super._generateLogoutRequest(user));
  }

  /** The redirect binding's query signature alone (before node-saml reads the message's status). */
  async checkRedirectSignature(query: Record<string, string>, rawQuery: string): Promise<void> {
    await this.hasValidSignatureForRedirect(query, rawQuery);
  }

  override _generateLogoutResponse(logoutRequest: Profile, success: boolean): string {
    return this.spidIssuer(super._generateLogoutResponse(logoutRequest, success));
  }
}

/** The unsigned envelope of a Response, read before its signature is checked (to find our request). */
export interface ResponseEnvelope {
  inResponseTo: string | null;
  destination: string | null;
  issuer: string | null;
  status: string | null;
  statusMessage: string | null;
}

/** What a verified SPID Response gave: the person's answer, and what a single logout needs. */
export interface SpidAnswer extends ProviderAnswer {
  /** The provider that answered (its entity id). */
  idpEntityId: string;
  nameId: string;
  nameIdFormat: string | null;
  sessionIndex: string | null;
}

/**
 * A cache of the one request a response may answer (node-saml checks InResponseTo against it). Its
 * expiry and its single use are the login attempt's (checked before): node-saml sees it as just made.
 */
const oneRequest = (requestId: string | null): CacheProvider => ({
  saveAsync: async () => null,
  getAsync: async (key) => (requestId !== null && key === requestId ? new Date().toISOString() : null),
  removeAsync: async () => null,
});

const first = (parent: Element | Document, ns: string, local: string): Element | undefined =>
  (parent.getElementsByTagNameNS(ns, local) as unknown as ArrayLike<Element>)[0];

/** The failure a node-saml validation error stands for (each an audited failure of its own). */
export function failureOfSamlError(error: unknown): IdentityFailure {
  if (error instanceof SamlStatusError) return 'provider_error';
  const message = error instanceof Error ? error.message : String(error);
  if (/signature/i.test(message)) return 'signature_invalid';
  if (/audience/i.test(message)) return 'audience_invalid';
  // The times of the Conditions, or of every bearer SubjectConfirmationData (node-saml then says no
  // valid subject confirmation was found).
  if (/expired|not yet valid|too old|no valid subject confirmation/i.test(message))
    return 'assertion_expired';
  if (/issuer/i.test(message)) return 'issuer_mismatch';
  if (/InResponseTo/i.test(message)) return 'state_unknown';
  return 'saml_invalid';
}

/**
 * Our SPID service provider (decision 052) with `@node-saml/node-saml`: the signed AuthnRequest
 * (HTTP-Redirect, RSA-SHA256) with ForceAuthn, RequestedAuthnContext SpidL2 `minimum`, the
 * AttributeConsumingServiceIndex and a transient NameIDPolicy; and the checks of the Response
 * (assertion signature by the chosen provider's certificates, audience, times, InResponseTo of the
 * Response and of the SubjectConfirmationData, the assertion's Issuer).
 */
export class SpidServiceProvider {
  constructor(readonly settings: SpidSettings) {}

  private saml(idp: SpidIdp, requestId: string | null): SpidSaml {
    const { settings } = this;
    return new SpidSaml(
      {
        entryPoint: idp.ssoUrl,
        ...(idp.sloUrl ? { logoutUrl: idp.sloUrl } : {}),
        issuer: settings.entityId,
        callbackUrl: settings.acsUrl,
        idpCert: idp.certificates,
        idpIssuer: idp.entityId,
        audience: settings.entityId,
        privateKey: settings.privateKey,
        publicCert: settings.certificate,
        signatureAlgorithm: 'sha256',
        digestAlgorithm: 'sha256',
        identifierFormat: TRANSIENT,
        forceAuthn: true,
        authnContext: [ACR_LEVEL_2],
        racComparison: 'minimum',
        attributeConsumingServiceIndex: ATTRIBUTE_CONSUMING_SERVICE_INDEX,
        authnRequestBinding: 'HTTP-Redirect',
        wantAssertionsSigned: true,
        wantAuthnResponseSigned: false,
        acceptedClockSkewMs: CLOCK_SKEW_MS,
        validateInResponseTo: ValidateInResponseTo.always,
        cacheProvider: oneRequest(requestId),
        generateUniqueId: () => requestId ?? '_unused',
      },
      settings.entityId,
    );
  }

  /** The provider's SSO URL with our signed AuthnRequest (ID `requestId`) in the query. */
  authorizationUrl(idp: SpidIdp, requestId: string): Promise<string> {
    return this.saml(idp, requestId).getAuthorizeUrlAsync('', undefined, {});
  }

  /**
   * The provider's single logout URL with our signed LogoutRequest (ID `requestId`, HTTP-Redirect):
   * the session's NameID (with the provider as its NameQualifier) and SessionIndex.
   */
  logoutUrl(idp: SpidIdp, session: SpidSessionKeys, requestId: string): Promise<string> {
    return this.saml(idp, requestId).getLogoutUrlAsync(
      {
        issuer: idp.entityId,
        nameID: session.nameId,
        nameIDFormat: session.nameIdFormat ?? TRANSIENT,
        nameQualifier: idp.entityId,
        ...(session.sessionIndex ? { sessionIndex: session.sessionIndex } : {}),
      },
      '',
      {},
    );
  }

  /**
   * Checks a LogoutResponse or LogoutRequest of the HTTP-Redirect binding with node-saml: the query's
   * signature by the provider's certificates, its Issuer, its times; a LogoutResponse's status and
   * InResponseTo (`requestId`, our LogoutRequest). The signature must be there (node-saml would let an
   * unsigned query through). Throws what node-saml throws.
   */
  async verifyLogout(
    idp: SpidIdp,
    query: Record<string, string>,
    rawQuery: string,
    requestId: string | null,
  ): Promise<void> {
    if (!query.Signature || !query.SigAlg) throw new Error('The logout message has no signature');
    if (!SIGNATURE_ALGORITHMS.includes(query.SigAlg))
      throw new Error(`Signature algorithm not accepted: ${query.SigAlg}`);
    const saml = this.saml(idp, requestId);
    await saml.checkRedirectSignature(query, rawQuery);
    await saml.validateRedirectAsync(query, rawQuery);
  }

  /**
   * The provider's single logout URL with our signed LogoutResponse (HTTP-Redirect) to its
   * LogoutRequest `inResponseTo`: Success, or (no session of ours matched) UnknownPrincipal.
   */
  logoutResponseUrl(idp: SpidIdp, inResponseTo: string, success: boolean, relayState: string) {
    const profile = { issuer: idp.entityId, nameID: '', nameIDFormat: TRANSIENT, ID: inResponseTo };
    return this.saml(idp, `_${randomBytes(20).toString('hex')}`).getLogoutResponseUrlAsync(
      profile,
      relayState,
      {},
      success,
    );
  }

  /** The Response's envelope, or null when it is not a SAML Response at all. */
  envelope(samlResponse: string): ResponseEnvelope | null {
    let doc: Document;
    try {
      const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
      doc = new DOMParser({
        errorHandler: {
          error: (m: string) => {
            throw new Error(m);
          },
          fatalError: (m: string) => {
            throw new Error(m);
          },
        },
      }).parseFromString(xml, 'text/xml') as unknown as Document;
    } catch {
      return null;
    }
    const root = doc?.documentElement;
    if (!root || root.localName !== 'Response' || root.namespaceURI !== SAML_P) return null;
    const issuer = Array.from(root.childNodes).find(
      (n): n is Element => n.nodeType === 1 && (n as Element).localName === 'Issuer',
    );
    const status = first(doc, SAML_P, 'StatusCode');
    return {
      inResponseTo: root.getAttribute('InResponseTo'),
      destination: root.getAttribute('Destination'),
      issuer: issuer?.textContent?.trim() ?? null,
      status: status?.getAttribute('Value') ?? null,
      statusMessage: first(doc, SAML_P, 'StatusMessage')?.textContent ?? null,
    };
  }

  /** Whether the envelope's status is a success. */
  static succeeded(envelope: ResponseEnvelope): boolean {
    return envelope.status === STATUS_SUCCESS;
  }

  /** Checks the Response (node-saml) as an answer to `requestId` from `idp`; throws what node-saml throws. */
  async verify(samlResponse: string, requestId: string, idp: SpidIdp): Promise<SpidAnswer> {
    const { profile } = await this.saml(idp, requestId).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    });
    if (!profile) throw new Error('No assertion in the SAML response');
    const assertion = new DOMParser().parseFromString(profile.getAssertionXml?.() ?? '', 'text/xml');
    const acr = first(assertion as unknown as Document, SAML_A, 'AuthnContextClassRef')?.textContent?.trim();
    const attributes: Record<string, string> = {};
    for (const [name, value] of Object.entries((profile.attributes ?? {}) as Record<string, unknown>)) {
      const text = Array.isArray(value) ? value[0] : value;
      if (typeof text === 'string') attributes[name] = text.trim();
    }
    const claims: Record<string, unknown> = { ...attributes };
    for (const [claim, attribute] of [
      ['given_name', 'name'],
      ['family_name', 'familyName'],
      ['birthdate', 'dateOfBirth'],
      ['email', 'email'],
      ['phone_number', 'mobilePhone'],
    ] as const)
      if (attributes[attribute]) claims[claim] = attributes[attribute];
    // SPID's NameID is transient: the stable subject is the provider's spidCode (per provider).
    const stable = attributes.spidCode ?? attributes.fiscalNumber ?? profile.nameID;
    return {
      subject: `${idp.entityId}#${stable}`,
      acr: acr ?? null,
      claims,
      idpEntityId: idp.entityId,
      nameId: profile.nameID,
      nameIdFormat: profile.nameIDFormat ?? null,
      sessionIndex: profile.sessionIndex ?? null,
    };
  }
}
