/**
 * An RFC 3161 time-stamp token on a CMS signature (the unsigned attribute signatureTimeStampToken,
 * RFC 3161 appendix A / ETSI EN 319 122-1): a trusted time for the signature when the token
 * - parses as a SignedData over a TSTInfo whose messageImprint is the hash of the signature value;
 * - verifies with the time-stamping unit's certificate it carries (pkijs);
 * - comes from a certificate for time-stamping (extended key usage id-kp-timeStamping), valid at the
 *   token's genTime, that is or chains to a qualified time-stamping service (TSA/QTST) of the trusted
 *   list with a qualified status at genTime.
 * A token that does not verify is a broken file; a valid token of a TSA that is not qualified is not
 * relied on (the receipt time stays the trusted time). No ASN.1 is written here: pkijs parses it all.
 */
import { createHash, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { chainToListedService, validAt } from './qualified-certificate.ts';
import { SERVICE_TYPE, statusName, type TrustedList } from './trusted-list.ts';

type EngineCrypto = ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'];
const engine = new pkijs.CryptoEngine({
  name: 'node-webcrypto',
  crypto: webcrypto as unknown as EngineCrypto,
});

export const TIMESTAMP_TOKEN_OID = '1.2.840.113549.1.9.16.2.14';
const SIGNED_DATA = '1.2.840.113549.1.7.2';
const TST_INFO = '1.2.840.113549.1.9.16.1.4';
const EXTENDED_KEY_USAGE = '2.5.29.37';
const TIME_STAMPING = '1.3.6.1.5.5.7.3.8';
const IMPRINT_HASHES: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

export type TimestampCheck =
  | { ok: true; genTime: Date; authority: { provider: string; name: string; status: string } }
  | { ok: false; code: 'timestamp_invalid' | 'timestamp_not_qualified'; detail: string };

/** The DER of the signer's time-stamp token, when its unsigned attributes carry one. */
export function timestampTokenOf(signerInfo: pkijs.SignerInfo | undefined): Uint8Array | null {
  const attribute = signerInfo?.unsignedAttrs?.attributes.find((item) => item.type === TIMESTAMP_TOKEN_OID);
  const value: unknown = attribute?.values[0];
  return value instanceof asn1js.Sequence ? new Uint8Array(value.toBER(false)) : null;
}

export async function checkTimestamp(
  token: Uint8Array,
  signatureValue: Uint8Array,
  list: TrustedList,
): Promise<TimestampCheck> {
  const invalid = (detail: string): TimestampCheck => ({ ok: false, code: 'timestamp_invalid', detail });
  let signedData: pkijs.SignedData;
  let info: pkijs.TSTInfo;
  try {
    const contentInfo = pkijs.ContentInfo.fromBER(Uint8Array.from(token));
    if (contentInfo.contentType !== SIGNED_DATA) return invalid('token is not SignedData');
    signedData = new pkijs.SignedData({ schema: contentInfo.content });
    const eContent = signedData.encapContentInfo.eContent;
    if (signedData.encapContentInfo.eContentType !== TST_INFO || !(eContent instanceof asn1js.OctetString))
      return invalid('token carries no TSTInfo');
    info = pkijs.TSTInfo.fromBER(eContent.getValue());
  } catch (error) {
    return invalid(`token does not parse: ${String(error)}`);
  }
  const hash = IMPRINT_HASHES[info.messageImprint.hashAlgorithm.algorithmId];
  if (!hash) return invalid(`imprint hash ${info.messageImprint.hashAlgorithm.algorithmId} not accepted`);
  const expected = createHash(hash).update(signatureValue).digest();
  if (!expected.equals(Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView)))
    return invalid('the token time-stamps another signature');

  let tsa: pkijs.Certificate;
  try {
    // pkijs checks the TSTInfo's imprint against `data` (the stamped signature value) as well.
    const result = await signedData.verify(
      { signer: 0, checkChain: false, extendedMode: true, data: Uint8Array.from(signatureValue).buffer },
      engine,
    );
    if (result.signatureVerified !== true || !result.signerCertificate)
      return invalid('token signature does not verify');
    tsa = result.signerCertificate;
  } catch (error) {
    return invalid(`token signature does not verify: ${String(error)}`);
  }
  const genTime = info.genTime;
  const notQualified = (detail: string): TimestampCheck => ({
    ok: false,
    code: 'timestamp_not_qualified',
    detail,
  });
  const usage = tsa.extensions?.find((item) => item.extnID === EXTENDED_KEY_USAGE)?.parsedValue as
    pkijs.ExtKeyUsage | undefined;
  if (!usage?.keyPurposes.includes(TIME_STAMPING))
    return notQualified('the token’s certificate is not for time-stamping');
  if (!validAt(tsa, genTime)) return notQualified('the token’s certificate is not valid at its genTime');
  const certificates = (signedData.certificates ?? []).filter(
    (item): item is pkijs.Certificate => item instanceof pkijs.Certificate,
  );
  const listed = await chainToListedService({
    certificate: tsa,
    intermediates: certificates,
    at: genTime,
    list,
    type: SERVICE_TYPE.qualifiedTsa,
  });
  if (!listed.ok) return notQualified(listed.detail);
  return {
    ok: true,
    genTime,
    authority: {
      provider: listed.service.provider,
      name: listed.service.name,
      status: statusName(listed.status.status),
    },
  };
}
