export { identityRoutes, IDENTITY_COOKIES } from './identity.routes.ts';
export { pendingRegistrationOf } from './identity-registration.ts';
export { taxCodeVerifiedSource } from './identity.repository.ts';

/** The account page's refusal to change a codice fiscale that CIE/SPID proved. */
export const TAX_CODE_VERIFIED_MESSAGE =
  'Il codice fiscale è stato verificato con la tua identità digitale (CIE): non si può modificare qui. Scrivi allo staff dalla pagina Contatti se è sbagliato.';
