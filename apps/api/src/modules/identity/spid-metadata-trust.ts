import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { SAML_MD, XMLDSIG } from './saml-names.ts';

/**
 * The identity providers' metadata as AgID publishes them (decision 052, amended 2026-11-29): the
 * registry's document (`EntitiesDescriptor`, or one `EntityDescriptor`) carries an enveloped XML
 * signature of AgID. With `SPID_METADATA_SIGNING_CERT` configured a document counts only if that
 * certificate signed its whole root, and it is read from what the signature covers (never from nodes
 * beside it: a wrapped or appended element is not in the signed bytes), and only until its `validUntil`.
 */
export class MetadataRefused extends Error {}

const rootOf = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml').documentElement;

/** The signed root element of a metadata document as XML, or `MetadataRefused` with the reason. */
export function verifiedMetadata(xml: string, certificatePem: string, now: Date): string {
  let root;
  try {
    root = rootOf(xml);
  } catch {
    throw new MetadataRefused('not XML');
  }
  if (
    !root ||
    root.namespaceURI !== SAML_MD ||
    !['EntitiesDescriptor', 'EntityDescriptor'].includes(root.localName!)
  )
    throw new MetadataRefused('not SAML metadata');
  const signatures = Array.from(root.childNodes as unknown as Iterable<Element>).filter(
    (n) => n.nodeType === 1 && n.namespaceURI === XMLDSIG && n.localName === 'Signature',
  );
  if (signatures.length !== 1)
    throw new MetadataRefused(signatures.length ? 'several signatures' : 'unsigned');
  // Only the configured certificate: never one the document carries in its own KeyInfo.
  const signature = new SignedXml({ publicCert: certificatePem, getCertFromKeyInfo: () => null });
  signature.loadSignature(signatures[0]!);
  let valid = false;
  try {
    valid = signature.checkSignature(xml);
  } catch (error) {
    throw new MetadataRefused(`signature not verifiable: ${(error as Error).message}`);
  }
  if (!valid) throw new MetadataRefused('signature invalid');
  // The one reference must be the whole root (enveloped): read the providers from what it signed.
  const signed = signature.getSignedReferences();
  const id = root.getAttribute('ID');
  const uris = signature.getReferences().map((r) => r.uri ?? '');
  if (signed.length !== 1 || uris.length !== 1 || !(uris[0] === '' || (id && uris[0] === `#${id}`)))
    throw new MetadataRefused('the signature does not cover the whole document');
  const signedRoot = rootOf(signed[0]!);
  if (signedRoot?.localName !== root.localName)
    throw new MetadataRefused('the signature covers another element');
  const validUntil = signedRoot.getAttribute('validUntil');
  if (validUntil && !(Date.parse(validUntil) > now.getTime()))
    throw new MetadataRefused(`expired (${validUntil})`);
  return signed[0]!;
}
