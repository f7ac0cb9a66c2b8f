import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { spidAcs, spidMetadata, spidStart } from '@portale/shared/identity';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import {
  IDENTITY_COOKIES,
  identityCookieOptions,
  identityResponder,
  LOGIN_ATTEMPT_MINUTES,
} from './identity-responder.ts';
import { findLoginAttempt, insertLoginAttempt, useLoginAttempt } from './identity.repository.ts';
import { failureOfSamlError, SpidServiceProvider } from './spid-client.ts';
import { spidLogoutRoute } from './spid-logout.routes.ts';
import { serviceProviderMetadata } from './spid-metadata.ts';
import { SpidIdpRegistry, type SpidSettings } from './spid-settings.ts';

const NOT_CONFIGURED = 'L’accesso con SPID non è attivo su questo portale.';
const UNKNOWN_IDP =
  'Gestore dell’identità SPID sconosciuto: sceglilo dall’elenco del pulsante «Entra con SPID».';
const PROVIDER_UNREACHABLE =
  'I gestori dell’identità SPID non sono raggiungibili. Riprova tra qualche minuto.';
const FORM = 'application/x-www-form-urlencoded';

/**
 * Routes of the login with SPID (decision 052): our metadata, the start at the chosen identity
 * provider and the assertion consumer service. Registered always; they answer 404 without SPID.
 * `sp` and `idps` are null while SPID is not configured.
 */
export async function spidRoutes(
  app: FastifyInstance,
  { sp, idps }: { sp: SpidServiceProvider | null; idps: SpidIdpRegistry | null },
) {
  const { env } = app;
  // The provider posts the Response from its own site: in production (https) the cookie binding the
  // attempt to this browser must travel on that cross-site POST, hence SameSite=None (it is Secure).
  const loginCookie = identityCookieOptions(app, '/api/auth/spid/', env.COOKIE_SECURE ? 'none' : 'lax');
  const responder = identityResponder(app, 'spid', {
    name: IDENTITY_COOKIES.spidLogin,
    options: loginCookie,
  });
  const { fail } = responder;
  const limit = { rateLimit: { max: env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } };
  let metadata: string | undefined;

  // The Response arrives as a form (HTTP-POST binding); only this plugin's routes read forms.
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 400_000 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const requireSpid = () => {
    if (!sp || !idps) throw new HttpError(404, 'not_found', NOT_CONFIGURED);
    return { sp, idps };
  };

  spidLogoutRoute(app, requireSpid, limit);

  registerEndpoint(app, spidMetadata, {}, async (_request, reply) => {
    const { sp } = requireSpid();
    metadata ??= serviceProviderMetadata(sp.settings);
    return reply.header('content-type', 'application/samlmetadata+xml; charset=utf-8').send(metadata);
  });

  registerEndpoint(app, spidStart, { config: limit }, async (request, reply) => {
    const { sp, idps } = requireSpid();
    let idp;
    try {
      idp = await idps.find(request.query.idp);
    } catch (error) {
      request.log.warn({ err: error }, 'SPID metadata not readable');
      throw new HttpError(503, 'provider_unreachable', PROVIDER_UNREACHABLE);
    }
    if (!idp) throw fieldError('idp', UNKNOWN_IDP);
    // A SAML ID is an NCName: it may not start with a digit.
    const requestId = `_${randomBytes(20).toString('hex')}`;
    const browser = randomToken();
    const url = await sp.authorizationUrl(idp, requestId);
    const now = app.clock.now();
    await insertLoginAttempt(app.db, {
      provider: 'spid',
      stateHash: sha256(requestId),
      browserHash: sha256(browser),
      nonce: '',
      codeVerifier: '',
      idpEntityId: idp.entityId,
      now,
      expiresAt: new Date(now.getTime() + LOGIN_ATTEMPT_MINUTES * 60_000),
    });
    reply.setCookie(IDENTITY_COOKIES.spidLogin, browser, {
      ...loginCookie,
      maxAge: LOGIN_ATTEMPT_MINUTES * 60,
    });
    return reply.redirect(url, 302);
  });

  // Checked in this order, each an audited failure with no session: a SAML Response at all; our
  // request it answers (InResponseTo: unknown, replayed, expired, another browser), used once from
  // here on; its Issuer is the provider chosen at the start; its Destination is our ACS; its status;
  // then node-saml (signature, audience, times, InResponseTo in the assertion); then the level,
  // the codice fiscale and the linking rules (identity-linking.ts).
  registerEndpoint(app, spidAcs, { config: { ...limit, crossSiteForm: true } }, async (request, reply) => {
    const { sp, idps } = requireSpid();
    const { SAMLResponse: samlResponse } = request.body;
    const envelope = samlResponse ? sp.envelope(samlResponse) : null;
    if (!samlResponse || !envelope) return fail(request, reply, 'saml_invalid');
    if (!envelope.inResponseTo) return fail(request, reply, 'state_missing');
    const attempt = await findLoginAttempt(app.db, sha256(envelope.inResponseTo));
    if (!attempt || attempt.provider !== 'spid' || !attempt.idpEntityId)
      return fail(request, reply, 'state_unknown');
    if (attempt.usedAt) return fail(request, reply, 'state_replayed');
    const now = app.clock.now();
    if (attempt.expiresAt <= now) return fail(request, reply, 'state_expired');
    const browser = request.cookies[IDENTITY_COOKIES.spidLogin];
    if (!browser || sha256(browser) !== attempt.browserHash) return fail(request, reply, 'browser_mismatch');
    if (!(await useLoginAttempt(app.db, attempt.id, now))) return fail(request, reply, 'state_replayed');

    if (envelope.issuer !== attempt.idpEntityId)
      return fail(request, reply, 'issuer_mismatch', { detail: { issuer: envelope.issuer } });
    if (envelope.destination !== sp.settings.acsUrl)
      return fail(request, reply, 'destination_invalid', { detail: { destination: envelope.destination } });
    if (!SpidServiceProvider.succeeded(envelope))
      return fail(request, reply, 'provider_error', {
        detail: { status: envelope.status, message: envelope.statusMessage },
      });
    let idp;
    try {
      idp = await idps.find(attempt.idpEntityId);
    } catch (error) {
      request.log.warn({ err: error }, 'SPID metadata not readable');
      return fail(request, reply, 'provider_unreachable');
    }
    if (!idp) return fail(request, reply, 'issuer_mismatch', { detail: { issuer: envelope.issuer } });
    let answer;
    try {
      answer = await sp.verify(samlResponse, envelope.inResponseTo, idp);
    } catch (error) {
      request.log.warn({ err: error }, 'SPID response refused');
      return fail(request, reply, failureOfSamlError(error), {
        detail: { message: (error as Error).message?.slice(0, 500) ?? 'unknown' },
      });
    }
    return responder.conclude(request, reply, answer);
  });
}

/** The SPID service provider and the registry of its identity providers, or nulls without SPID. */
export function spidOf(
  settings: SpidSettings | null,
  options: ConstructorParameters<typeof SpidIdpRegistry>[1] = {},
): {
  sp: SpidServiceProvider | null;
  idps: SpidIdpRegistry | null;
} {
  if (!settings) return { sp: null, idps: null };
  return { sp: new SpidServiceProvider(settings), idps: new SpidIdpRegistry(settings, options) };
}
