/** SAML and XML signature names the SPID code shares (decision 052). */
export const SAML_MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
export const XMLDSIG = 'http://www.w3.org/2000/09/xmldsig#';
export const BINDING_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const BINDING_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
