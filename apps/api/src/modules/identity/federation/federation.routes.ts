import type { FastifyInstance } from 'fastify';
import { federationEntityConfiguration } from '@portale/shared/identity';
import { HttpError } from '../../../lib/http-error.ts';
import { registerEndpoint } from '../../../plugins/endpoint-route.ts';
import type { OidcRelyingParty } from '../cie-client.ts';
import { ENTITY_STATEMENT_MEDIA, signEntityConfiguration } from './entity-configuration.ts';
import { FederationRelyingParty } from './federation-client.ts';

const NOT_CONFIGURED = 'La federazione OpenID Connect SPID/CIE non è attiva su questo portale.';
/** A signed entity configuration is served again for an hour, then signed anew (it is valid for a day). */
const RESIGN_AFTER_MS = 3600_000;

/** Our entity configuration at `/.well-known/openid-federation` (decision 056); 404 while the federation is off. */
export function federationRoutes(app: FastifyInstance, rp: OidcRelyingParty | null) {
  const fed = rp instanceof FederationRelyingParty ? rp : null;
  let signed: { jwt: string; at: number } | undefined;

  registerEndpoint(app, federationEntityConfiguration, {}, async (_request, reply) => {
    if (!fed) throw new HttpError(404, 'not_found', NOT_CONFIGURED);
    const now = app.clock.now();
    if (!signed || now.getTime() - signed.at >= RESIGN_AFTER_MS || now.getTime() < signed.at) {
      const jwt = await signEntityConfiguration(
        fed.federation,
        { signingJwk: fed.settings.jwk, redirectUri: fed.settings.redirectUri },
        now,
      );
      signed = { jwt, at: now.getTime() };
    }
    return reply.header('content-type', ENTITY_STATEMENT_MEDIA).send(signed.jwt);
  });
}
