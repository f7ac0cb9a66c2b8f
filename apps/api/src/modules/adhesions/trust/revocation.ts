/**
 * Was a signer certificate revoked at the trusted time? Asked of the CA that issued it (issue 33,
 * decision 032): OCSP first (the responder named in the certificate's Authority Information Access),
 * then the CRL (its CRL distribution points). The answer is checked with pkijs (the OCSP response's
 * signature by the issuing CA or a responder it delegated; the CRL's signature by the issuer) and kept
 * as evidence (the DER of the response, base64) in the verification report. Answers are cached in
 * this process until their nextUpdate (at most CACHE_MAX_MS).
 */
import { createHash, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

type EngineCrypto = ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'];
const engine = new pkijs.CryptoEngine({
  name: 'node-webcrypto',
  crypto: webcrypto as unknown as EngineCrypto,
});

const OID = {
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  ocsp: '1.3.6.1.5.5.7.48.1',
  crlDistributionPoints: '2.5.29.31',
  ocspBasic: '1.3.6.1.5.5.7.48.1.1',
} as const;

const CACHE_MAX_MS = 60 * 60_000;
/** How far a responder's clock may be ahead of ours. */
const SKEW_MS = 5 * 60_000;

export interface RevocationAnswer {
  /** good: not revoked at the trusted time; revoked; unavailable: no answer could be had or trusted. */
  status: 'good' | 'revoked' | 'unavailable';
  source: 'ocsp' | 'crl' | null;
  url: string | null;
  /** When the answer was produced (OCSP producedAt / CRL thisUpdate). */
  producedAt: string | null;
  nextUpdate: string | null;
  revokedAt: string | null;
  /** The DER of the OCSP response or of the CRL, base64: the evidence. */
  evidence: string | null;
  /** Why no answer (unavailable), in English for the log and the report. */
  detail: string | null;
}

export type RevocationChecker = (input: {
  certificate: pkijs.Certificate;
  issuer: pkijs.Certificate;
  at: Date;
  now: Date;
}) => Promise<RevocationAnswer>;

function uris(names: pkijs.GeneralName[] | undefined): string[] {
  return (names ?? [])
    .filter((name) => name.type === 6 && typeof name.value === 'string')
    .map((name) => name.value as string);
}

function extension(certificate: pkijs.Certificate, oid: string): pkijs.Extension | undefined {
  return certificate.extensions?.find((item) => item.extnID === oid);
}

export function ocspUrls(certificate: pkijs.Certificate): string[] {
  const parsed = extension(certificate, OID.authorityInfoAccess)?.parsedValue as pkijs.InfoAccess | undefined;
  return uris(
    parsed?.accessDescriptions
      ?.filter((item) => item.accessMethod === OID.ocsp)
      .map((item) => item.accessLocation),
  ).filter((url) => /^https?:\/\//.test(url));
}

export function crlUrls(certificate: pkijs.Certificate): string[] {
  const parsed = extension(certificate, OID.crlDistributionPoints)?.parsedValue as
    pkijs.CRLDistributionPoints | undefined;
  return (parsed?.distributionPoints ?? [])
    .flatMap((point) => (Array.isArray(point.distributionPoint) ? uris(point.distributionPoint) : []))
    .filter((url) => /^https?:\/\//.test(url));
}

function exact(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}

async function fetchBytes(url: string, init: RequestInit, timeoutMs: number): Promise<Uint8Array> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

const unavailable = (detail: string): RevocationAnswer => ({
  status: 'unavailable',
  source: null,
  url: null,
  producedAt: null,
  nextUpdate: null,
  revokedAt: null,
  evidence: null,
  detail,
});

async function askOcsp(
  url: string,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  at: Date,
  now: Date,
  timeoutMs: number,
): Promise<RevocationAnswer> {
  const request = new pkijs.OCSPRequest();
  await request.createForCertificate(
    certificate,
    { hashAlgorithm: 'SHA-256', issuerCertificate: issuer },
    engine,
  );
  const der = await fetchBytes(
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/ocsp-request', accept: 'application/ocsp-response' },
      body: Buffer.from(request.toSchema(true).toBER(false)),
    },
    timeoutMs,
  );
  const response = pkijs.OCSPResponse.fromBER(exact(der));
  if (
    response.responseStatus.valueBlock.valueDec !== 0 ||
    !response.responseBytes ||
    response.responseBytes.responseType !== OID.ocspBasic
  ) {
    throw new Error(`OCSP responseStatus ${response.responseStatus.valueBlock.valueDec}`);
  }
  const basic = pkijs.BasicOCSPResponse.fromBER(
    exact(new Uint8Array(response.responseBytes.response.valueBlock.valueHexView)),
  );
  if (!(await basic.verify({ trustedCerts: [issuer], issuerCerts: [issuer] }, engine)))
    throw new Error('OCSP response signature does not verify');
  const status = await basic.getCertificateStatus(certificate, issuer, engine);
  if (!status.isForCertificate) throw new Error('OCSP response is not about this certificate');
  const single = await singleResponseFor(basic, certificate, issuer);
  if (single && single.thisUpdate.getTime() > now.getTime() + SKEW_MS)
    throw new Error('OCSP response from the future');
  if (single?.nextUpdate && single.nextUpdate.getTime() < now.getTime())
    throw new Error('OCSP response out of date');
  const revokedAt = status.status === 1 ? revocationTimeOf(single) : null;
  if (status.status === 2) throw new Error('OCSP responder does not know the certificate');
  return {
    status: status.status === 1 && (!revokedAt || revokedAt.getTime() <= at.getTime()) ? 'revoked' : 'good',
    source: 'ocsp',
    url,
    producedAt: basic.tbsResponseData.producedAt.toISOString(),
    nextUpdate: single?.nextUpdate?.toISOString() ?? null,
    revokedAt: revokedAt?.toISOString() ?? null,
    evidence: Buffer.from(der).toString('base64'),
    detail: null,
  };
}

async function singleResponseFor(
  basic: pkijs.BasicOCSPResponse,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
): Promise<pkijs.SingleResponse | undefined> {
  for (const single of basic.tbsResponseData.responses) {
    const id = new pkijs.CertID();
    await id.createForCertificate(
      certificate,
      {
        hashAlgorithm: single.certID.hashAlgorithm.algorithmId === '1.3.14.3.2.26' ? 'SHA-1' : 'SHA-256',
        issuerCertificate: issuer,
      },
      engine,
    );
    if (id.isEqual(single.certID)) return single;
  }
  return undefined;
}

function revocationTimeOf(single: pkijs.SingleResponse | undefined): Date | null {
  const status: unknown = single?.certStatus;
  if (status instanceof asn1js.Constructed) {
    const [time] = status.valueBlock.value;
    if (time instanceof asn1js.GeneralizedTime) return time.toDate();
  }
  return null;
}

async function askCrl(
  url: string,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  at: Date,
  now: Date,
  timeoutMs: number,
): Promise<RevocationAnswer> {
  const der = await fetchBytes(url, { method: 'GET' }, timeoutMs);
  const crl = pkijs.CertificateRevocationList.fromBER(exact(der));
  if (!(await crl.verify({ issuerCertificate: issuer }, engine)))
    throw new Error('CRL signature does not verify');
  if (crl.nextUpdate && crl.nextUpdate.value.getTime() < now.getTime()) throw new Error('CRL out of date');
  const serial = Buffer.from(certificate.serialNumber.valueBlock.valueHexView);
  const entry = crl.revokedCertificates?.find((item) =>
    Buffer.from(item.userCertificate.valueBlock.valueHexView).equals(serial),
  );
  const revokedAt = entry ? entry.revocationDate.value : null;
  return {
    status: revokedAt && revokedAt.getTime() <= at.getTime() ? 'revoked' : 'good',
    source: 'crl',
    url,
    producedAt: crl.thisUpdate.value.toISOString(),
    nextUpdate: crl.nextUpdate?.value.toISOString() ?? null,
    revokedAt: revokedAt?.toISOString() ?? null,
    evidence: Buffer.from(der).toString('base64'),
    detail: null,
  };
}

/** A checker over the network (OCSP, then CRL), with an in-process cache of the answers. */
export function networkRevocationChecker(
  options: { timeoutMs?: number; onError?: (error: unknown) => void } = {},
): RevocationChecker {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const cache = new Map<string, { answer: RevocationAnswer; until: number }>();
  return async ({ certificate, issuer, at, now }) => {
    const key = createHash('sha256')
      .update(Buffer.from(certificate.toSchema(true).toBER(false)))
      .digest('hex');
    const cached = cache.get(key);
    if (cached && cached.until > now.getTime()) return cached.answer;
    const errors: string[] = [];
    const attempts = [
      ...ocspUrls(certificate).map((url) => () => askOcsp(url, certificate, issuer, at, now, timeoutMs)),
      ...crlUrls(certificate).map((url) => () => askCrl(url, certificate, issuer, at, now, timeoutMs)),
    ];
    if (attempts.length === 0) return unavailable('the certificate names no OCSP responder and no CRL');
    for (const attempt of attempts) {
      try {
        const answer = await attempt();
        const nextUpdate = answer.nextUpdate ? new Date(answer.nextUpdate).getTime() : now.getTime();
        const until = Math.min(now.getTime() + CACHE_MAX_MS, Math.max(nextUpdate, now.getTime()));
        if (answer.status === 'good' && until > now.getTime()) cache.set(key, { answer, until });
        return answer;
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
        options.onError?.(error);
      }
    }
    return unavailable(errors.join('; '));
  };
}
