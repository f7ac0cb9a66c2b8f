// What a certificate says of its subject: the codice fiscale, the name, the distinguished name.
import type * as pkijs from 'pkijs';

/** The object identifiers the verification reads. */
export const OID = {
  signedData: '1.2.840.113549.1.7.2',
  signingTime: '1.2.840.113549.1.9.5',
  commonName: '2.5.4.3',
  surname: '2.5.4.4',
  serialNumber: '2.5.4.5',
  givenName: '2.5.4.42',
} as const;

/** Short names for the subject/issuer strings (RFC 4514 where it has one). */
const ATTRIBUTE_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.4': 'SN',
  '2.5.4.5': 'SERIALNUMBER',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.12': 'T',
  '2.5.4.42': 'GN',
  '2.5.4.46': 'DNQUALIFIER',
  '2.5.4.97': 'ORGANIZATIONIDENTIFIER',
  '1.2.840.113549.1.9.1': 'E',
};

function subjectString(certificate: pkijs.Certificate, oid: string): string | null {
  for (const item of certificate.subject.typesAndValues) {
    if (item.type !== oid) continue;
    const value: unknown = item.value?.valueBlock?.value;
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
}

/** The codice fiscale in the subject serialNumber: `TINIT-<16>` (ETSI EN 319 412-1), `IT:<16>` (older) or bare. */
export function taxCodeOfCertificate(certificate: pkijs.Certificate): string | null {
  const serial = subjectString(certificate, OID.serialNumber);
  const match = serial ? /^(?:TINIT-|IT:)?([A-Z0-9]{16})$/i.exec(serial) : null;
  return match?.[1] ? match[1].toUpperCase() : null;
}

export function signerNameOf(certificate: pkijs.Certificate): string {
  const commonName = subjectString(certificate, OID.commonName);
  if (commonName) return commonName;
  const parts = [subjectString(certificate, OID.givenName), subjectString(certificate, OID.surname)].filter(
    Boolean,
  );
  return parts.length > 0 ? parts.join(' ') : distinguishedName(certificate.subject);
}

function escapeDnValue(value: string): string {
  return value.replace(/[\\,+"<>;=]/g, (char) => `\\${char}`).replace(/^[ #]|[ ]$/g, (char) => `\\${char}`);
}

/** RFC 4514-style string (most specific attribute first), e.g. "CN=Mario Rossi, SERIALNUMBER=TINIT-…, C=IT". */
export function distinguishedName(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map((item) => {
      const value: unknown = item.value?.valueBlock?.value;
      const text =
        typeof value === 'string'
          ? escapeDnValue(value)
          : `#${Buffer.from(item.value.toBER(false)).toString('hex')}`;
      return `${ATTRIBUTE_NAMES[item.type] ?? item.type}=${text}`;
    })
    .reverse()
    .join(', ');
}

/** Two byte arrays hold the same bytes. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return (
    a.length === b.length &&
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
      Buffer.from(b.buffer, b.byteOffset, b.byteLength),
    )
  );
}

/** A copy of the bytes in an ArrayBuffer of exactly their length. */
export function exactArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}
