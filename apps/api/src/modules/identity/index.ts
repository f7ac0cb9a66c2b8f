export { identityRoutes, IDENTITY_COOKIES } from './identity.routes.ts';
