import { randomBytes } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { BINDING_POST, BINDING_REDIRECT, SAML_MD, type SpidSettings } from './spid-settings.ts';

/** The attributes we ask of SPID (AttributeConsumingService index 0, AgID's attribute names). */
export const SPID_ATTRIBUTES = [
  'spidCode',
  'fiscalNumber',
  'name',
  'familyName',
  'dateOfBirth',
  'email',
  'mobilePhone',
] as const;
export const ATTRIBUTE_CONSUMING_SERVICE_INDEX = '0';

export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
export const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

export const xmlEscape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A certificate's base64 body, as metadata and KeyInfo carry it. */
export const certificateBody = (pem: string) =>
  pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

/**
 * Our service provider's metadata under AgID's rules (Regole tecniche SPID, Avviso 29 v3): signed
 * (RSA-SHA256, enveloped, first child), AuthnRequestsSigned and WantAssertionsSigned, the signing
 * certificate, single logout (HTTP-Redirect), the assertion consumer service (HTTP-POST, index 0),
 * the AttributeConsumingService with the attributes we need, the Organization, and the
 * ContactPerson `other` of a public service provider (`spid:IPACode`, `spid:Public`).
 */
export function serviceProviderMetadata(settings: SpidSettings): string {
  const { organization: org } = settings;
  const lang = 'xml:lang="it"';
  const requested = SPID_ATTRIBUTES.map((name) => `<md:RequestedAttribute Name="${name}"/>`).join('');
  const xml =
    `<md:EntityDescriptor xmlns:md="${SAML_MD}" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" ` +
    `xmlns:spid="https://spid.gov.it/saml-extensions" entityID="${xmlEscape(settings.entityId)}" ` +
    `ID="_${randomBytes(16).toString('hex')}">` +
    `<md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" ` +
    `AuthnRequestsSigned="true" WantAssertionsSigned="true">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>` +
    `${certificateBody(settings.certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:SingleLogoutService Binding="${BINDING_REDIRECT}" Location="${xmlEscape(settings.sloUrl)}"/>` +
    `<md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>` +
    `<md:AssertionConsumerService index="0" isDefault="true" Binding="${BINDING_POST}" ` +
    `Location="${xmlEscape(settings.acsUrl)}"/>` +
    `<md:AttributeConsumingService index="${ATTRIBUTE_CONSUMING_SERVICE_INDEX}">` +
    `<md:ServiceName ${lang}>${xmlEscape(org.name)}</md:ServiceName>${requested}</md:AttributeConsumingService>` +
    `</md:SPSSODescriptor>` +
    `<md:Organization><md:OrganizationName ${lang}>${xmlEscape(org.name)}</md:OrganizationName>` +
    `<md:OrganizationDisplayName ${lang}>${xmlEscape(org.name)}</md:OrganizationDisplayName>` +
    `<md:OrganizationURL ${lang}>${xmlEscape(org.url)}</md:OrganizationURL></md:Organization>` +
    `<md:ContactPerson contactType="other"><md:Extensions>` +
    `<spid:IPACode>${xmlEscape(org.ipaCode)}</spid:IPACode><spid:Public/></md:Extensions>` +
    `<md:EmailAddress>${xmlEscape(org.email)}</md:EmailAddress>` +
    (org.phone ? `<md:TelephoneNumber>${xmlEscape(org.phone)}</md:TelephoneNumber>` : '') +
    `</md:ContactPerson></md:EntityDescriptor>`;
  return signEnveloped(xml, settings, { reference: '/*', action: 'prepend' });
}

/** An enveloped XML signature (RSA-SHA256, exclusive c14n) of the root element, with our certificate. */
export function signEnveloped(
  xml: string,
  keys: { privateKey: string; certificate: string },
  location: { reference: string; action: 'prepend' | 'after' },
  reference = '/*',
): string {
  const signature = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.certificate,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  signature.addReference({ xpath: reference, digestAlgorithm: SHA256, transforms: [ENVELOPED, EXC_C14N] });
  signature.computeSignature(xml, { prefix: 'ds', location });
  return signature.getSignedXml();
}
