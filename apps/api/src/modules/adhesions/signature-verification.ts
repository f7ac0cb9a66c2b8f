/**
 * Verification of an uploaded, digitally signed formal-adhesion document (issue 9, scope 4).
 *
 * Two formats are accepted:
 * - CAdES (.p7m, enveloping): a CMS SignedData with the PDF attached, DER or base64 (optionally PEM).
 * - PAdES (.pdf): the generated PDF plus an incremental update carrying a signature dictionary whose
 *   /ByteRange covers the whole file except the /Contents hex string, which holds a detached CMS.
 *
 * The CMS (parsing, signed attributes incl. messageDigest, signature) is handled by pkijs/asn1js;
 * only the PDF syntax around it (/ByteRange, /Contents) is located here at byte level.
 * Then the signature must be qualified (issue 33, decision 032): the certificate chains to a
 * qualified CA service of the verified ETSI trusted list, granted at the trusted time, and carries
 * QcCompliance and QcSSCD. The trusted time is the server's receipt time; a declared signingTime
 * before the document was generated or after the receipt is refused, never relied on.
 * The issuing CA is asked whether the certificate was revoked (OCSP, then CRL; trust/revocation.ts).
 * Not yet verified: RFC 3161 time-stamps (README, "Firma digitale: cosa viene verificato").
 * Never throws for bad input: every failure is a result.
 */
import { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { SignatureVerificationReport } from '@portale/shared/adhesions';
import { FILE_SIGNATURES, hasSignature } from '../../plugins/uploads.ts';
import { checkTimestamp, timestampTokenOf } from './trust/timestamp.ts';
import { checkQualifiedCertificate, type QualifiedFailure } from './trust/qualified-certificate.ts';
import type { RevocationChecker } from './trust/revocation.ts';
import type { TrustedList } from './trust/trusted-list.ts';
import {
  bytesEqual,
  distinguishedName,
  exactArrayBuffer,
  OID,
  signerNameOf,
  taxCodeOfCertificate,
} from './certificate-subject.ts';
import { failureMessage } from './signature-messages.ts';

export type SignatureFailure =
  | 'unsupported_format'
  | 'not_signed'
  | 'signature_invalid'
  | 'document_mismatch'
  | 'signer_mismatch'
  | 'signing_time_untrusted'
  | 'trust_list_unavailable'
  | 'certificate_revoked'
  | 'revocation_unavailable'
  | QualifiedFailure;

export type VerificationReport = SignatureVerificationReport;

/**
 * What the file is: PAdES with SubFilter ETSI.CAdES.detached (PAdES baseline), a PDF signed with
 * SubFilter adbe.pkcs7.detached (PKCS#7, not PAdES baseline), CAdES with the document inside (.p7m),
 * or CAdES detached (.p7s, over the portal's own document).
 */
export type SignatureFormatDetail =
  'pades-baseline' | 'pdf-pkcs7-detached' | 'cades-attached' | 'cades-detached';

export type SignatureCheck =
  | {
      ok: true;
      format: 'pades' | 'cades';
      formatDetail: SignatureFormatDetail;
      signerName: string;
      signerTaxCode: string | null;
      /** The trusted time (see the report): the signature existed then. */
      signedAt: Date;
      certificate: { subject: string; issuer: string; serialNumber: string; notBefore: Date; notAfter: Date };
      report: VerificationReport;
    }
  | { ok: false; code: SignatureFailure; message: string /* plain Italian for the principal */ };

export const SIGNED_UPLOAD_MAX_BYTES = 15 * 1024 * 1024;

type EngineCrypto = ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'];

/** Our own engine over Node's WebCrypto, so verification does not depend on pkijs' global engine. */
const engine = new pkijs.CryptoEngine({
  name: 'node-webcrypto',
  crypto: webcrypto as unknown as EngineCrypto,
});

/** How far ahead of the receipt a declared signingTime may be (the signer's clock a little fast). */
const SIGNING_TIME_SKEW_MS = 5 * 60_000;

function failure(code: SignatureFailure, expectedTaxCode = ''): SignatureCheck {
  const message = failureMessage(code, expectedTaxCode);
  return { ok: false, code, message };
}

/** Thrown inside the verifier for a file that looked signed but cannot be verified; becomes `signature_invalid`. */
class InvalidSignature extends Error {}

const BASE64_DER_START = /^M[A-P][A-Za-z0-9+/]{2}/; // base64 of a first byte 0x30 (SEQUENCE)
const SNIFF_WINDOW = 256;

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** The text start of a possibly base64/PEM file: BOM and leading whitespace skipped. */
function textStart(bytes: Uint8Array): string {
  return latin1(bytes.subarray(0, SNIFF_WINDOW))
    .replace(/^\xEF\xBB\xBF/, '')
    .trimStart();
}

/** Magic-byte sniffing before any parsing: '%PDF-' → pades, DER SEQUENCE (0x30) or base64/PEM p7m → cades, else null. */
export function sniffSignedFormat(bytes: Uint8Array): 'pades' | 'cades' | null {
  if (hasSignature(bytes, FILE_SIGNATURES.pdf)) return 'pades';
  if (bytes.length >= 2 && bytes[0] === 0x30) return 'cades';
  const start = textStart(bytes);
  if (start.startsWith('-----BEGIN ') || BASE64_DER_START.test(start)) return 'cades';
  return null;
}

export async function verifySignedAdhesion(input: VerifyInput): Promise<SignatureCheck> {
  try {
    if (input.file.length > SIGNED_UPLOAD_MAX_BYTES) return failure('unsupported_format');
    const format = sniffSignedFormat(input.file);
    if (format === null) return failure('unsupported_format');
    return format === 'pades' ? await verifyPades(input) : await verifyCades(input);
  } catch {
    // pkijs/asn1js schema errors, SignedDataVerifyError, our InvalidSignature: the file looked signed.
    return failure('signature_invalid');
  }
}

export interface VerifyInput {
  file: Uint8Array;
  expectedDocument: Uint8Array;
  /** When the portal generated the expected document: a signature cannot be older. */
  documentCreatedAt: Date;
  expectedTaxCode: string;
  /** The server's receipt time: the trusted time. */
  now: Date;
  /** The verified trusted list in force; null when none is available (every upload refused). */
  trustedList: TrustedList | null;
  /** Asks the issuing CA (OCSP, then CRL) whether the certificate was revoked at the trusted time. */
  revocation: RevocationChecker;
}

interface VerifiedSigner {
  certificate: pkijs.Certificate;
  signingTime: Date | null;
  /** The signature value and its RFC 3161 time-stamp token, when the signer added one. */
  signatureValue: Uint8Array;
  timestampToken: Uint8Array | null;
}

interface VerifiedCms {
  signers: VerifiedSigner[];
  /** Every certificate the CMS carries (the possible intermediates). */
  certificates: pkijs.Certificate[];
  /** The encapsulated content (CAdES); null when detached (PAdES). */
  content: Uint8Array | null;
}

// ---------------------------------------------------------------------------------------------
// CAdES (.p7m)

/** DER as is; base64, optionally PEM-armoured, decoded (strict alphabet). */
function cadesDer(file: Uint8Array): Uint8Array {
  if (file[0] === 0x30) return file;
  const text = latin1(file).replace(/^\xEF\xBB\xBF/, '');
  const pem = /-----BEGIN [A-Z0-9 ]+-----([\s\S]*?)-----END [A-Z0-9 ]+-----/.exec(text);
  const body = (pem ? (pem[1] ?? '') : text).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length % 4 === 1) throw new InvalidSignature('not base64');
  const der = new Uint8Array(Buffer.from(body, 'base64'));
  if (der[0] !== 0x30) throw new InvalidSignature('base64 content is not DER');
  return der;
}

/** True when the CMS carries no content of its own (a detached .p7s). */
function isDetachedCms(der: Uint8Array): boolean {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1) throw new InvalidSignature('not BER');
  const contentInfo = new pkijs.ContentInfo({ schema: parsed.result });
  if (contentInfo.contentType !== OID.signedData) throw new InvalidSignature('not SignedData');
  return !new pkijs.SignedData({ schema: contentInfo.content }).encapContentInfo.eContent;
}

async function verifyCades(input: VerifyInput): Promise<SignatureCheck> {
  const der = cadesDer(input.file);
  if (isDetachedCms(der)) {
    // A detached .p7s signs a document it does not carry: the portal has it (the generated PDF).
    // A messageDigest that is not the document's means the .p7s signs another file.
    try {
      const cms = await verifyCms(der, input.expectedDocument);
      return await checkSigner('cades', 'cades-detached', cms, input);
    } catch (error) {
      if (error instanceof Error && /message digest/i.test(error.message))
        return failure('document_mismatch');
      throw error;
    }
  }
  const cms = await verifyCms(der, null);
  if (!cms.content || !bytesEqual(cms.content, input.expectedDocument)) return failure('document_mismatch');
  return checkSigner('cades', 'cades-attached', cms, input);
}

// ---------------------------------------------------------------------------------------------
// PAdES (.pdf)

const BYTE_RANGE = /^\/ByteRange\s*\[\s*(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s*\]/;

interface PadesSignature {
  /** Offset of '<' of the /Contents hex string (= end of the first range). */
  gapStart: number;
  /** Offset just after '>' (= start of the second range). */
  gapEnd: number;
  cms: Uint8Array;
  /** The /SubFilter of the signature dictionary (null when it has none). */
  subFilter: string | null;
}

/** The /SubFilter of the object that holds the signature dictionary around `at` (its /ByteRange). */
function subFilterAround(text: string, at: number): string | null {
  const start = text.lastIndexOf(' obj', at);
  const end = text.indexOf('endobj', at);
  const object = text.slice(start < 0 ? Math.max(0, at - 4096) : start, end < 0 ? at + 4096 : end);
  return /\/SubFilter\s*\/([A-Za-z0-9.#_-]{1,64})/.exec(object)?.[1] ?? null;
}

/**
 * The last signature dictionary: its /ByteRange [0 b c d] must cover the whole file except exactly the
 * /Contents <hex> string (b at '<', c just after '>', c + d = file length). Null when the file has none.
 */
function findLastPadesSignature(file: Uint8Array): PadesSignature | null {
  const text = latin1(file);
  const at = text.lastIndexOf('/ByteRange');
  if (at < 0) return null;
  const match = BYTE_RANGE.exec(text.slice(at, at + 200));
  if (!match) throw new InvalidSignature('malformed /ByteRange');
  const [a, b, c, d] = match.slice(1, 5).map(Number) as [number, number, number, number];
  if (a !== 0 || b <= 0 || c < b + 2 || c + d !== file.length)
    throw new InvalidSignature('/ByteRange does not cover the file');
  if (text[b] !== '<' || text[c - 1] !== '>')
    throw new InvalidSignature('/ByteRange gap is not a hex string');
  if (
    !text
      .slice(Math.max(0, b - 64), b)
      .trimEnd()
      .endsWith('/Contents')
  ) {
    throw new InvalidSignature('/ByteRange gap is not the /Contents value');
  }
  const hex = text.slice(b + 1, c - 1);
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9A-Fa-f]+$/.test(hex))
    throw new InvalidSignature('bad /Contents hex');
  return {
    gapStart: b,
    gapEnd: c,
    cms: new Uint8Array(Buffer.from(hex, 'hex')),
    subFilter: subFilterAround(text, at),
  };
}

async function verifyPades(input: VerifyInput): Promise<SignatureCheck> {
  const { file, expectedDocument } = input;
  const signature = findLastPadesSignature(file);
  if (!signature) return failure('not_signed');
  const covered = new Uint8Array(signature.gapStart + file.length - signature.gapEnd);
  covered.set(file.subarray(0, signature.gapStart), 0);
  covered.set(file.subarray(signature.gapEnd), signature.gapStart);
  const cms = await verifyCms(signature.cms, covered);
  // An incremental update of the generated PDF: it is the untouched start of the first signed range.
  const isUpdateOfExpected =
    expectedDocument.length > 0 &&
    expectedDocument.length <= signature.gapStart &&
    bytesEqual(file.subarray(0, expectedDocument.length), expectedDocument);
  if (!isUpdateOfExpected) return failure('document_mismatch');
  // ETSI.CAdES.detached is PAdES baseline; adbe.pkcs7.detached is a PKCS#7 PDF signature, told as such.
  return checkSigner(
    'pades',
    signature.subFilter === 'adbe.pkcs7.detached' ? 'pdf-pkcs7-detached' : 'pades-baseline',
    cms,
    input,
    signature.subFilter,
  );
}

// ---------------------------------------------------------------------------------------------
// CMS (both formats)

/**
 * Parses a ContentInfo/SignedData and verifies every SignerInfo with the signer certificate embedded in
 * the CMS (signed attributes incl. messageDigest, then the signature). `detached` is the signed data for
 * PAdES, where the CMS must not carry content of its own; CAdES must carry it (enveloping).
 */
async function verifyCms(der: Uint8Array, detached: Uint8Array | null): Promise<VerifiedCms> {
  const parsed = asn1js.fromBER(der); // trailing bytes (the /Contents zero padding) are ignored
  if (parsed.offset === -1) throw new InvalidSignature('not BER');
  const contentInfo = new pkijs.ContentInfo({ schema: parsed.result });
  if (contentInfo.contentType !== OID.signedData) throw new InvalidSignature('not SignedData');
  const signedData = new pkijs.SignedData({ schema: contentInfo.content });
  if (signedData.signerInfos.length === 0) throw new InvalidSignature('no signer');

  const eContent = signedData.encapContentInfo.eContent;
  let content: Uint8Array | null = null;
  if (detached) {
    if (eContent) throw new InvalidSignature('PAdES CMS must be detached');
  } else {
    if (!(eContent instanceof asn1js.OctetString))
      throw new InvalidSignature('CAdES p7m without attached content');
    content = new Uint8Array(eContent.getValue());
  }

  const signers: VerifiedSigner[] = [];
  for (let index = 0; index < signedData.signerInfos.length; index += 1) {
    const result = await signedData.verify(
      {
        signer: index,
        extendedMode: true,
        checkChain: false,
        ...(detached ? { data: exactArrayBuffer(detached) } : {}),
      },
      engine,
    );
    if (result.signatureVerified !== true || !result.signerCertificate)
      throw new InvalidSignature('signature does not verify');
    const signerInfo = signedData.signerInfos[index]!;
    signers.push({
      certificate: result.signerCertificate,
      signingTime: signingTimeOf(signerInfo),
      signatureValue: new Uint8Array(signerInfo.signature.valueBlock.valueHexView),
      timestampToken: timestampTokenOf(signerInfo),
    });
  }
  const certificates = (signedData.certificates ?? []).filter(
    (item): item is pkijs.Certificate => item instanceof pkijs.Certificate,
  );
  return { signers, content, certificates };
}

function signingTimeOf(signerInfo: pkijs.SignerInfo | undefined): Date | null {
  const attribute = signerInfo?.signedAttrs?.attributes.find((item) => item.type === OID.signingTime);
  const value: unknown = attribute?.values[0];
  if (value instanceof asn1js.UTCTime || value instanceof asn1js.GeneralizedTime) {
    const date = value.toDate();
    if (!Number.isNaN(date.getTime())) return date;
  }
  if (attribute) throw new InvalidSignature('malformed signingTime');
  return null;
}

// ---------------------------------------------------------------------------------------------
// Signer: codice fiscale, name, validity at signing time

async function checkSigner(
  format: 'pades' | 'cades',
  formatDetail: SignatureFormatDetail,
  cms: VerifiedCms,
  input: VerifyInput,
  subFilter: string | null = null,
): Promise<SignatureCheck> {
  const expected = input.expectedTaxCode.trim().toUpperCase();
  const signer = expected
    ? cms.signers.find((item) => taxCodeOfCertificate(item.certificate) === expected)
    : undefined;
  if (!signer) return failure('signer_mismatch', expected);
  const { certificate } = signer;
  // The declared signingTime is never the trusted time; one before the document existed (UTCTime has
  // whole seconds) or after the receipt shows a signing computer's clock that cannot be relied on.
  const declared = signer.signingTime;
  const generatedSecond = Math.floor(input.documentCreatedAt.getTime() / 1000) * 1000;
  if (
    declared &&
    (declared.getTime() < generatedSecond || declared.getTime() > input.now.getTime() + SIGNING_TIME_SKEW_MS)
  ) {
    return failure('signing_time_untrusted');
  }
  if (!input.trustedList) return failure('trust_list_unavailable');
  // A qualified time-stamp on the signature proves when it existed: the checks are made at its time.
  let trustedTime = input.now;
  let timeSource: { source: 'receipt' } | { source: 'timestamp'; authority: string } = { source: 'receipt' };
  if (signer.timestampToken) {
    const stamp = await checkTimestamp(signer.timestampToken, signer.signatureValue, input.trustedList);
    if (!stamp.ok && stamp.code === 'timestamp_invalid') return failure('signature_invalid');
    if (stamp.ok) {
      if (
        stamp.genTime.getTime() < generatedSecond ||
        stamp.genTime.getTime() > input.now.getTime() + SIGNING_TIME_SKEW_MS
      )
        return failure('signing_time_untrusted');
      trustedTime = stamp.genTime;
      timeSource = {
        source: 'timestamp',
        authority: `${stamp.authority.name} (${stamp.authority.provider})`,
      };
    }
  }
  const qualified = await checkQualifiedCertificate({
    signer: certificate,
    intermediates: cms.certificates,
    at: trustedTime,
    list: input.trustedList,
  });
  if (!qualified.ok) return failure(qualified.code);
  const issuer = qualified.path[1];
  const revocation = issuer
    ? await input.revocation({ certificate, issuer, at: trustedTime, now: input.now })
    : { status: 'unavailable' as const };
  if (revocation.status === 'revoked') return failure('certificate_revoked');
  if (revocation.status !== 'good') return failure('revocation_unavailable');
  const notBefore = certificate.notBefore.value;
  const notAfter = certificate.notAfter.value;
  const described = {
    subject: distinguishedName(certificate.subject),
    issuer: distinguishedName(certificate.issuer),
    serialNumber: Buffer.from(certificate.serialNumber.valueBlock.valueHexView).toString('hex').toUpperCase(),
  };
  const signerName = signerNameOf(certificate);
  const signerTaxCode = taxCodeOfCertificate(certificate);
  const list = input.trustedList;
  const report: VerificationReport = {
    format,
    formatDetail,
    subFilter,
    verifiedAt: input.now.toISOString(),
    signer: { name: signerName, taxCode: signerTaxCode },
    certificate: { ...described, notBefore: notBefore.toISOString(), notAfter: notAfter.toISOString() },
    qualified: {
      trustService: { ...qualified.service, statusSince: qualified.service.statusSince.toISOString() },
      qcStatements: qualified.qcStatements,
      chain: qualified.path.map((item) => distinguishedName(item.subject)),
    },
    trustedList: {
      territory: list.territory,
      operator: list.operator,
      sequenceNumber: list.sequenceNumber,
      issuedAt: list.issuedAt.toISOString(),
      nextUpdate: list.nextUpdate?.toISOString() ?? null,
      sha256: list.sha256,
      source: list.source,
    },
    trustedTime: { at: trustedTime.toISOString(), ...timeSource },
    declaredSigningTime: declared?.toISOString() ?? null,
    revocation: {
      status: 'good',
      source: revocation.source!,
      url: revocation.url!,
      producedAt: revocation.producedAt!,
      nextUpdate: revocation.nextUpdate,
      evidence: revocation.evidence!,
    },
  };
  return {
    ok: true,
    format,
    formatDetail,
    signerName,
    signerTaxCode,
    signedAt: trustedTime,
    certificate: { ...described, notBefore, notAfter },
    report,
  };
}
