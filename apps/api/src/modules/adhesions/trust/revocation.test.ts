import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startRevocationServer,
  type RevocationServer,
} from '../../../../test/support/revocation-fixtures.ts';
import {
  createTestCa,
  issueSignerCertificate,
  type TestCa,
} from '../../../../test/support/signing-fixtures.ts';
import { crlUrls, networkRevocationChecker, ocspUrls } from './revocation.ts';

let ca: TestCa;
let otherCa: TestCa;
let server: RevocationServer;
const NOW = new Date('2026-03-03T15:00:00Z');

beforeAll(async () => {
  [ca, otherCa] = await Promise.all([createTestCa(), createTestCa({ name: 'Un’altra CA' })]);
  server = await startRevocationServer(ca, () => NOW);
});
afterAll(() => server.close());

const mario = { name: 'Mario Rossi', taxCode: 'RSSMRA80A01H501U' };
/** The certificate as the verifier sees it: parsed from its DER. */
const parsed = (der: Uint8Array) => pkijs.Certificate.fromBER(new Uint8Array(der));

describe('networkRevocationChecker (a local OCSP responder and CRL on 127.0.0.1)', () => {
  it('reads the OCSP and CRL addresses from the certificate', async () => {
    const signer = await issueSignerCertificate(ca, {
      ...mario,
      ocspUrl: server.ocspUrl,
      crlUrl: server.crlUrl,
    });
    expect(ocspUrls(parsed(signer.der))).toEqual([server.ocspUrl]);
    expect(crlUrls(parsed(signer.der))).toEqual([server.crlUrl]);
  });

  it('good from OCSP, with the signed response kept as evidence and cached', async () => {
    const check = networkRevocationChecker();
    const signer = await issueSignerCertificate(ca, { ...mario, ocspUrl: server.ocspUrl });
    const before = server.ocspRequests;
    const answer = await check({
      certificate: parsed(signer.der),
      issuer: ca.certificate,
      at: NOW,
      now: NOW,
    });
    expect(answer).toMatchObject({
      status: 'good',
      source: 'ocsp',
      url: server.ocspUrl,
      producedAt: NOW.toISOString(),
      revokedAt: null,
    });
    const evidence = pkijs.OCSPResponse.fromBER(new Uint8Array(Buffer.from(answer.evidence!, 'base64')));
    expect(evidence.responseStatus.valueBlock.valueDec).toBe(0);
    await check({ certificate: parsed(signer.der), issuer: ca.certificate, at: NOW, now: NOW });
    expect(server.ocspRequests).toBe(before + 1);
  });

  it('revoked from OCSP; revoked from the CRL when the responder is down', async () => {
    const check = networkRevocationChecker();
    const signer = await issueSignerCertificate(ca, {
      ...mario,
      ocspUrl: server.ocspUrl,
      crlUrl: server.crlUrl,
    });
    server.revoke(signer.certificate, new Date('2026-03-01T00:00:00Z'));
    expect(
      await check({ certificate: parsed(signer.der), issuer: ca.certificate, at: NOW, now: NOW }),
    ).toMatchObject({
      status: 'revoked',
      source: 'ocsp',
      revokedAt: '2026-03-01T00:00:00.000Z',
    });
    server.ocspDown = true;
    try {
      const fromCrl = await networkRevocationChecker()({
        certificate: parsed(signer.der),
        issuer: ca.certificate,
        at: NOW,
        now: NOW,
      });
      expect(fromCrl).toMatchObject({
        status: 'revoked',
        source: 'crl',
        url: server.crlUrl,
        revokedAt: '2026-03-01T00:00:00.000Z',
      });
      const other = await issueSignerCertificate(ca, {
        ...mario,
        ocspUrl: server.ocspUrl,
        crlUrl: server.crlUrl,
      });
      expect(
        await check({ certificate: parsed(other.der), issuer: ca.certificate, at: NOW, now: NOW }),
      ).toMatchObject({ status: 'good', source: 'crl' });
    } finally {
      server.ocspDown = false;
    }
  });

  it('unavailable: no address in the certificate, nobody answering, or an answer signed by another CA', async () => {
    const check = networkRevocationChecker({ timeoutMs: 2000 });
    const none = await issueSignerCertificate(ca, mario);
    expect(
      (await check({ certificate: parsed(none.der), issuer: ca.certificate, at: NOW, now: NOW })).status,
    ).toBe('unavailable');
    const dead = await issueSignerCertificate(ca, { ...mario, ocspUrl: 'http://127.0.0.1:9/ocsp' });
    expect(
      (await check({ certificate: parsed(dead.der), issuer: ca.certificate, at: NOW, now: NOW })).status,
    ).toBe('unavailable');
    // A certificate of another CA whose OCSP address is our test CA's responder: the answer does not verify.
    const foreign = await issueSignerCertificate(otherCa, {
      ...mario,
      ocspUrl: server.ocspUrl,
      crlUrl: server.crlUrl,
    });
    expect(
      (await check({ certificate: parsed(foreign.der), issuer: otherCa.certificate, at: NOW, now: NOW }))
        .status,
    ).toBe('unavailable');
  });
});
