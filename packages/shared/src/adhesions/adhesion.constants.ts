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
