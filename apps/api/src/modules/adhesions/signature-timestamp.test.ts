import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTestCa,
  issueSignerCertificate,
  makeTestPdf,
  signCades,
  signPades,
  type TestCa,
  type TestSigner,
} from '../../../test/support/signing-fixtures.ts';
import {
  createListOperator,
  signTrustedList,
  trustedListXml,
  TSA_QTST,
} from '../../../test/support/trusted-list-fixtures.ts';
import { verifySignedAdhesion, type SignatureCheck } from './signature-verification.ts';
import type { RevocationChecker } from './trust/revocation.ts';
import { loadTrustedList, type TrustedList } from './trust/trusted-list.ts';

// Issue 33: an RFC 3161 time-stamp of a qualified TSA (TSA/QTST on the trusted list) is the trusted
// time of a signature, so a certificate that expired between the stamp and the upload still counts;
// a stamp that is not of this signature is a broken file; one of an unlisted TSA is not relied on.

const TAX_CODE = 'RSSMRA80A01H501U';
const DOCUMENT_CREATED_AT = new Date('2026-03-01T08:00:00.500Z');
const STAMPED_AT = new Date('2026-03-02T10:00:00Z');
/** The signer's certificate ends between the time-stamp and the upload. */
const SIGNER_UNTIL = new Date('2026-03-02T12:00:00Z');
const NOW = new Date('2026-03-03T15:00:00Z');

let list: TrustedList;
let ca: TestCa;
let signer: TestSigner;
let tsa: TestSigner;
let laptopTsa: TestSigner;
let pdf: Uint8Array;
/** The times the revocation checker was asked at. */
const askedAt: Date[] = [];
const revocation: RevocationChecker = async ({ at }) => {
  askedAt.push(at);
  return {
    status: 'good',
    source: 'ocsp',
    url: 'http://127.0.0.1/ocsp',
    producedAt: NOW.toISOString(),
    nextUpdate: null,
    revokedAt: null,
    evidence: 'MAA=',
    detail: null,
  };
};

beforeAll(async () => {
  let tsaCa: TestCa;
  let laptopCa: TestCa;
  [ca, tsaCa, laptopCa] = await Promise.all([
    createTestCa(),
    createTestCa({ name: 'CA dei servizi di marca temporale' }),
    createTestCa({ name: 'CA fatta su un portatile' }),
  ]);
  const operator = await createListOperator();
  list = loadTrustedList(
    signTrustedList(
      trustedListXml([
        { ca, name: 'Firma digitale qualificata di test' },
        { ca: tsaCa, name: 'Marca temporale qualificata di test', type: TSA_QTST },
      ]),
      operator,
    ),
    [operator.certificatePem],
    'test',
  );
  signer = await issueSignerCertificate(ca, {
    taxCode: TAX_CODE,
    name: 'Mario Rossi',
    notBefore: new Date('2025-01-01T00:00:00Z'),
    notAfter: SIGNER_UNTIL,
  });
  tsa = await issueSignerCertificate(tsaCa, {
    taxCode: 'TSAUNT00A01H501X',
    name: 'Unità di marcatura 1',
    timeStamping: true,
    qcStatements: [],
    notBefore: new Date('2025-01-01T00:00:00Z'),
    notAfter: new Date('2030-01-01T00:00:00Z'),
  });
  laptopTsa = await issueSignerCertificate(laptopCa, {
    taxCode: 'TSAUNT00A01H501X',
    name: 'Marca del portatile',
    timeStamping: true,
    qcStatements: [],
    notBefore: new Date('2025-01-01T00:00:00Z'),
    notAfter: new Date('2030-01-01T00:00:00Z'),
  });
  pdf = await makeTestPdf('Documento di adesione — IC Roma 1');
});

const verify = (file: Uint8Array): Promise<SignatureCheck> =>
  verifySignedAdhesion({
    file,
    expectedDocument: pdf,
    documentCreatedAt: DOCUMENT_CREATED_AT,
    expectedTaxCode: TAX_CODE,
    now: NOW,
    trustedList: list,
    revocation,
  });

describe('a qualified time-stamp is the trusted time', () => {
  it('PAdES and CAdES stamped before the certificate expired are accepted, checked and revoked-checked at the stamp', async () => {
    for (const file of [
      await signPades(pdf, signer, { timestamp: { tsa, genTime: STAMPED_AT } }),
      await signCades(pdf, signer, { signingTime: null, timestamp: { tsa, genTime: STAMPED_AT } }),
    ]) {
      askedAt.length = 0;
      const result = await verify(file);
      expect(result.ok, JSON.stringify(result)).toBe(true);
      if (!result.ok) continue;
      expect(result.signedAt).toEqual(STAMPED_AT);
      expect(result.report.trustedTime).toEqual({
        at: STAMPED_AT.toISOString(),
        source: 'timestamp',
        authority: 'Marca temporale qualificata di test (Prestatore qualificato di test S.p.A.)',
      });
      expect(askedAt).toEqual([STAMPED_AT]);
    }
  });

  it('without the stamp the same expired certificate is refused at the receipt time', async () => {
    const result = await verify(await signPades(pdf, signer));
    expect(result).toMatchObject({ ok: false, code: 'certificate_expired' });
  });

  it('a stamp of an unlisted TSA is not relied on: the receipt time stays, and the certificate has expired by then', async () => {
    const result = await verify(
      await signPades(pdf, signer, { timestamp: { tsa: laptopTsa, genTime: STAMPED_AT } }),
    );
    expect(result).toMatchObject({ ok: false, code: 'certificate_expired' });
  });

  it('a stamp of other bytes (copied from another signature) makes the file invalid', async () => {
    const result = await verify(
      await signPades(pdf, signer, { timestamp: { tsa, genTime: STAMPED_AT, imprint: 'other' } }),
    );
    expect(result).toMatchObject({ ok: false, code: 'signature_invalid' });
  });

  it('a stamp before the document existed, or after the upload, is not a time the portal trusts', async () => {
    for (const genTime of [new Date('2026-02-28T10:00:00Z'), new Date('2026-03-04T10:00:00Z')]) {
      const result = await verify(await signPades(pdf, signer, { timestamp: { tsa, genTime } }));
      expect(result).toMatchObject({ ok: false, code: 'signing_time_untrusted' });
    }
  });
});
