import * as asn1js from 'asn1js';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTestCa,
  issueSignerCertificate,
  makeTestPdf,
  signCades,
  signCadesDetached,
  signPades,
  toBase64P7m,
  QC_COMPLIANCE,
  type TestCa,
  type TestSigner,
} from '../../../test/support/signing-fixtures.ts';
import {
  CA_PKC,
  createListOperator,
  signTrustedList,
  trustedListXml,
  type TestTrustService,
} from '../../../test/support/trusted-list-fixtures.ts';
import {
  SIGNED_UPLOAD_MAX_BYTES,
  sniffSignedFormat,
  verifySignedAdhesion,
  type SignatureCheck,
} from './signature-verification.ts';
import { loadTrustedList, type TrustedList } from './trust/trusted-list.ts';
import type { RevocationAnswer, RevocationChecker } from './trust/revocation.ts';

/** The CA's answer, stubbed here (the network checker has its own test with a local responder). */
const answer =
  (status: RevocationAnswer['status']): RevocationChecker =>
  async () => ({
    status,
    source: status === 'unavailable' ? null : 'ocsp',
    url: status === 'unavailable' ? null : 'http://127.0.0.1/ocsp',
    producedAt: status === 'unavailable' ? null : NOW.toISOString(),
    nextUpdate: null,
    revokedAt: status === 'revoked' ? '2026-03-01T00:00:00.000Z' : null,
    evidence: status === 'unavailable' ? null : 'MAA=',
    detail: null,
  });

const TAX_CODE = 'RSSMRA80A01H501U';
const OTHER_TAX_CODE = 'VRDLGI75B12F205X';
const NOT_BEFORE = new Date('2025-01-01T00:00:00Z');
const NOT_AFTER = new Date('2028-01-01T00:00:00Z');
const DOCUMENT_CREATED_AT = new Date('2026-03-01T08:00:00.500Z');
const SIGNING_TIME = new Date('2026-03-02T09:30:00Z');
const NOW = new Date('2026-03-03T15:00:00Z');

let ca: TestCa;
let signer: TestSigner;
let pdf: Uint8Array;
let otherPdf: Uint8Array;
let cades: Uint8Array;
let pades: Uint8Array;
/** The test trusted list: `ca` is a granted qualified CA service; the others are how lists go wrong. */
let trustedList: TrustedList;
let laptopCa: TestCa;
let withdrawnCa: TestCa;
let unqualifiedCa: TestCa;

async function listOf(services: TestTrustService[]): Promise<TrustedList> {
  const operator = await createListOperator();
  return loadTrustedList(
    signTrustedList(trustedListXml(services), operator),
    [operator.certificatePem],
    'test',
  );
}

beforeAll(async () => {
  [ca, laptopCa, withdrawnCa, unqualifiedCa] = await Promise.all([
    createTestCa(),
    createTestCa({ name: 'CA fatta su un portatile' }),
    createTestCa({ name: 'CA revocata dalla lista' }),
    createTestCa({ name: 'CA di certificati non qualificati' }),
  ]);
  trustedList = await listOf([
    { ca, name: 'Firma digitale qualificata di test' },
    // Withdrawn the day before the trusted time (NOW).
    {
      ca: withdrawnCa,
      name: 'Servizio revocato',
      history: [
        { status: 'withdrawn', from: new Date('2026-03-02T00:00:00Z') },
        { status: 'granted', from: new Date('2016-07-01T00:00:00Z') },
      ],
    },
    { ca: unqualifiedCa, name: 'Certificati non qualificati', type: CA_PKC },
  ]);
  signer = await issueSignerCertificate(ca, {
    taxCode: TAX_CODE,
    name: 'Mario Rossi',
    notBefore: NOT_BEFORE,
    notAfter: NOT_AFTER,
  });
  pdf = await makeTestPdf('Documento di adesione — IC Roma 1');
  otherPdf = await makeTestPdf('Documento di adesione — IC Pavia 2');
  cades = await signCades(pdf, signer, { signingTime: SIGNING_TIME });
  pades = await signPades(pdf, signer, { signingTime: SIGNING_TIME });
});

function verify(
  file: Uint8Array,
  overrides: {
    expectedDocument?: Uint8Array;
    expectedTaxCode?: string;
    now?: Date;
    trustedList?: TrustedList | null;
    revocation?: RevocationChecker;
  } = {},
): Promise<SignatureCheck> {
  return verifySignedAdhesion({
    file,
    expectedDocument: overrides.expectedDocument ?? pdf,
    documentCreatedAt: DOCUMENT_CREATED_AT,
    expectedTaxCode: overrides.expectedTaxCode ?? TAX_CODE,
    now: overrides.now ?? NOW,
    trustedList: overrides.trustedList === undefined ? trustedList : overrides.trustedList,
    revocation: overrides.revocation ?? answer('good'),
  });
}

function failureCode(result: SignatureCheck): string {
  return result.ok ? 'ok' : result.code;
}

function flipped(bytes: Uint8Array, offset: number): Uint8Array {
  const copy = bytes.slice();
  copy[offset] = (copy[offset] ?? 0) ^ 0x01;
  return copy;
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('latin1');
}

/** [start of the /Contents hex digits, DER length of the CMS in it] of a PAdES file made by the fixtures. */
function padesCmsLocation(file: Uint8Array): { hexStart: number; cmsLength: number } {
  const text = latin1(file);
  const match = /\/ByteRange \[0 (\d+) (\d+) \d+\]/.exec(text.slice(text.lastIndexOf('/ByteRange')));
  const gapStart = Number(match?.[1]);
  const gapEnd = Number(match?.[2]);
  const der = Buffer.from(text.slice(gapStart + 1, gapEnd - 1), 'hex');
  return { hexStart: gapStart + 1, cmsLength: asn1js.fromBER(new Uint8Array(der)).offset };
}

const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
]);

describe('sniffSignedFormat', () => {
  it('tells PDF, DER and base64/PEM p7m apart from anything else', () => {
    expect(sniffSignedFormat(pdf)).toBe('pades');
    expect(sniffSignedFormat(pades)).toBe('pades');
    expect(sniffSignedFormat(cades)).toBe('cades');
    expect(sniffSignedFormat(toBase64P7m(cades))).toBe('cades');
    expect(sniffSignedFormat(toBase64P7m(cades, true))).toBe('cades');
    expect(sniffSignedFormat(PNG)).toBeNull();
    expect(sniffSignedFormat(new Uint8Array())).toBeNull();
    expect(sniffSignedFormat(new TextEncoder().encode('Ciao, questo non è un file firmato'))).toBeNull();
  });
});

describe('verifySignedAdhesion: valid signatures', () => {
  it('accepts a CAdES .p7m with the signer name, tax code, trusted time, certificate and its report', async () => {
    const result = await verify(cades);
    // The time relied on is the receipt (NOW), never the declared signingTime.
    expect(result).toMatchObject({
      ok: true,
      format: 'cades',
      signerName: 'Mario Rossi',
      signerTaxCode: TAX_CODE,
      signedAt: NOW,
    });
    if (!result.ok) throw new Error('expected ok');
    expect(result.certificate.subject).toBe(
      'CN=Mario Rossi, SERIALNUMBER=TINIT-RSSMRA80A01H501U, SN=Rossi, GN=Mario, C=IT',
    );
    expect(result.certificate.issuer).toBe(
      'CN=CA di test per la firma qualificata, O=Portale Scuole Test, C=IT',
    );
    expect(result.certificate.serialNumber).toMatch(/^[0-9A-F]{16}$/);
    expect(result.certificate.notBefore).toEqual(NOT_BEFORE);
    expect(result.certificate.notAfter).toEqual(NOT_AFTER);
    expect(result.report).toMatchObject({
      format: 'cades',
      signer: { name: 'Mario Rossi', taxCode: TAX_CODE },
      qualified: {
        trustService: {
          name: 'Firma digitale qualificata di test',
          provider: 'Prestatore qualificato di test S.p.A.',
          status: 'granted',
        },
        qcStatements: ['0.4.0.1862.1.1', '0.4.0.1862.1.4'],
        chain: [result.certificate.subject, result.certificate.issuer],
      },
      trustedList: { territory: 'IT', sequenceNumber: 1, source: 'test' },
      trustedTime: { at: NOW.toISOString(), source: 'receipt' },
      declaredSigningTime: SIGNING_TIME.toISOString(),
      revocation: { status: 'good', source: 'ocsp', url: 'http://127.0.0.1/ocsp', evidence: 'MAA=' },
    });
  });

  it('accepts a PAdES .pdf (incremental update of the generated document)', async () => {
    expect(latin1(pades.subarray(0, pdf.length))).toBe(latin1(pdf));
    const result = await verify(pades);
    expect(result).toMatchObject({
      ok: true,
      format: 'pades',
      signerName: 'Mario Rossi',
      signerTaxCode: TAX_CODE,
      signedAt: NOW,
    });
  });

  it('uses `now` as the signing time when the CMS has no signingTime attribute', async () => {
    const withoutTime = await signPades(pdf, signer, { signingTime: null });
    expect(await verify(withoutTime)).toMatchObject({ ok: true, signedAt: NOW });
    expect(await verify(await signCades(pdf, signer, { signingTime: null }))).toMatchObject({
      ok: true,
      signedAt: NOW,
    });
  });

  it('tells the format: PAdES baseline, PDF PKCS#7 (adbe.pkcs7.detached), CAdES attached', async () => {
    expect(await verify(pades)).toMatchObject({
      ok: true,
      formatDetail: 'pades-baseline',
      report: { subFilter: 'ETSI.CAdES.detached' },
    });
    const pkcs7 = await signPades(pdf, signer, {
      signingTime: SIGNING_TIME,
      subFilter: 'adbe.pkcs7.detached',
    });
    expect(await verify(pkcs7)).toMatchObject({
      ok: true,
      format: 'pades',
      formatDetail: 'pdf-pkcs7-detached',
      report: { subFilter: 'adbe.pkcs7.detached' },
    });
    expect(await verify(cades)).toMatchObject({
      ok: true,
      formatDetail: 'cades-attached',
      report: { subFilter: null },
    });
  });

  it('accepts a detached .p7s over the generated document (the portal has it); over another document it is document_mismatch', async () => {
    const p7s = await signCadesDetached(pdf, signer, { signingTime: SIGNING_TIME });
    expect(await verify(p7s)).toMatchObject({
      ok: true,
      format: 'cades',
      formatDetail: 'cades-detached',
      signerTaxCode: TAX_CODE,
    });
    expect(await verify(toBase64P7m(p7s, true))).toMatchObject({ ok: true, formatDetail: 'cades-detached' });
    expect(
      failureCode(await verify(await signCadesDetached(otherPdf, signer, { signingTime: SIGNING_TIME }))),
    ).toBe('document_mismatch');
    expect(failureCode(await verify(flipped(p7s, p7s.length - 1)))).toBe('signature_invalid');
  });

  it('accepts a base64 p7m, plain or PEM-armoured', async () => {
    expect(await verify(toBase64P7m(cades))).toMatchObject({
      ok: true,
      format: 'cades',
      signerTaxCode: TAX_CODE,
    });
    expect(await verify(toBase64P7m(cades, true))).toMatchObject({
      ok: true,
      format: 'cades',
      signerTaxCode: TAX_CODE,
    });
  });

  it('compares the tax code case-insensitively and accepts a bare 16-character serialNumber', async () => {
    expect(await verify(cades, { expectedTaxCode: ' rssmra80a01h501u ' })).toMatchObject({ ok: true });
    const bare = await issueSignerCertificate(ca, {
      taxCode: TAX_CODE,
      name: 'Mario Rossi',
      serialNumberValue: TAX_CODE.toLowerCase(),
    });
    expect(await verify(await signCades(pdf, bare, { signingTime: SIGNING_TIME }))).toMatchObject({
      ok: true,
      signerTaxCode: TAX_CODE,
    });
  });

  it('takes the name from givenName + surname when the certificate has no CN, and accepts ECDSA P-256', async () => {
    const ecdsa = await issueSignerCertificate(ca, {
      taxCode: TAX_CODE,
      name: 'Anna Maria Bianchi',
      omitCommonName: true,
      keyAlgorithm: 'ECDSA',
    });
    const result = await verify(await signPades(pdf, ecdsa, { signingTime: SIGNING_TIME }));
    expect(result).toMatchObject({
      ok: true,
      format: 'pades',
      signerName: 'Anna Maria Bianchi',
      signerTaxCode: TAX_CODE,
    });
  });
});

describe('verifySignedAdhesion: failures', () => {
  it('not_signed: a plain PDF', async () => {
    const result = await verify(pdf);
    expect(result).toEqual({
      ok: false,
      code: 'not_signed',
      message:
        'Il file caricato non contiene una firma digitale. Carica il documento firmato digitalmente dal dirigente scolastico (PAdES .pdf o CAdES .p7m).',
    });
  });

  it('signature_invalid: PAdES with a byte changed inside the signed ranges', async () => {
    expect(failureCode(await verify(flipped(pades, 200)))).toBe('signature_invalid'); // in the generated document
    expect(failureCode(await verify(flipped(pades, pades.length - 30)))).toBe('signature_invalid'); // after /Contents
  });

  it('signature_invalid: PAdES with a byte changed inside the CMS', async () => {
    const { hexStart, cmsLength } = padesCmsLocation(pades);
    const lastSignatureDigit = hexStart + cmsLength * 2 - 1;
    const text = latin1(pades);
    const tampered = pades.slice();
    tampered[lastSignatureDigit] = (text[lastSignatureDigit] === '0' ? '1' : '0').charCodeAt(0);
    expect(failureCode(await verify(tampered))).toBe('signature_invalid');
  });

  it('signature_invalid: CAdES with a byte changed in the content or in the signature', async () => {
    const contentAt = latin1(cades).indexOf('%PDF-');
    expect(contentAt).toBeGreaterThan(0);
    expect(failureCode(await verify(flipped(cades, contentAt + 100)))).toBe('signature_invalid');
    expect(failureCode(await verify(flipped(cades, cades.length - 1)))).toBe('signature_invalid');
  });

  it('signature_invalid: bytes appended after the signature (ByteRange no longer covers the file)', async () => {
    const appended = new Uint8Array([
      ...pades,
      ...new TextEncoder().encode('\n1 0 obj\n(modificato)\nendobj\n'),
    ]);
    expect(failureCode(await verify(appended))).toBe('signature_invalid');
  });

  it('signature_invalid: a PAdES /Contents holding a CMS with its own attached content', async () => {
    // Would verify over its own content, not over the ByteRange: must be refused.
    const { hexStart } = padesCmsLocation(pades);
    const attachedHex = Buffer.from(await signCades(pdf, signer, { signingTime: SIGNING_TIME })).toString(
      'hex',
    );
    const forged = pades.slice();
    forged.set(new TextEncoder().encode(attachedHex), hexStart);
    expect(failureCode(await verify(forged))).toBe('signature_invalid');
  });

  it('document_mismatch: a valid signature over another document', async () => {
    const cadesOther = await signCades(otherPdf, signer, { signingTime: SIGNING_TIME });
    const padesOther = await signPades(otherPdf, signer, { signingTime: SIGNING_TIME });
    for (const file of [cadesOther, padesOther]) {
      const result = await verify(file);
      expect(failureCode(result)).toBe('document_mismatch');
      expect(result.ok ? '' : result.message).toContain('non corrisponde al documento di adesione');
    }
  });

  it('signer_mismatch: signed by someone else, naming only the expected tax code', async () => {
    const other = await issueSignerCertificate(ca, {
      taxCode: OTHER_TAX_CODE,
      name: 'Luigi Verdi',
      notBefore: NOT_BEFORE,
      notAfter: NOT_AFTER,
    });
    for (const file of [
      await signCades(pdf, other, { signingTime: SIGNING_TIME }),
      await signPades(pdf, other, { signingTime: SIGNING_TIME }),
    ]) {
      const result = await verify(file);
      expect(failureCode(result)).toBe('signer_mismatch');
      const message = result.ok ? '' : result.message;
      expect(message).toContain(TAX_CODE);
      expect(message).not.toContain(OTHER_TAX_CODE);
      expect(message).not.toContain('Verdi');
    }
    const noCode = await issueSignerCertificate(ca, {
      taxCode: TAX_CODE,
      name: 'Mario Rossi',
      serialNumberValue: null,
    });
    expect(failureCode(await verify(await signCades(pdf, noCode, { signingTime: SIGNING_TIME })))).toBe(
      'signer_mismatch',
    );
    expect(failureCode(await verify(cades, { expectedTaxCode: '' }))).toBe('signer_mismatch');
  });

  it('certificate_expired: the certificate was not valid at the trusted time (the receipt)', async () => {
    const expired = await issueSignerCertificate(ca, {
      taxCode: TAX_CODE,
      name: 'Mario Rossi',
      notBefore: new Date('2022-01-01T00:00:00Z'),
      notAfter: new Date('2025-12-31T23:59:59Z'),
    });
    expect(failureCode(await verify(await signCades(pdf, expired, { signingTime: SIGNING_TIME })))).toBe(
      'certificate_expired',
    );
    expect(failureCode(await verify(await signPades(pdf, expired, { signingTime: SIGNING_TIME })))).toBe(
      'certificate_expired',
    );
    // No signingTime: checked at `now`.
    expect(failureCode(await verify(await signPades(pdf, expired, { signingTime: null })))).toBe(
      'certificate_expired',
    );
    // Not yet valid when received.
    const early = await issueSignerCertificate(ca, {
      taxCode: TAX_CODE,
      name: 'Mario Rossi',
      notBefore: new Date('2026-04-01T00:00:00Z'),
    });
    expect(failureCode(await verify(await signCades(pdf, early, { signingTime: null })))).toBe(
      'certificate_expired',
    );
  });

  it('unsupported_format: a PNG, an empty file, plain text, a file over the size limit', async () => {
    for (const file of [PNG, new Uint8Array(), new TextEncoder().encode('non firmato')]) {
      expect(failureCode(await verify(file))).toBe('unsupported_format');
    }
    const tooLarge = new Uint8Array(SIGNED_UPLOAD_MAX_BYTES + 1);
    tooLarge.set(pdf.subarray(0, 8));
    expect(failureCode(await verify(tooLarge))).toBe('unsupported_format');
  });

  it('signature_invalid: files that look signed but do not parse', async () => {
    const inputs = [
      new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]),
      new TextEncoder().encode('MIIB!!not base64!!'),
      new TextEncoder().encode('-----BEGIN PKCS7-----\nAAAA\n-----END PKCS7-----\n'),
      new TextEncoder().encode(
        '%PDF-1.7\n1 0 obj << /ByteRange [0 10 20 5] /Contents <00> >> endobj\n%%EOF\n',
      ),
      new TextEncoder().encode('%PDF-1.7\n1 0 obj << /ByteRange [0 x] >> endobj\n'),
    ];
    for (const file of inputs) expect(failureCode(await verify(file))).toBe('signature_invalid');
  });

  it('has one plain Italian message for every failure code', async () => {
    const other = await issueSignerCertificate(ca, {
      taxCode: OTHER_TAX_CODE,
      name: 'Luigi Verdi',
      notBefore: NOT_BEFORE,
      notAfter: NOT_AFTER,
    });
    const results = await Promise.all([
      verify(PNG),
      verify(pdf),
      verify(flipped(cades, cades.length - 1)),
      verify(cades, { expectedDocument: otherPdf }),
      verify(await signCades(pdf, other, { signingTime: SIGNING_TIME })),
      verify(cades, { now: new Date('2029-01-01T00:00:00Z') }),
      verify(await signCades(pdf, signer, { signingTime: new Date('2024-01-01T00:00:00Z') })),
      verify(cades, { trustedList: null }),
      verify(cades, { revocation: answer('revoked') }),
      verify(cades, { revocation: answer('unavailable') }),
      verify(
        await signCades(
          pdf,
          await issueSignerCertificate(ca, { taxCode: TAX_CODE, name: 'Mario Rossi', selfSigned: true }),
          { signingTime: SIGNING_TIME },
        ),
      ),
      verify(
        await signCades(
          pdf,
          await issueSignerCertificate(laptopCa, { taxCode: TAX_CODE, name: 'Mario Rossi' }),
          { signingTime: SIGNING_TIME },
        ),
      ),
      verify(
        await signCades(
          pdf,
          await issueSignerCertificate(withdrawnCa, { taxCode: TAX_CODE, name: 'Mario Rossi' }),
          { signingTime: SIGNING_TIME },
        ),
      ),
      verify(
        await signCades(
          pdf,
          await issueSignerCertificate(ca, { taxCode: TAX_CODE, name: 'Mario Rossi', qcStatements: [] }),
          { signingTime: SIGNING_TIME },
        ),
      ),
    ]);
    const messages = new Map(results.map((result) => [failureCode(result), result.ok ? '' : result.message]));
    expect([...messages.keys()].sort()).toEqual(
      [
        'certificate_expired',
        'document_mismatch',
        'not_signed',
        'signature_invalid',
        'signer_mismatch',
        'unsupported_format',
        'signing_time_untrusted',
        'trust_list_unavailable',
        'certificate_self_signed',
        'issuer_not_qualified',
        'service_not_granted',
        'certificate_not_qualified',
        'certificate_revoked',
        'revocation_unavailable',
      ].sort(),
    );
    for (const message of messages.values()) expect(message).toMatch(/^[A-Z].{40,}\.$/s);
  });
});

describe('verifySignedAdhesion: only a qualified signature at a time the portal can prove (issue 33)', () => {
  const signedBy = async (
    issuer: TestCa,
    options: Partial<Parameters<typeof issueSignerCertificate>[1]> = {},
  ) =>
    signCades(
      pdf,
      await issueSignerCertificate(issuer, { taxCode: TAX_CODE, name: 'Mario Rossi', ...options }),
      { signingTime: SIGNING_TIME },
    );

  it('certificate_self_signed: a certificate with the right codice fiscale and no CA at all', async () => {
    const result = await verify(await signedBy(ca, { selfSigned: true }));
    expect(result).toMatchObject({ ok: false, code: 'certificate_self_signed' });
    if (!result.ok) expect(result.message).toContain('non è emesso da un prestatore qualificato');
  });

  it('issuer_not_qualified: a CA made on a laptop, and a CA listed only for non-qualified certificates', async () => {
    for (const issuer of [laptopCa, unqualifiedCa]) {
      const result = await verify(await signedBy(issuer));
      expect(result).toMatchObject({ ok: false, code: 'issuer_not_qualified' });
      if (!result.ok)
        expect(result.message).toContain('Il certificato non è emesso da un prestatore qualificato');
    }
  });

  it('service_not_granted: the CA service was withdrawn before the trusted time; granted before it, it is accepted', async () => {
    const file = await signCades(
      pdf,
      await issueSignerCertificate(withdrawnCa, { taxCode: TAX_CODE, name: 'Mario Rossi' }),
      { signingTime: null },
    );
    expect(failureCode(await verify(file))).toBe('service_not_granted');
    expect(await verify(file, { now: new Date('2026-03-01T12:00:00Z') })).toMatchObject({ ok: true });
  });

  it('certificate_not_qualified: without QcCompliance and QcSSCD, or with QcCompliance alone', async () => {
    expect(failureCode(await verify(await signedBy(ca, { qcStatements: [] })))).toBe(
      'certificate_not_qualified',
    );
    expect(failureCode(await verify(await signedBy(ca, { qcStatements: [QC_COMPLIANCE] })))).toBe(
      'certificate_not_qualified',
    );
  });

  it('signing_time_untrusted: a signingTime before the document was generated, or after the receipt', async () => {
    expect(
      failureCode(
        await verify(await signCades(pdf, signer, { signingTime: new Date('2026-02-28T23:59:59Z') })),
      ),
    ).toBe('signing_time_untrusted');
    expect(
      failureCode(
        await verify(await signPades(pdf, signer, { signingTime: new Date(NOW.getTime() + 3_600_000) })),
      ),
    ).toBe('signing_time_untrusted');
    // The second the document was generated in (UTCTime has whole seconds), and a clock a minute fast, are fine.
    expect(
      await verify(await signCades(pdf, signer, { signingTime: new Date('2026-03-01T08:00:00Z') })),
    ).toMatchObject({ ok: true });
    expect(
      await verify(await signCades(pdf, signer, { signingTime: new Date(NOW.getTime() + 60_000) })),
    ).toMatchObject({ ok: true });
  });

  it('certificate_revoked and revocation_unavailable: the issuing CA says revoked, or cannot be asked', async () => {
    expect(failureCode(await verify(cades, { revocation: answer('revoked') }))).toBe('certificate_revoked');
    expect(failureCode(await verify(pades, { revocation: answer('unavailable') }))).toBe(
      'revocation_unavailable',
    );
  });

  it('trust_list_unavailable: no verified trusted list, no accepted signature', async () => {
    expect(failureCode(await verify(cades, { trustedList: null }))).toBe('trust_list_unavailable');
  });
});

describe('verifySignedAdhesion: garbled input never throws', () => {
  const prefixes = ['', '%PDF-', '%PDF-1.7\n/ByteRange [0 ', '0', 'MII', '-----BEGIN PKCS7-----\n'].map(
    (text) => new TextEncoder().encode(text),
  );

  it('random bytes behind signed-looking prefixes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...prefixes),
        fc.uint8Array({ maxLength: 512 }),
        async (prefix, tail) => {
          const result = await verify(new Uint8Array([...prefix, ...tail]));
          expect(result.ok).toBe(false);
          if (!result.ok) expect(result.message.length).toBeGreaterThan(20);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('truncated and mutated signed files', async () => {
    const signed = [cades, pades, toBase64P7m(cades, true)];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(0, 1, 2),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (which, at) => {
          const file = signed[which] ?? cades;
          const cut = Math.floor(at * (file.length - 1));
          const truncated = await verify(file.subarray(0, cut));
          // Only the PEM's final line break may go; a PDF must stay exactly as its /ByteRange says.
          const removedOnlyPemWhitespace = which === 2 && latin1(file.subarray(cut)).trim() === '';
          expect(truncated.ok).toBe(removedOnlyPemWhitespace);
          const mutated = file.slice();
          mutated[cut] = (mutated[cut] ?? 0) ^ 0xff;
          const result = await verify(mutated);
          expect(typeof result.ok).toBe('boolean'); // padding zeros of /Contents are not signed: may stay valid
        },
      ),
      { numRuns: 60 },
    );
  });
});
