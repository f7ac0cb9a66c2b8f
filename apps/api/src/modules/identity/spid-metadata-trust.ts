import { DOMParser } from '@xmldom/xmldom';
import { EnvelopedSignatureError, verifiedWholeDocument } from '../../lib/xml-signature.ts';
import { SAML_MD } from './saml-names.ts';

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
  let signed: string;
  try {
    signed = verifiedWholeDocument(xml, root, [certificatePem], 'ID');
  } catch (error) {
    if (error instanceof EnvelopedSignatureError) throw new MetadataRefused(error.fault);
    throw error;
  }
  const signedRoot = rootOf(signed);
  if (signedRoot?.localName !== root.localName)
    throw new MetadataRefused('the signature covers another element');
  const validUntil = signedRoot.getAttribute('validUntil');
  if (validUntil && !(Date.parse(validUntil) > now.getTime()))
    throw new MetadataRefused(`expired (${validUntil})`);
  return signed;
}
