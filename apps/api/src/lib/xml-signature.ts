import { SignedXml } from 'xml-crypto';

export const XMLDSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

/** Why a document's enveloped signature was not accepted. */
export type EnvelopedSignatureFault =
  'signature_count' | 'no_certificate' | 'not_verified' | 'not_whole_document';

export class EnvelopedSignatureError extends Error {
  constructor(readonly fault: EnvelopedSignatureFault) {
    super(`enveloped signature: ${fault}`);
  }
}

/**
 * A signed document's one enveloped signature (a `ds:Signature` child of the root), verified with one
 * of `certificatesPem` only — never a certificate of the document's own KeyInfo — and covering the
 * whole root (its one reference is `""` or `#<root's id>`). Returns the bytes the signature covers:
 * callers read those, never the parsed original, so an element wrapped or appended beside the signed
 * content is never read (xml-crypto's advice). The ETSI trusted list (decision 032) and AgID's SPID
 * metadata registry (decision 052) are signed this way.
 */
export function verifiedWholeDocument(
  xml: string,
  root: Element,
  certificatesPem: readonly string[],
  idAttribute: 'Id' | 'ID',
): string {
  const signatures = Array.from(root.childNodes as unknown as Iterable<Element>).filter(
    (n) => n.nodeType === 1 && n.namespaceURI === XMLDSIG_NS && n.localName === 'Signature',
  );
  if (signatures.length !== 1) throw new EnvelopedSignatureError('signature_count');
  if (certificatesPem.length === 0) throw new EnvelopedSignatureError('no_certificate');
  const rootId = root.getAttribute(idAttribute);
  for (const publicCert of certificatesPem) {
    const signed = new SignedXml({ publicCert, getCertFromKeyInfo: () => null });
    signed.loadSignature(signatures[0]!);
    let valid = false;
    try {
      valid = signed.checkSignature(xml);
    } catch {
      valid = false;
    }
    if (!valid) continue;
    const references = signed.getReferences();
    const coversRoot = references.some(
      (reference) => reference.uri === '' || (rootId !== null && reference.uri === `#${rootId}`),
    );
    const [signedXml] = signed.getSignedReferences();
    if (!coversRoot || references.length !== 1 || !signedXml)
      throw new EnvelopedSignatureError('not_whole_document');
    return signedXml;
  }
  throw new EnvelopedSignatureError('not_verified');
}
