/**
 * Test-only PKI: a throw-away certification authority, signer certificates carrying an Italian
 * codice fiscale, and CAdES (.p7m, attached) / PAdES (.pdf, incremental update) signatures made with
 * pkijs over WebCrypto keys. Nothing here is trusted by production code: the verifier checks the
 * signature with the certificate embedded in the CMS, so these fixtures exercise it end to end.
 */
import { createHash, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import { AsnConvert } from '@peculiar/asn1-schema';
import { QCStatement, QCStatements } from '@peculiar/asn1-x509-qualified';
import { PDFArray, PDFDocument, PDFName, PDFRef, type PDFDict } from 'pdf-lib';
import * as pkijs from 'pkijs';

type WebCryptoKey = webcrypto.CryptoKey;
type PkijsKey = Parameters<pkijs.Certificate['sign']>[0];

type EngineCrypto = ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'];

const engine = new pkijs.CryptoEngine({
  name: 'node-webcrypto',
  crypto: webcrypto as unknown as EngineCrypto,
});

const OID = {
  commonName: '2.5.4.3',
  surname: '2.5.4.4',
  serialNumber: '2.5.4.5',
  country: '2.5.4.6',
  organization: '2.5.4.10',
  givenName: '2.5.4.42',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  extendedKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  timeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
} as const;

export type KeyAlgorithm = 'RSASSA-PKCS1-v1_5' | 'ECDSA';

export interface TestCa {
  certificate: pkijs.Certificate;
  privateKey: WebCryptoKey;
  /** DER of the CA certificate. */
  der: Uint8Array;
}

export interface TestSigner {
  certificate: pkijs.Certificate;
  privateKey: WebCryptoKey;
  /** DER of the signer certificate. */
  der: Uint8Array;
  name: string;
  taxCode: string;
  notBefore: Date;
  notAfter: Date;
}

export interface IssueSignerOptions {
  /** Codice fiscale: written as `TINIT-<taxCode>` in the subject serialNumber (see `serialNumberValue`). */
  taxCode: string;
  /** Written as the subject CN; first word also as givenName, the rest as surname. */
  name: string;
  notBefore?: Date;
  notAfter?: Date;
  /** Overrides the subject serialNumber value (e.g. the bare code); `null` omits the attribute. */
  serialNumberValue?: string | null;
  /** Omit the CN (name then only in givenName + surname). */
  omitCommonName?: boolean;
  keyAlgorithm?: KeyAlgorithm;
  /** The ETSI qcStatements written (EN 319 412-5); default QcCompliance and QcSSCD; `[]` omits the extension. */
  qcStatements?: string[];
  /** A certificate signed with its own key, issuer = subject (no CA at all); `ca` is then ignored. */
  selfSigned?: boolean;
  /** A time-stamping unit's certificate (extended key usage id-kp-timeStamping, critical). */
  timeStamping?: boolean;
  /** The CA's OCSP responder (Authority Information Access) and CRL (distribution point). */
  ocspUrl?: string;
  crlUrl?: string;
}

export const QC_COMPLIANCE = '0.4.0.1862.1.1';
export const QC_SSCD = '0.4.0.1862.1.4';

export interface SignOptions {
  /** The CMS signingTime signed attribute; `null` (default for PAdES) omits it. CAdES default: now. */
  signingTime?: Date | null;
  /** PAdES: the signature dictionary's /SubFilter (default ETSI.CAdES.detached). */
  subFilter?: 'ETSI.CAdES.detached' | 'adbe.pkcs7.detached';
  /**
   * An RFC 3161 time-stamp token added as the signer's unsigned attribute, made by `tsa` (a certificate
   * issued with `timeStamping: true`) at `genTime`; `imprint` 'other' stamps some other bytes instead of
   * this signature (a token copied from elsewhere).
   */
  timestamp?: { tsa: TestSigner; genTime: Date; imprint?: 'signature' | 'other' };
}

let serialCounter = 0x1000;

function nextSerial(): asn1js.Integer {
  serialCounter += 1;
  const bytes = new Uint8Array(8);
  webcrypto.getRandomValues(bytes);
  bytes[0] = 0x10 | (bytes[0]! & 0x0f); // positive, no leading zero
  bytes[7] = serialCounter & 0xff;
  return new asn1js.Integer({ valueHex: bytes });
}

async function generateKeys(algorithm: KeyAlgorithm): Promise<webcrypto.CryptoKeyPair> {
  if (algorithm === 'ECDSA') {
    return webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  }
  return webcrypto.subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    true,
    ['sign', 'verify'],
  );
}

function attribute(type: string, value: pkijs.AttributeValueType): pkijs.AttributeTypeAndValue {
  return new pkijs.AttributeTypeAndValue({ type, value });
}

/** A distinguished name with one attribute per RDN (pkijs alone would build one multi-valued RDN). */
function distinguishedName(attributes: pkijs.AttributeTypeAndValue[]): pkijs.RelativeDistinguishedNames {
  const sequence = new asn1js.Sequence({
    value: attributes.map((item) => new asn1js.Set({ value: [item.toSchema()] })),
  });
  return pkijs.RelativeDistinguishedNames.fromBER(sequence.toBER(false));
}

function toDer(schemaOwner: { toSchema(): asn1js.AsnType }): Uint8Array {
  return new Uint8Array(schemaOwner.toSchema().toBER(false));
}

function time(date: Date): pkijs.Time {
  // UTCTime up to 2049, GeneralizedTime after (RFC 5280 §4.1.2.5).
  return new pkijs.Time({ type: date.getUTCFullYear() < 2050 ? 0 : 1, value: date });
}

/** A self-signed test certification authority (RSA 2048, SHA-256), valid 2000–2099. */
export async function createTestCa(options: { name?: string } = {}): Promise<TestCa> {
  const keys = await generateKeys('RSASSA-PKCS1-v1_5');
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = nextSerial();
  const name = [
    attribute(OID.country, new asn1js.PrintableString({ value: 'IT' })),
    attribute(OID.organization, new asn1js.Utf8String({ value: 'Portale Scuole Test' })),
    attribute(
      OID.commonName,
      new asn1js.Utf8String({ value: options.name ?? 'CA di test per la firma qualificata' }),
    ),
  ];
  certificate.issuer = distinguishedName(name);
  certificate.subject = distinguishedName(name);
  certificate.notBefore = time(new Date('2000-01-01T00:00:00Z'));
  certificate.notAfter = time(new Date('2099-12-31T23:59:59Z'));
  await certificate.subjectPublicKeyInfo.importKey(keys.publicKey as unknown as PkijsKey, engine);
  certificate.extensions = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: true }).toSchema().toBER(false),
      parsedValue: new pkijs.BasicConstraints({ cA: true }),
    }),
  ];
  await certificate.sign(keys.privateKey as unknown as PkijsKey, 'SHA-256', engine);
  return { certificate, privateKey: keys.privateKey, der: toDer(certificate) };
}

/**
 * A signer certificate issued by `ca` for a person with `taxCode`: subject C=IT, givenName, surname,
 * CN=name, serialNumber=TINIT-<taxCode>; keyUsage nonRepudiation (like a qualified signature certificate).
 * Default validity: one year back to four years ahead of now.
 */
export async function issueSignerCertificate(ca: TestCa, options: IssueSignerOptions): Promise<TestSigner> {
  const keys = await generateKeys(options.keyAlgorithm ?? 'RSASSA-PKCS1-v1_5');
  const now = Date.now();
  const notBefore = options.notBefore ?? new Date(now - 365 * 86_400_000);
  const notAfter = options.notAfter ?? new Date(now + 4 * 365 * 86_400_000);
  const [given = options.name, ...rest] = options.name.split(/\s+/);
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = nextSerial();
  const subject: pkijs.AttributeTypeAndValue[] = [
    attribute(OID.country, new asn1js.PrintableString({ value: 'IT' })),
    attribute(OID.givenName, new asn1js.Utf8String({ value: given })),
    attribute(OID.surname, new asn1js.Utf8String({ value: rest.join(' ') || given })),
  ];
  const serialValue =
    options.serialNumberValue === undefined ? `TINIT-${options.taxCode}` : options.serialNumberValue;
  if (serialValue !== null)
    subject.push(attribute(OID.serialNumber, new asn1js.PrintableString({ value: serialValue })));
  if (!options.omitCommonName)
    subject.push(attribute(OID.commonName, new asn1js.Utf8String({ value: options.name })));
  certificate.subject = distinguishedName(subject);
  certificate.issuer = options.selfSigned ? certificate.subject : ca.certificate.subject;
  certificate.notBefore = time(notBefore);
  certificate.notAfter = time(notAfter);
  await certificate.subjectPublicKeyInfo.importKey(keys.publicKey as unknown as PkijsKey, engine);
  const keyUsage = new asn1js.BitString({ valueHex: new Uint8Array([0x40]), unusedBits: 6 }); // nonRepudiation
  certificate.extensions = [
    new pkijs.Extension({ extnID: OID.keyUsage, critical: true, extnValue: keyUsage.toBER(false) }),
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: false,
      extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(false),
    }),
  ];
  if (options.ocspUrl) {
    const access = new pkijs.InfoAccess({
      accessDescriptions: [
        new pkijs.AccessDescription({
          accessMethod: '1.3.6.1.5.5.7.48.1',
          accessLocation: new pkijs.GeneralName({ type: 6, value: options.ocspUrl }),
        }),
      ],
    });
    certificate.extensions.push(
      new pkijs.Extension({
        extnID: '1.3.6.1.5.5.7.1.1',
        critical: false,
        extnValue: access.toSchema().toBER(false),
      }),
    );
  }
  if (options.crlUrl) {
    const points = new pkijs.CRLDistributionPoints({
      distributionPoints: [
        new pkijs.DistributionPoint({
          distributionPoint: [new pkijs.GeneralName({ type: 6, value: options.crlUrl })],
        }),
      ],
    });
    certificate.extensions.push(
      new pkijs.Extension({
        extnID: '2.5.29.31',
        critical: false,
        extnValue: points.toSchema().toBER(false),
      }),
    );
  }
  if (options.timeStamping) {
    const usage = new pkijs.ExtKeyUsage({ keyPurposes: [OID.timeStamping] });
    certificate.extensions.push(
      new pkijs.Extension({
        extnID: OID.extendedKeyUsage,
        critical: true,
        extnValue: usage.toSchema().toBER(false),
      }),
    );
  }
  const qcStatements = options.qcStatements ?? [QC_COMPLIANCE, QC_SSCD];
  if (qcStatements.length > 0) {
    const statements = new QCStatements(
      qcStatements.map((statementId) => {
        const statement = new QCStatement();
        statement.statementId = statementId;
        // No statementInfo (QcCompliance and QcSSCD have none): an undefined optional field is not written.
        Object.assign(statement, { statementInfo: undefined });
        return statement;
      }),
    );
    certificate.extensions.push(
      new pkijs.Extension({
        extnID: '1.3.6.1.5.5.7.1.3',
        critical: false,
        extnValue: AsnConvert.serialize(statements),
      }),
    );
  }
  await certificate.sign(
    (options.selfSigned ? keys.privateKey : ca.privateKey) as unknown as PkijsKey,
    'SHA-256',
    engine,
  );
  return {
    certificate,
    privateKey: keys.privateKey,
    der: toDer(certificate),
    name: options.name,
    taxCode: options.taxCode,
    notBefore,
    notAfter,
  };
}

function signedAttributes(digest: Uint8Array, signingTime: Date | null): pkijs.Attribute[] {
  const attributes = [
    new pkijs.Attribute({
      type: OID.contentType,
      values: [new asn1js.ObjectIdentifier({ value: OID.data })],
    }),
    new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: digest })] }),
  ];
  if (signingTime) {
    attributes.push(
      new pkijs.Attribute({
        type: OID.signingTime,
        values: [new asn1js.UTCTime({ valueDate: signingTime })],
      }),
    );
  }
  return attributes;
}

/** An RFC 3161 TimeStampToken (a SignedData over a TSTInfo) on `stamped`, by `tsa` at `genTime`. */
async function timeStampToken(stamped: Uint8Array, tsa: TestSigner, genTime: Date): Promise<asn1js.Sequence> {
  const info = new pkijs.TSTInfo({
    version: 1,
    policy: '1.3.6.1.4.1.4146.2.3',
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
      hashedMessage: new asn1js.OctetString({
        valueHex: new Uint8Array(createHash('sha256').update(stamped).digest()),
      }),
    }),
    serialNumber: nextSerial(),
    genTime,
  });
  const content = new Uint8Array(info.toSchema().toBER(false));
  const signedData = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: OID.tstInfo,
      eContent: new asn1js.OctetString({ valueHex: content }),
    }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({
          issuer: tsa.certificate.issuer,
          serialNumber: tsa.certificate.serialNumber,
        }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({
              type: OID.contentType,
              values: [new asn1js.ObjectIdentifier({ value: OID.tstInfo })],
            }),
            new pkijs.Attribute({
              type: OID.messageDigest,
              values: [
                new asn1js.OctetString({
                  valueHex: new Uint8Array(createHash('sha256').update(content).digest()),
                }),
              ],
            }),
          ],
        }),
      }),
    ],
    certificates: [tsa.certificate],
  });
  await signedData.sign(tsa.privateKey as unknown as PkijsKey, 0, 'SHA-256', undefined, engine);
  return new pkijs.ContentInfo({
    contentType: OID.signedData,
    content: signedData.toSchema(true),
  }).toSchema() as asn1js.Sequence;
}

/** A CMS SignedData over `content` (attached when `attach`), DER-encoded in a ContentInfo. */
async function signCms(
  content: Uint8Array,
  signer: TestSigner,
  signingTime: Date | null,
  attach: boolean,
  timestamp?: SignOptions['timestamp'],
): Promise<Uint8Array> {
  const digest = new Uint8Array(createHash('sha256').update(content).digest());
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: OID.data,
      ...(attach ? { eContent: new asn1js.OctetString({ valueHex: content }) } : {}),
    }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({
          issuer: signer.certificate.issuer,
          serialNumber: signer.certificate.serialNumber,
        }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: signedAttributes(digest, signingTime),
        }),
      }),
    ],
    certificates: [signer.certificate],
  });
  await signedData.sign(signer.privateKey as unknown as PkijsKey, 0, 'SHA-256', undefined, engine);
  if (timestamp) {
    const signerInfo = signedData.signerInfos[0]!;
    const signature = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
    const stamped = timestamp.imprint === 'other' ? new TextEncoder().encode('un’altra firma') : signature;
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [
        new pkijs.Attribute({
          type: OID.timeStampToken,
          values: [await timeStampToken(stamped, timestamp.tsa, timestamp.genTime)],
        }),
      ],
    });
  }
  const contentInfo = new pkijs.ContentInfo({
    contentType: OID.signedData,
    content: signedData.toSchema(true),
  });
  return new Uint8Array(contentInfo.toSchema().toBER(false));
}

/** CAdES-BES style enveloping signature (.p7m): DER ContentInfo with the PDF attached. */
export function signCades(
  pdfBytes: Uint8Array,
  signer: TestSigner,
  options: SignOptions = {},
): Promise<Uint8Array> {
  const signingTime = options.signingTime === undefined ? new Date() : options.signingTime;
  return signCms(pdfBytes, signer, signingTime, true, options.timestamp);
}

/** A detached CAdES (.p7s): the CMS signs `pdfBytes` without carrying them. */
export function signCadesDetached(
  pdfBytes: Uint8Array,
  signer: TestSigner,
  options: SignOptions = {},
): Promise<Uint8Array> {
  const signingTime = options.signingTime === undefined ? new Date() : options.signingTime;
  return signCms(pdfBytes, signer, signingTime, false, options.timestamp);
}

/** The same p7m as base64, optionally PEM-armoured (what some signing tools save). */
export function toBase64P7m(der: Uint8Array, pem = false): Uint8Array {
  const base64 = Buffer.from(der).toString('base64');
  if (!pem) return new TextEncoder().encode(base64);
  const lines = base64.match(/.{1,64}/g) ?? [];
  return new TextEncoder().encode(
    `-----BEGIN PKCS7-----\r\n${lines.join('\r\n')}\r\n-----END PKCS7-----\r\n`,
  );
}

const CONTENTS_PLACEHOLDER_BYTES = 16_384;
const BYTE_RANGE_PLACEHOLDER = '/ByteRange [0 ********** ********** **********]';

function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);
}

function pdfDate(date: Date): string {
  const iso = date.toISOString(); // 2026-01-31T10:20:30.000Z
  return `D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

function lastTrailerSize(bytes: Uint8Array): number {
  const sizes = [
    ...Buffer.from(bytes)
      .toString('latin1')
      .matchAll(/\/Size\s+(\d+)/g),
  ];
  return Number(sizes.at(-1)?.[1] ?? 0);
}

function lastStartXref(bytes: Uint8Array): number {
  const text = Buffer.from(bytes).toString('latin1');
  const at = text.lastIndexOf('startxref');
  const match = at >= 0 ? /^startxref\s+(\d+)/.exec(text.slice(at, at + 40)) : null;
  if (!match?.[1]) throw new Error('signPades: the PDF has no startxref');
  return Number(match[1]);
}

/**
 * PAdES signature as an incremental update of `pdfBytes` (which stay byte-identical at the start):
 * a new revision adds a signature dictionary (/Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached,
 * /ByteRange placeholder, /Contents zero-filled hex), an invisible signature widget on page 1,
 * the updated catalog (/AcroForm /SigFlags 3) and page (/Annots), an xref section and a trailer with
 * /Prev. Then /ByteRange is filled and the detached CMS over both ranges is written into /Contents.
 */
export async function signPades(
  pdfBytes: Uint8Array,
  signer: TestSigner,
  options: SignOptions = {},
): Promise<Uint8Array> {
  const signingTime = options.signingTime === undefined ? null : options.signingTime;
  const document = await PDFDocument.load(pdfBytes, { updateMetadata: false });
  const context = document.context;
  const rootRef = context.trailerInfo.Root;
  if (!(rootRef instanceof PDFRef)) throw new Error('signPades: the trailer has no /Root reference');
  const page = document.getPage(0);
  // The previous /Size also counts objects pdf-lib does not keep (its own cross-reference stream).
  const sigNumber = Math.max(context.largestObjectNumber + 1, lastTrailerSize(pdfBytes));
  const widgetNumber = sigNumber + 1;
  const widgetRef = PDFRef.of(widgetNumber);

  const catalog = document.catalog as PDFDict;
  catalog.set(PDFName.of('AcroForm'), context.obj({ Fields: [widgetRef], SigFlags: 3 }));
  const existingAnnots = page.node.lookup(PDFName.of('Annots'));
  const annots = existingAnnots instanceof PDFArray ? existingAnnots : context.obj([]);
  annots.push(widgetRef);
  page.node.set(PDFName.of('Annots'), annots);

  const sigDict =
    `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /${options.subFilter ?? 'ETSI.CAdES.detached'} ${BYTE_RANGE_PLACEHOLDER} ` +
    `/Contents <${'0'.repeat(CONTENTS_PLACEHOLDER_BYTES * 2)}> /M (${pdfDate(signingTime ?? new Date())}) ` +
    `/Name (${signer.name.replace(/[()\\]/g, '')}) >>`;
  const widget =
    `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Firma1) /V ${sigNumber} 0 R /F 132 /Rect [0 0 0 0] ` +
    `/P ${page.ref.objectNumber} ${page.ref.generationNumber} R >>`;
  const objects: { ref: PDFRef; body: string }[] = [
    { ref: rootRef, body: catalog.toString() },
    { ref: page.ref, body: page.node.toString() },
    { ref: PDFRef.of(sigNumber), body: sigDict },
    { ref: widgetRef, body: widget },
  ];

  const prefix = pdfBytes[pdfBytes.length - 1] === 0x0a ? '' : '\n';
  let update = prefix;
  const offsets = new Map<number, { offset: number; generation: number }>();
  for (const object of objects) {
    offsets.set(object.ref.objectNumber, {
      offset: pdfBytes.length + update.length,
      generation: object.ref.generationNumber,
    });
    update += `${object.ref.objectNumber} ${object.ref.generationNumber} obj\n${object.body}\nendobj\n`;
  }
  const xrefOffset = pdfBytes.length + update.length;
  update += 'xref\n0 1\n0000000000 65535 f \n';
  for (const [number, entry] of [...offsets.entries()].sort(([a], [b]) => a - b)) {
    update += `${number} 1\n${String(entry.offset).padStart(10, '0')} ${String(entry.generation).padStart(5, '0')} n \n`;
  }
  const info =
    context.trailerInfo.Info instanceof PDFRef ? ` /Info ${context.trailerInfo.Info.toString()}` : '';
  update +=
    `trailer\n<< /Size ${widgetNumber + 1} /Root ${rootRef.toString()}${info} ` +
    `/Prev ${lastStartXref(pdfBytes)} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;

  const signed = new Uint8Array(pdfBytes.length + update.length);
  signed.set(pdfBytes, 0);
  signed.set(latin1(update), pdfBytes.length);

  const text = Buffer.from(signed).toString('latin1');
  const byteRangeAt = text.lastIndexOf(BYTE_RANGE_PLACEHOLDER);
  const contentsStart = text.indexOf('/Contents <', byteRangeAt) + '/Contents '.length; // at '<'
  const contentsEnd = contentsStart + CONTENTS_PLACEHOLDER_BYTES * 2 + 2; // after '>'
  const byteRange = `/ByteRange [0 ${contentsStart} ${contentsEnd} ${signed.length - contentsEnd}]`;
  signed.set(latin1(byteRange.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' ')), byteRangeAt);

  const covered = new Uint8Array(contentsStart + signed.length - contentsEnd);
  covered.set(signed.subarray(0, contentsStart), 0);
  covered.set(signed.subarray(contentsEnd), contentsStart);
  const cms = await signCms(covered, signer, signingTime, false, options.timestamp);
  if (cms.length > CONTENTS_PLACEHOLDER_BYTES)
    throw new Error('signPades: the CMS does not fit the /Contents placeholder');
  signed.set(latin1(Buffer.from(cms).toString('hex').toUpperCase()), contentsStart + 1);
  return signed;
}

/** A small one-page PDF (the "generated adhesion document" of the tests), different per `title`. */
export async function makeTestPdf(title = 'Documento di adesione'): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setTitle(title);
  document.setCreationDate(new Date('2026-01-15T09:00:00Z'));
  document.setModificationDate(new Date('2026-01-15T09:00:00Z'));
  const page = document.addPage([595, 842]);
  page.drawText(title, { x: 72, y: 760, size: 16 });
  page.drawText('Il dirigente scolastico aderisce al progetto.', { x: 72, y: 730, size: 11 });
  return document.save();
}
