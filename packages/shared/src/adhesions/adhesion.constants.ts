/** How a principal signed the formal adhesion. */
export const SIGNATURE_METHODS = ['online', 'pades', 'cades'] as const;
export type SignatureMethod = (typeof SIGNATURE_METHODS)[number];
export const SIGNATURE_METHOD_LABELS: Record<SignatureMethod, string> = {
  online: 'Firma online con codice SMS',
  pades: 'Firma digitale PAdES (.pdf)',
  cades: 'Firma digitale CAdES (.p7m)',
};

/** The template the adhesion document is rendered from (product §3). */
export const ADHESION_TEMPLATE_KEY = 'documento.adesione';

/** What an uploaded signed file is exactly (decision 032). */
export const SIGNATURE_FORMAT_DETAILS = [
  'pades-baseline',
  'pdf-pkcs7-detached',
  'cades-attached',
  'cades-detached',
] as const;
export type SignatureFormatDetail = (typeof SIGNATURE_FORMAT_DETAILS)[number];
export const SIGNATURE_FORMAT_LABELS: Record<SignatureFormatDetail, string> = {
  'pades-baseline': 'PAdES baseline (.pdf, SubFilter ETSI.CAdES.detached)',
  'pdf-pkcs7-detached': 'PDF firmato PKCS#7 (.pdf, SubFilter adbe.pkcs7.detached): non PAdES baseline',
  'cades-attached': 'CAdES con documento incluso (.p7m)',
  'cades-detached': 'CAdES staccata (.p7s) sul documento generato dal portale',
};
