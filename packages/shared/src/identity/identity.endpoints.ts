import { z } from 'zod';
import { TokenResponseSchema } from '../auth/session-user.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import {
  IdentityCallbackQuerySchema,
  IdentityLinkBodySchema,
  IdentityLinkCodeBodySchema,
  IdentityLinkCodeSentSchema,
  IdentityProvidersSchema,
  LinkedIdentitiesSchema,
  PendingIdentitySchema,
  IDENTITY_PROVIDER_NAMES,
  SpidAcsBodySchema,
  SpidLogoutQuerySchema,
  SpidStartQuerySchema,
} from './identity.schemas.ts';

// Login with CIE (decision 048). The start and the callback are browser navigations answered with a
// redirect (302); the pending identity and its link are authenticated by their own HttpOnly cookie.

export const identityProviders = defineEndpoint({
  method: 'GET',
  path: '/api/auth/identity/providers',
  permission: 'public',
  tag: 'auth',
  summary: 'Gestori dell’identità (CIE, SPID) attivi in questa istanza',
  response: IdentityProvidersSchema,
});

export const cieStart = defineEndpoint({
  method: 'GET',
  path: '/api/auth/cie/start',
  permission: 'public',
  tag: 'auth',
  summary: 'Avvia l’accesso con CIE (redirect al gestore; 404 se CIE non è configurata)',
  response: z.undefined(),
  status: 302,
  errors: [404, 503],
});

export const cieCallback = defineEndpoint({
  method: 'GET',
  path: '/api/auth/cie/callback',
  permission: 'public',
  tag: 'auth',
  summary: 'Ritorno dal gestore CIE: verifica la risposta e rimanda alla pagina dell’esito',
  query: IdentityCallbackQuerySchema,
  response: z.undefined(),
  status: 302,
  errors: [404],
});

/**
 * Our entity configuration in the SPID/CIE OpenID Connect Federation (decision 056): a JWT signed
 * with our federation key (`application/entity-statement+jwt`), read by the CIE provider for the
 * automatic registration and by the federation's authorities. 404 while the federation is off.
 */
export const federationEntityConfiguration = defineEndpoint({
  method: 'GET',
  path: '/.well-known/openid-federation',
  permission: 'public',
  tag: 'auth',
  summary:
    'Configurazione dell’entità nella federazione OpenID Connect SPID/CIE (JWT firmato; 404 se la federazione non è configurata)',
  response: z.string(),
  media: { response: ['application/entity-statement+jwt'] },
  errors: [404],
});

// Login with SPID (decision 052): SAML 2.0 under AgID's rules. The metadata is public (the identity
// providers and AgID read it); the start redirects to the chosen provider with a signed AuthnRequest;
// the provider posts its signed Response back to the assertion consumer service (a cross-site form).

export const spidMetadata = defineEndpoint({
  method: 'GET',
  path: '/api/auth/spid/metadata',
  permission: 'public',
  tag: 'auth',
  summary:
    'Metadata SAML del fornitore di servizi SPID (firmato, con le estensioni AgID; 404 se SPID non è configurato)',
  response: z.string(),
  media: { response: ['application/samlmetadata+xml'] },
  errors: [404],
});

export const spidStart = defineEndpoint({
  method: 'GET',
  path: '/api/auth/spid/start',
  permission: 'public',
  tag: 'auth',
  summary: 'Avvia l’accesso con SPID presso il gestore scelto (redirect con AuthnRequest firmata)',
  query: SpidStartQuerySchema,
  response: z.undefined(),
  status: 302,
  errors: [404, 503],
});

export const spidAcs = defineEndpoint({
  method: 'POST',
  path: '/api/auth/spid/acs',
  permission: 'public',
  tag: 'auth',
  summary: 'Ritorno dal gestore SPID (HTTP-POST): verifica la risposta SAML e rimanda alla pagina dell’esito',
  body: SpidAcsBodySchema,
  media: { request: ['application/x-www-form-urlencoded'] },
  response: z.undefined(),
  status: 302,
  errors: [404],
});

/**
 * Our single logout service (HTTP-Redirect): the provider's LogoutResponse to the LogoutRequest of
 * our logout (then the home page), or its own LogoutRequest (the matching SPID sessions end; the
 * browser goes back to it with our signed LogoutResponse). Public: the signed message is the
 * credential, and it acts only on the sessions it names.
 */
export const spidLogout = defineEndpoint({
  method: 'GET',
  path: '/api/auth/spid/logout',
  permission: 'public',
  tag: 'auth',
  summary:
    'Uscita singola SPID (HTTP-Redirect): risposta del gestore alla nostra uscita, o sua richiesta di uscita',
  query: SpidLogoutQuerySchema,
  response: z.undefined(),
  status: 302,
  errors: [404],
});

export const pendingIdentity = defineEndpoint({
  method: 'GET',
  path: '/api/auth/identity/pending',
  permission: 'public',
  tag: 'auth',
  summary: 'L’identità verificata in attesa di collegamento o di registrazione (cookie del browser)',
  response: PendingIdentitySchema,
  errors: [404],
});

export const linkIdentity = defineEndpoint({
  method: 'POST',
  path: '/api/auth/identity/link',
  permission: 'public',
  tag: 'auth',
  summary: 'Collega l’identità verificata all’account con lo stesso codice fiscale (password dell’account)',
  body: IdentityLinkBodySchema,
  response: TokenResponseSchema,
  // 403: the provider's level would not count as a staff member's second factor.
  errors: [401, 403, 404],
});

export const requestIdentityLinkCode = defineEndpoint({
  method: 'POST',
  path: '/api/auth/identity/link/code-request',
  permission: 'public',
  tag: 'auth',
  summary:
    'Invia un codice all’e-mail confermata dell’account, per collegare l’identità verificata senza la password',
  response: IdentityLinkCodeSentSchema,
  errors: [404, 409, 429],
});

export const linkIdentityWithCode = defineEndpoint({
  method: 'POST',
  path: '/api/auth/identity/link/code',
  permission: 'public',
  tag: 'auth',
  summary: 'Collega l’identità verificata all’account con il codice ricevuto alla sua e-mail',
  body: IdentityLinkCodeBodySchema,
  response: TokenResponseSchema,
  errors: [403, 404, 422],
});

export const myIdentities = defineEndpoint({
  method: 'GET',
  path: '/api/account/identities',
  permission: 'signed-in',
  tag: 'accounts',
  summary: 'Le identità CIE/SPID collegate al proprio account',
  response: LinkedIdentitiesSchema,
});

/** Unlinks one of the user's own identities; the password stays, so a way in always remains. */
export const unlinkIdentity = defineEndpoint({
  method: 'DELETE',
  path: '/api/account/identities/:provider',
  permission: 'signed-in',
  tag: 'accounts',
  summary: 'Scollega una propria identità CIE/SPID (resta l’accesso con e-mail e password)',
  params: z.object({
    provider: z.enum(IDENTITY_PROVIDER_NAMES, { error: 'Gestore dell’identità sconosciuto.' }),
  }),
  response: z.undefined(),
  status: 204,
});
