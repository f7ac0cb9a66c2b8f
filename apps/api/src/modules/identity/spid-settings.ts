import { readFileSync } from 'node:fs';
import { DOMParser } from '@xmldom/xmldom';
import type { Env } from '../../env.ts';
import { verifiedMetadata } from './spid-metadata-trust.ts';

import { BINDING_REDIRECT, SAML_MD, XMLDSIG } from './saml-names.ts';

export { BINDING_POST, BINDING_REDIRECT, SAML_MD, XMLDSIG } from './saml-names.ts';

/** Our service provider as the environment configures it (decision 052), or null without SPID. */
export interface SpidSettings {
  entityId: string;
  /** Assertion consumer service (HTTP-POST), single logout service, metadata: under the API's base URL. */
  acsUrl: string;
  sloUrl: string;
  metadataUrl: string;
  privateKey: string;
  certificate: string;
  /** Files or URLs of the identity providers' metadata. */
  idpSources: string[];
  /** AgID's certificate that must have signed every metadata document, or null (not checked). */
  metadataCertificate: string | null;
  /** How long a read of the metadata is used before they are read again. */
  metadataRefreshMs: number;
  organization: { name: string; url: string; ipaCode: string; email: string; phone: string | null };
  /** Plain http to a provider's metadata (a local test provider); never in production. */
  insecure: boolean;
}

const pemOrFile = (value: string) =>
  value.includes('-----BEGIN') ? value : readFileSync(value.trim(), 'utf8');

export function spidSettings(env: Env): SpidSettings | null {
  const { SPID_ENTITY_ID, SPID_BASE_URL, SPID_PRIVATE_KEY, SPID_CERTIFICATE, SPID_IDP_METADATA } = env;
  if (!SPID_ENTITY_ID || !SPID_BASE_URL || !SPID_PRIVATE_KEY || !SPID_CERTIFICATE || !SPID_IDP_METADATA)
    return null;
  const base = SPID_BASE_URL.replace(/\/$/, '');
  return {
    entityId: SPID_ENTITY_ID,
    acsUrl: `${base}/api/auth/spid/acs`,
    sloUrl: `${base}/api/auth/spid/logout`,
    metadataUrl: `${base}/api/auth/spid/metadata`,
    privateKey: pemOrFile(SPID_PRIVATE_KEY),
    certificate: pemOrFile(SPID_CERTIFICATE),
    idpSources: SPID_IDP_METADATA.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    metadataCertificate: env.SPID_METADATA_SIGNING_CERT ? pemOrFile(env.SPID_METADATA_SIGNING_CERT) : null,
    metadataRefreshMs: env.SPID_METADATA_REFRESH_HOURS * 3_600_000,
    organization: {
      name: env.SPID_ORGANIZATION_NAME,
      url: env.SPID_ORGANIZATION_URL,
      ipaCode: env.SPID_IPA_CODE,
      email: env.SPID_CONTACT_EMAIL,
      phone: env.SPID_CONTACT_PHONE ?? null,
    },
    insecure: env.NODE_ENV !== 'production',
  };
}

/** One SPID identity provider as its metadata describes it. */
export interface SpidIdp {
  entityId: string;
  name: string;
  /** Single sign-on service, HTTP-Redirect binding (where the signed AuthnRequest goes). */
  ssoUrl: string;
  /** Single logout service, HTTP-Redirect binding, when the provider offers one. */
  sloUrl: string | null;
  /** Its signing certificates (base64 DER, as in the metadata). */
  certificates: string[];
}

const children = (parent: Element, local: string): Element[] =>
  Array.from(parent.getElementsByTagNameNS(SAML_MD, local) as unknown as Iterable<Element>);

const redirectLocation = (parent: Element, local: string) =>
  children(parent, local)
    .find((e) => e.getAttribute('Binding') === BINDING_REDIRECT)
    ?.getAttribute('Location') ?? null;

/** The identity providers of a metadata document (one EntityDescriptor, or an EntitiesDescriptor of many). */
export function parseIdpMetadata(xml: string): SpidIdp[] {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const root = doc.documentElement;
  if (!root) return [];
  const entities =
    root.localName === 'EntityDescriptor' ? [root] : children(root as unknown as Element, 'EntityDescriptor');
  const idps: SpidIdp[] = [];
  for (const entity of entities as Element[]) {
    const [descriptor] = children(entity, 'IDPSSODescriptor');
    const entityId = entity.getAttribute('entityID');
    const ssoUrl = descriptor ? redirectLocation(descriptor, 'SingleSignOnService') : null;
    if (!descriptor || !entityId || !ssoUrl) continue;
    const certificates = children(descriptor, 'KeyDescriptor')
      .filter((k) => (k.getAttribute('use') ?? 'signing') === 'signing')
      .flatMap((k) =>
        Array.from(k.getElementsByTagNameNS(XMLDSIG, 'X509Certificate') as unknown as Iterable<Element>),
      )
      .map((c) => (c.textContent ?? '').replace(/\s+/g, ''))
      .filter(Boolean);
    if (certificates.length === 0) continue;
    const [display] = children(entity, 'OrganizationDisplayName');
    idps.push({
      entityId,
      name: display?.textContent?.trim() || entityId,
      ssoUrl,
      sloUrl: redirectLocation(descriptor, 'SingleLogoutService'),
      certificates,
    });
  }
  return idps;
}

/** A read of the providers' metadata: when, and until when its documents say they hold. */
interface MetadataRead {
  idps: SpidIdp[];
  at: number;
  validUntil: number;
}

/** After a failed refresh, the last good read is used and the metadata are tried again this much later. */
const RETRY_AFTER_FAILURE_MS = 5 * 60_000;

/**
 * The configured identity providers, from their metadata files or URLs (plain http only outside
 * production), each document verified against AgID's certificate when one is configured. The first
 * read is awaited (a failure is tried again at the next call); later reads happen in the background
 * after `metadataRefreshMs`, and a failed one keeps the last good read — until its `validUntil`.
 */
export class SpidIdpRegistry {
  private current: MetadataRead | undefined;
  private reading: Promise<MetadataRead> | undefined;
  private readonly now: () => Date;
  private readonly onRefreshFailure: (error: unknown) => void;

  constructor(
    private readonly settings: SpidSettings,
    options: { now?: () => Date; onRefreshFailure?: (error: unknown) => void } = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.onRefreshFailure = options.onRefreshFailure ?? (() => {});
  }

  private async fetchSource(source: string): Promise<string> {
    if (!/^https?:\/\//.test(source)) return readFileSync(source, 'utf8');
    if (source.startsWith('http:') && !this.settings.insecure)
      throw new Error(`SPID metadata over plain http refused: ${source}`);
    const response = await fetch(source, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`SPID metadata ${source}: HTTP ${response.status}`);
    return response.text();
  }

  private async load(): Promise<MetadataRead> {
    const now = this.now();
    const certificate = this.settings.metadataCertificate;
    let validUntil = Infinity;
    const idps: SpidIdp[] = [];
    for (const xml of await Promise.all(this.settings.idpSources.map((s) => this.fetchSource(s)))) {
      const trusted = certificate ? verifiedMetadata(xml, certificate, now) : xml;
      const until = Date.parse(
        /\bvalidUntil="([^"]+)"/.exec(trusted.slice(0, trusted.indexOf('>')))?.[1] ?? '',
      );
      if (until < validUntil) validUntil = until;
      idps.push(...parseIdpMetadata(trusted));
    }
    this.current = { idps, at: now.getTime(), validUntil };
    return this.current;
  }

  private read(): Promise<MetadataRead> {
    this.reading ??= this.load().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  async list(): Promise<SpidIdp[]> {
    const now = this.now().getTime();
    // A read past its documents' validUntil is not used any more: read again, or fail.
    if (!this.current || !(now < this.current.validUntil)) return (await this.read()).idps;
    if (now - this.current.at >= this.settings.metadataRefreshMs) {
      const stale = this.current;
      this.read().catch((error: unknown) => {
        stale.at = now - this.settings.metadataRefreshMs + RETRY_AFTER_FAILURE_MS;
        this.onRefreshFailure(error);
      });
    }
    return this.current.idps;
  }

  /** The providers as the button's chooser lists them. */
  async choices(): Promise<{ id: string; name: string }[]> {
    return (await this.list()).map((idp) => ({ id: idp.entityId, name: idp.name }));
  }

  async find(entityId: string): Promise<SpidIdp | undefined> {
    return (await this.list()).find((idp) => idp.entityId === entityId);
  }
}
