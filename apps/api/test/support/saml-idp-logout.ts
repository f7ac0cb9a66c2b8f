import { createSign, createVerify, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';

/**
 * The single logout side of the local SPID identity provider (saml-idp-fixtures.ts, decision 052):
 * messages of the HTTP-Redirect binding, signed in the query (RSA-SHA256 over
 * `SAMLRequest|SAMLResponse=…&RelayState=…&SigAlg=…`), as AgID's rules and SAML bindings §3.4.4.1 say.
 */

const SAML_A = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SAML_P = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ENTITY = 'urn:oasis:names:tc:SAML:2.0:nameid-format:entity';
export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const newId = () => `_${randomBytes(16).toString('hex')}`;

/** What a logout message of the provider gets wrong, for the refusal tests. */
export interface LogoutFault {
  /** `none`: no Signature/SigAlg; `other-key`: signed with a key the metadata does not name. */
  sign?: 'none' | 'other-key';
  /** The message is changed after it was signed (another ID): the signature no longer matches. */
  tamper?: boolean;
  issuer?: string;
  destination?: string;
  /** LogoutResponse only: the status, and the request it answers. */
  status?: string;
  inResponseTo?: string;
}

export interface RedirectKeys {
  privateKeyPem: string;
  /** A key of nobody the service provider knows (the `other-key` fault). */
  otherPrivateKeyPem: string;
}

/** A redirect-binding URL: the deflated message, RelayState, SigAlg and the signature of the three. */
export function redirectUrl(
  target: string,
  param: 'SAMLRequest' | 'SAMLResponse',
  xml: string,
  keys: RedirectKeys,
  fault: LogoutFault,
  relayState?: string,
): string {
  const encode = (message: string) =>
    encodeURIComponent(deflateRawSync(Buffer.from(message, 'utf8')).toString('base64'));
  const parts = [`${param}=${encode(xml)}`];
  if (relayState) parts.push(`RelayState=${encodeURIComponent(relayState)}`);
  if (fault.sign === 'none') return `${target}?${parts.join('&')}`;
  parts.push(`SigAlg=${encodeURIComponent(RSA_SHA256)}`);
  const signature = createSign('RSA-SHA256')
    .update(parts.join('&'))
    .sign(fault.sign === 'other-key' ? keys.otherPrivateKeyPem : keys.privateKeyPem, 'base64');
  if (fault.tamper) parts[0] = `${param}=${encode(xml.replace(/ID="[^"]+"/, `ID="${newId()}"`))}`;
  return `${target}?${parts.join('&')}&Signature=${encodeURIComponent(signature)}`;
}

/** The provider's LogoutResponse to a LogoutRequest `inResponseTo`. */
export function logoutResponseXml(
  entityId: string,
  destination: string,
  inResponseTo: string,
  fault: LogoutFault,
) {
  return (
    `<samlp:LogoutResponse xmlns:samlp="${SAML_P}" xmlns:saml="${SAML_A}" ID="${newId()}" Version="2.0" ` +
    `IssueInstant="${new Date().toISOString()}" Destination="${esc(fault.destination ?? destination)}" ` +
    `InResponseTo="${esc(fault.inResponseTo ?? inResponseTo)}">` +
    `<saml:Issuer Format="${ENTITY}">${esc(fault.issuer ?? entityId)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${esc(fault.status ?? SUCCESS)}"/></samlp:Status>` +
    `</samlp:LogoutResponse>`
  );
}

/** The provider's own LogoutRequest (IdP-initiated logout) for a NameID and, if given, a SessionIndex. */
export function logoutRequestXml(
  entityId: string,
  destination: string,
  who: { nameId: string; sessionIndex?: string },
  fault: LogoutFault,
) {
  return (
    `<samlp:LogoutRequest xmlns:samlp="${SAML_P}" xmlns:saml="${SAML_A}" ID="${newId()}" Version="2.0" ` +
    `IssueInstant="${new Date().toISOString()}" Destination="${esc(fault.destination ?? destination)}">` +
    `<saml:Issuer Format="${ENTITY}">${esc(fault.issuer ?? entityId)}</saml:Issuer>` +
    `<saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:transient" NameQualifier="${esc(entityId)}">` +
    `${esc(who.nameId)}</saml:NameID>` +
    (who.sessionIndex ? `<samlp:SessionIndex>${esc(who.sessionIndex)}</samlp:SessionIndex>` : '') +
    `</samlp:LogoutRequest>`
  );
}

/** A message the provider received by the redirect binding, read after its signature was checked. */
export interface ReceivedRedirect {
  xml: string;
  id: string;
  signatureValid: boolean;
  sigAlg: string | null;
  relayState: string | null;
  doc: Document;
}

/** Reads and checks (with the signer's certificate) a redirect-binding message received by the provider. */
export function readRedirect(
  rawQuery: string,
  param: 'SAMLRequest' | 'SAMLResponse',
  certificatePem: string,
): ReceivedRedirect {
  const params = new URLSearchParams(rawQuery);
  const segments = rawQuery.split('&');
  const pick = (key: string) => segments.find((s) => s.startsWith(`${key}=`));
  const signed = [param, 'RelayState', 'SigAlg'].map(pick).filter(Boolean).join('&');
  const signature = params.get('Signature');
  const signatureValid =
    !!signature &&
    createVerify('RSA-SHA256').update(signed).verify(certificatePem, Buffer.from(signature, 'base64'));
  const xml = inflateRawSync(Buffer.from(params.get(param) ?? '', 'base64')).toString('utf8');
  const doc = new DOMParser().parseFromString(xml, 'text/xml') as unknown as Document;
  return {
    xml,
    id: doc.documentElement.getAttribute('ID') ?? '',
    signatureValid,
    sigAlg: params.get('SigAlg'),
    relayState: params.get('RelayState'),
    doc,
  };
}
