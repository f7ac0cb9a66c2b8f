export { identityRoutes } from './identity.routes.ts';
export { IDENTITY_TEMPLATES } from './identity.templates.ts';
export { IDENTITY_COOKIES } from './identity-responder.ts';
export { spidOf, spidRoutes } from './spid.routes.ts';
export { providerLogout } from './spid-logout.routes.ts';
export { spidSettings } from './spid-settings.ts';
export { pendingRegistrationOf } from './identity-registration.ts';
export { taxCodeVerifiedSource } from './identity.repository.ts';

/** The account page's refusal to change a codice fiscale that CIE/SPID proved. */
export const TAX_CODE_VERIFIED_MESSAGE =
  'Il codice fiscale è stato verificato con la tua identità digitale (CIE o SPID): non si può modificare qui. Scrivi allo staff dalla pagina Contatti se è sbagliato.';
