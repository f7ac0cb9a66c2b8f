/**
 * Test-only revocation services of a test CA, on 127.0.0.1 (a port of its own), started and stopped by
 * the test: an OCSP responder (POST /ocsp, answers signed by the CA with pkijs) and a CRL (GET /crl).
 * `revoke()` adds a certificate to both; `ocspDown` makes the responder answer 500 (the CRL is then asked).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { TestCa } from './signing-fixtures.ts';

type EngineCrypto = ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'];
type PkijsKey = Parameters<pkijs.Certificate['sign']>[0];
const engine = new pkijs.CryptoEngine({
  name: 'node-webcrypto',
  crypto: webcrypto as unknown as EngineCrypto,
});

export interface RevocationServer {
  ocspUrl: string;
  crlUrl: string;
  revoke(certificate: pkijs.Certificate, at: Date): void;
  /** OCSP answers 500 while true (the verifier then asks the CRL). */
  ocspDown: boolean;
  /** How many OCSP requests were answered. */
  ocspRequests: number;
  close(): Promise<void>;
}

const serialHex = (integer: asn1js.Integer) => Buffer.from(integer.valueBlock.valueHexView).toString('hex');

function exact(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}

async function ocspAnswer(
  ca: TestCa,
  body: Uint8Array,
  revoked: Map<string, Date>,
  now: Date,
): Promise<Uint8Array> {
  const request = pkijs.OCSPRequest.fromBER(exact(body));
  const basic = new pkijs.BasicOCSPResponse();
  basic.tbsResponseData.responderID = ca.certificate.subject;
  basic.tbsResponseData.producedAt = now;
  for (const item of request.tbsRequest.requestList) {
    const single = new pkijs.SingleResponse({ certID: item.reqCert });
    const revokedAt = revoked.get(serialHex(item.reqCert.serialNumber));
    single.certStatus = revokedAt
      ? new asn1js.Constructed({
          idBlock: { tagClass: 3, tagNumber: 1 },
          value: [new asn1js.GeneralizedTime({ valueDate: revokedAt })],
        })
      : new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 } });
    single.thisUpdate = now;
    single.nextUpdate = new Date(now.getTime() + 3_600_000);
    basic.tbsResponseData.responses.push(single);
  }
  basic.certs = [ca.certificate];
  await basic.sign(ca.privateKey as unknown as PkijsKey, 'SHA-256', engine);
  const response = new pkijs.OCSPResponse({
    responseStatus: new asn1js.Enumerated({ value: 0 }),
    responseBytes: new pkijs.ResponseBytes({
      responseType: '1.3.6.1.5.5.7.48.1.1',
      response: new asn1js.OctetString({ valueHex: basic.toSchema().toBER(false) }),
    }),
  });
  return new Uint8Array(response.toSchema().toBER(false));
}

async function crl(ca: TestCa, revoked: Map<string, Date>, now: Date): Promise<Uint8Array> {
  const list = new pkijs.CertificateRevocationList();
  list.version = 1;
  list.issuer = ca.certificate.subject;
  list.thisUpdate = new pkijs.Time({ type: 0, value: now });
  list.nextUpdate = new pkijs.Time({ type: 0, value: new Date(now.getTime() + 86_400_000) });
  if (revoked.size > 0) {
    list.revokedCertificates = [...revoked].map(
      ([serial, at]) =>
        new pkijs.RevokedCertificate({
          userCertificate: new asn1js.Integer({ valueHex: Buffer.from(serial, 'hex') }),
          revocationDate: new pkijs.Time({ type: 0, value: at }),
        }),
    );
  }
  await list.sign(ca.privateKey as unknown as PkijsKey, 'SHA-256', engine);
  return new Uint8Array(list.toSchema(true).toBER(false));
}

/** Starts the CA's OCSP responder and CRL server; `now` is the time they write in their answers. */
export async function startRevocationServer(
  ca: TestCa,
  now: () => Date = () => new Date(),
): Promise<RevocationServer> {
  const revoked = new Map<string, Date>();
  let server: Server | null = null;
  const state: RevocationServer = {
    ocspUrl: '',
    crlUrl: '',
    ocspDown: false,
    ocspRequests: 0,
    revoke(certificate, at) {
      revoked.set(serialHex(certificate.serialNumber), at);
    },
    close: () => new Promise((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = async () => {
        if (request.url === '/ocsp' && request.method === 'POST') {
          if (state.ocspDown) return { status: 500, type: 'text/plain', body: new Uint8Array() };
          state.ocspRequests += 1;
          return {
            status: 200,
            type: 'application/ocsp-response',
            body: await ocspAnswer(ca, new Uint8Array(Buffer.concat(chunks)), revoked, now()),
          };
        }
        if (request.url === '/crl')
          return { status: 200, type: 'application/pkix-crl', body: await crl(ca, revoked, now()) };
        return { status: 404, type: 'text/plain', body: new Uint8Array() };
      };
      answer()
        .then(({ status, type, body }) =>
          response.writeHead(status, { 'content-type': type }).end(Buffer.from(body)),
        )
        .catch(() => response.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.ocspUrl = `http://127.0.0.1:${port}/ocsp`;
  state.crlUrl = `http://127.0.0.1:${port}/crl`;
  return state;
}
