/**
 * An ETSI TS 119 612 trusted list (the list AgID publishes; the EU list of lists points to it): its
 * XML signature is verified with xml-crypto against the list operator's certificates the operator of
 * the portal configured, and only the XML that signature covers is read (never nodes of the document
 * as received: no signature-wrapping). What is kept: the qualified CA services (CA/QC) and the
 * qualified time-stamping services (TSA/QTST), each with its certificates and the history of its
 * status, so the status in force at any time can be told.
 *
 * Canonicalisation and the signature are xml-crypto's; the DOM is @xmldom/xmldom; queries are xpath.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import {
  EnvelopedSignatureError,
  verifiedWholeDocument,
  type EnvelopedSignatureFault,
} from '../../../lib/xml-signature.ts';

export const TSL_NS = 'http://uri.etsi.org/02231/v2#';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

export const SERVICE_TYPE = {
  qualifiedCa: 'http://uri.etsi.org/TrstSvc/Svctype/CA/QC',
  qualifiedTsa: 'http://uri.etsi.org/TrstSvc/Svctype/TSA/QTST',
} as const;

const STATUS_PREFIX = 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/';
/** Statuses under which a service is qualified: `granted` (eIDAS) and its pre-2016 equivalents. */
const QUALIFIED_STATUSES = new Set(
  ['granted', 'accredited', 'undersupervision'].map((s) => STATUS_PREFIX + s),
);

export interface ServiceStatusPeriod {
  /** The full ETSI status URI. */
  status: string;
  from: Date;
}

export interface TrustService {
  provider: string;
  name: string;
  type: string;
  /** DER of every certificate that identifies the service (current and past identities). */
  certificates: Uint8Array[];
  /** Newest first. */
  history: ServiceStatusPeriod[];
}

export interface TrustedList {
  territory: string;
  operator: string;
  sequenceNumber: number;
  issuedAt: Date;
  nextUpdate: Date | null;
  /** SHA-256 of the list as loaded (the evidence of which list was used). */
  sha256: string;
  /** Where it came from (file path or URL). */
  source: string;
  services: TrustService[];
}

export class TrustedListError extends Error {}

const select = xpath.useNamespaces({ tsl: TSL_NS, ds: DSIG_NS, xml: 'http://www.w3.org/XML/1998/namespace' });

function nodes(expression: string, context: Node): Node[] {
  const result = select(expression, context);
  return Array.isArray(result) ? (result as Node[]) : [];
}

function text(expression: string, context: Node): string {
  const [node] = nodes(expression, context);
  return (node?.textContent ?? '').trim();
}

/** The Italian name when there is one, else English, else the first. */
function localName(expression: string, context: Node): string {
  for (const lang of ['it', 'en']) {
    const name = text(`${expression}/tsl:Name[@xml:lang='${lang}']`, context);
    if (name) return name;
  }
  return text(`${expression}/tsl:Name`, context);
}

function date(value: string, what: string): Date {
  const parsed = new Date(value);
  if (!value || Number.isNaN(parsed.getTime())) throw new TrustedListError(`Invalid ${what}: "${value}"`);
  return parsed;
}

function parseXml(xml: string): Document {
  const errors: string[] = [];
  const document = new DOMParser({
    errorHandler: (level: string, message: unknown) => {
      if (level !== 'warning') errors.push(String(message));
    },
  }).parseFromString(xml, 'text/xml');
  if (errors.length > 0 || !document?.documentElement)
    throw new TrustedListError(`The trusted list is not well-formed XML: ${errors[0] ?? 'empty'}`);
  return document as unknown as Document;
}

/** PEM blocks of a file with one or more certificates, each checked to be an X.509 certificate. */
export function splitPemCertificates(pem: string): string[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  for (const block of blocks) new X509Certificate(block);
  return blocks;
}

/**
 * Verifies the list's enveloped XML signature with one of `signerCertificatesPem` (the list operator's
 * certificates, as published in the Official Journal / the list of lists) and returns the signed XML.
 */
function verifiedListXml(xml: string, signerCertificatesPem: string[]): string {
  const document = parseXml(xml);
  const root = document.documentElement;
  if (root.localName !== 'TrustServiceStatusList' || root.namespaceURI !== TSL_NS)
    throw new TrustedListError('Not an ETSI TS 119 612 trusted list');
  try {
    return verifiedWholeDocument(xml, root, signerCertificatesPem, 'Id');
  } catch (error) {
    if (error instanceof EnvelopedSignatureError)
      throw new TrustedListError(LIST_SIGNATURE_FAULTS[error.fault]);
    throw error;
  }
}

const LIST_SIGNATURE_FAULTS: Record<EnvelopedSignatureFault, string> = {
  signature_count: 'The trusted list must carry exactly one enveloped signature',
  no_certificate: 'No trusted-list signer certificate is configured',
  not_verified: 'The trusted list signature does not verify with any configured signer certificate',
  not_whole_document: 'The trusted list signature does not cover the whole list',
};

function serviceCertificates(context: Node): Uint8Array[] {
  return nodes('tsl:ServiceDigitalIdentity/tsl:DigitalId/tsl:X509Certificate', context).map((node) => {
    const der = new Uint8Array(Buffer.from((node.textContent ?? '').replace(/\s+/g, ''), 'base64'));
    new X509Certificate(der); // throws for anything that is not a certificate
    return der;
  });
}

/** Parses and verifies a trusted list; throws TrustedListError (never returns an unverified list). */
export function loadTrustedList(xml: string, signerCertificatesPem: string[], source: string): TrustedList {
  const signed = parseXml(verifiedListXml(xml, signerCertificatesPem));
  const list = signed.documentElement;
  const scheme = nodes('tsl:SchemeInformation', list)[0];
  if (!scheme) throw new TrustedListError('The trusted list has no SchemeInformation');
  const services: TrustService[] = [];
  for (const provider of nodes('tsl:TrustServiceProviderList/tsl:TrustServiceProvider', list)) {
    const providerName = localName('tsl:TSPInformation/tsl:TSPName', provider);
    for (const service of nodes('tsl:TSPServices/tsl:TSPService', provider)) {
      const info = nodes('tsl:ServiceInformation', service)[0];
      if (!info) continue;
      const type = text('tsl:ServiceTypeIdentifier', info);
      if (type !== SERVICE_TYPE.qualifiedCa && type !== SERVICE_TYPE.qualifiedTsa) continue;
      const history: ServiceStatusPeriod[] = [
        {
          status: text('tsl:ServiceStatus', info),
          from: date(text('tsl:StatusStartingTime', info), 'StatusStartingTime'),
        },
      ];
      const certificates = serviceCertificates(info);
      for (const past of nodes('tsl:ServiceHistory/tsl:ServiceHistoryInstance', service)) {
        history.push({
          status: text('tsl:ServiceStatus', past),
          from: date(text('tsl:StatusStartingTime', past), 'StatusStartingTime'),
        });
        certificates.push(...serviceCertificates(past));
      }
      history.sort((a, b) => b.from.getTime() - a.from.getTime());
      services.push({
        provider: providerName,
        name: localName('tsl:ServiceName', info),
        type,
        certificates,
        history,
      });
    }
  }
  const nextUpdate = text('tsl:NextUpdate/tsl:dateTime', scheme);
  return {
    territory: text('tsl:SchemeTerritory', scheme),
    operator: localName('tsl:SchemeOperatorName', scheme),
    sequenceNumber: Number(text('tsl:TSLSequenceNumber', scheme)) || 0,
    issuedAt: date(text('tsl:ListIssueDateTime', scheme), 'ListIssueDateTime'),
    nextUpdate: nextUpdate ? date(nextUpdate, 'NextUpdate') : null,
    sha256: createHash('sha256').update(xml).digest('hex'),
    source,
    services,
  };
}

/** The status of a service in force at `at` (the newest period that started by then), or null before its first. */
export function statusAt(service: TrustService, at: Date): ServiceStatusPeriod | null {
  return service.history.find((period) => period.from.getTime() <= at.getTime()) ?? null;
}

export function isQualifiedStatus(status: string): boolean {
  return QUALIFIED_STATUSES.has(status);
}

/** The short name of a status URI ("granted", "withdrawn", …). */
export function statusName(status: string): string {
  return status.startsWith(STATUS_PREFIX) ? status.slice(STATUS_PREFIX.length) : status;
}
