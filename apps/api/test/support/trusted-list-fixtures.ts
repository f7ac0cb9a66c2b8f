/**
 * Test-only ETSI TS 119 612 trusted list: made here, signed by a test list operator with xml-crypto
 * (enveloped, exclusive c14n, RSA-SHA256), written to a temporary folder as the development
 * configuration reads it (TRUSTED_LIST_FILE + TRUSTED_LIST_SIGNER_CERTS). Nothing from the internet.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webcrypto } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { createTestCa, type TestCa } from './signing-fixtures.ts';

const STATUS = 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/';
export const CA_QC = 'http://uri.etsi.org/TrstSvc/Svctype/CA/QC';
export const CA_PKC = 'http://uri.etsi.org/TrstSvc/Svctype/CA/PKC';
export const TSA_QTST = 'http://uri.etsi.org/TrstSvc/Svctype/TSA/QTST';

export interface ListOperator {
  ca: TestCa;
  certificatePem: string;
  privateKeyPem: string;
}

export interface TestTrustService {
  ca: TestCa;
  name: string;
  provider?: string;
  /** Default CA/QC. */
  type?: string;
  /** Newest first; the first is the current status. Default: granted since 2016-07-01. */
  history?: { status: 'granted' | 'withdrawn' | 'accredited' | 'recognisedatnationallevel'; from: Date }[];
}

function pem(label: string, der: Uint8Array): string {
  const body = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function createListOperator(
  name = 'Operatore della lista di fiducia di test',
): Promise<ListOperator> {
  const ca = await createTestCa({ name });
  const pkcs8 = new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', ca.privateKey));
  return { ca, certificatePem: pem('CERTIFICATE', ca.der), privateKeyPem: pem('PRIVATE KEY', pkcs8) };
}

function serviceXml(service: TestTrustService): string {
  const [current, ...past] = service.history ?? [
    { status: 'granted' as const, from: new Date('2016-07-01T00:00:00Z') },
  ];
  const identity = `<ServiceDigitalIdentity><DigitalId><X509Certificate>${Buffer.from(service.ca.der).toString('base64')}</X509Certificate></DigitalId></ServiceDigitalIdentity>`;
  const type = service.type ?? CA_QC;
  const history = past
    .map(
      (period) =>
        `<ServiceHistoryInstance><ServiceTypeIdentifier>${type}</ServiceTypeIdentifier><ServiceName><Name xml:lang="it">${escape(service.name)}</Name></ServiceName>` +
        `${identity}<ServiceStatus>${STATUS}${period.status}</ServiceStatus><StatusStartingTime>${period.from.toISOString()}</StatusStartingTime></ServiceHistoryInstance>`,
    )
    .join('');
  return (
    `<TSPService><ServiceInformation><ServiceTypeIdentifier>${type}</ServiceTypeIdentifier>` +
    `<ServiceName><Name xml:lang="en">${escape(service.name)} (EN)</Name><Name xml:lang="it">${escape(service.name)}</Name></ServiceName>${identity}` +
    `<ServiceStatus>${STATUS}${current!.status}</ServiceStatus><StatusStartingTime>${current!.from.toISOString()}</StatusStartingTime></ServiceInformation>` +
    (history ? `<ServiceHistory>${history}</ServiceHistory>` : '') +
    `</TSPService>`
  );
}

/** The unsigned list XML. */
export function trustedListXml(
  services: TestTrustService[],
  options: { sequenceNumber?: number; issuedAt?: Date } = {},
): string {
  const issuedAt = options.issuedAt ?? new Date('2026-01-01T00:00:00Z');
  const providers = new Map<string, TestTrustService[]>();
  for (const service of services) {
    const provider = service.provider ?? 'Prestatore qualificato di test S.p.A.';
    providers.set(provider, [...(providers.get(provider) ?? []), service]);
  }
  const tsps = [...providers]
    .map(
      ([provider, items]) =>
        `<TrustServiceProvider><TSPInformation><TSPName><Name xml:lang="it">${escape(provider)}</Name></TSPName></TSPInformation>` +
        `<TSPServices>${items.map(serviceXml).join('')}</TSPServices></TrustServiceProvider>`,
    )
    .join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<TrustServiceStatusList xmlns="http://uri.etsi.org/02231/v2#" Id="TrustServiceStatusList" TSLTag="http://uri.etsi.org/19612/TSLTag">` +
    `<SchemeInformation><TSLVersionIdentifier>5</TSLVersionIdentifier><TSLSequenceNumber>${options.sequenceNumber ?? 1}</TSLSequenceNumber>` +
    `<TSLType>http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric</TSLType>` +
    `<SchemeOperatorName><Name xml:lang="it">Operatore di test della lista di fiducia</Name></SchemeOperatorName>` +
    `<SchemeTerritory>IT</SchemeTerritory><ListIssueDateTime>${issuedAt.toISOString()}</ListIssueDateTime>` +
    `<NextUpdate><dateTime>${new Date(issuedAt.getTime() + 180 * 86_400_000).toISOString()}</dateTime></NextUpdate></SchemeInformation>` +
    `<TrustServiceProviderList>${tsps}</TrustServiceProviderList></TrustServiceStatusList>`
  );
}

/** Signs a list XML as its operator (enveloped signature over the whole document). */
export function signTrustedList(xml: string, operator: ListOperator): string {
  return signWholeDocument(xml, operator);
}

/**
 * One enveloped signature over a whole document (reference URI ""), appended to the root: how the
 * ETSI trusted lists and AgID's SPID metadata registry are signed.
 */
export function signWholeDocument(
  xml: string,
  keys: { privateKeyPem: string; certificatePem: string },
): string {
  const signature = new SignedXml({
    privateKey: keys.privateKeyPem,
    publicCert: keys.certificatePem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signature.addReference({
    xpath: '/*',
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
    isEmptyUri: true,
  });
  signature.computeSignature(xml, { location: { reference: '/*', action: 'append' } });
  return signature.getSignedXml();
}

export interface TrustedListFiles {
  dir: string;
  file: string;
  signerCertificates: string;
  /** The environment of a test app that uses this list. */
  env: Record<string, string>;
}

/** Writes a signed list and its operator's certificate where TRUSTED_LIST_FILE / _SIGNER_CERTS point. */
export function writeTrustedList(signedXml: string, operator: ListOperator): TrustedListFiles {
  const dir = mkdtempSync(join(tmpdir(), 'portale-tsl-'));
  const file = join(dir, 'trusted-list.xml');
  const signerCertificates = join(dir, 'list-operator.pem');
  writeFileSync(file, signedXml);
  writeFileSync(signerCertificates, operator.certificatePem);
  return {
    dir,
    file,
    signerCertificates,
    env: { TRUSTED_LIST_FILE: file, TRUSTED_LIST_SIGNER_CERTS: signerCertificates },
  };
}
