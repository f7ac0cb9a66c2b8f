import { readFileSync } from 'node:fs';
import { DOMParser } from '@xmldom/xmldom';
import type { Env } from '../../env.ts';

export const SAML_MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
export const XMLDSIG = 'http://www.w3.org/2000/09/xmldsig#';
export const BINDING_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const BINDING_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

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

/**
 * The configured identity providers, read once from their metadata files or URLs (a failed read is
 * tried again at the next call). Plain http only outside production.
 */
export class SpidIdpRegistry {
  private loaded: Promise<SpidIdp[]> | undefined;

  constructor(private readonly settings: SpidSettings) {}

  private async read(source: string): Promise<string> {
    if (!/^https?:\/\//.test(source)) return readFileSync(source, 'utf8');
    if (source.startsWith('http:') && !this.settings.insecure)
      throw new Error(`SPID metadata over plain http refused: ${source}`);
    const response = await fetch(source, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`SPID metadata ${source}: HTTP ${response.status}`);
    return response.text();
  }

  private async load(): Promise<SpidIdp[]> {
    const documents = await Promise.all(this.settings.idpSources.map((s) => this.read(s)));
    return documents.flatMap(parseIdpMetadata);
  }

  list(): Promise<SpidIdp[]> {
    this.loaded ??= this.load().catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  /** The providers as the button's chooser lists them. */
  async choices(): Promise<{ id: string; name: string }[]> {
    return (await this.list()).map((idp) => ({ id: idp.entityId, name: idp.name }));
  }

  async find(entityId: string): Promise<SpidIdp | undefined> {
    return (await this.list()).find((idp) => idp.entityId === entityId);
  }
}
