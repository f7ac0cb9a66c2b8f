import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { ERROR_MESSAGES } from '@portale/shared/http';
import {
  cieCallback,
  cieStart,
  identityProviders,
  linkIdentity,
  linkIdentityWithCode,
  myIdentities,
  pendingIdentity,
  requestIdentityLinkCode,
  unlinkIdentity,
} from '@portale/shared/identity';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { HttpError } from '../../lib/http-error.ts';
import { actorOf } from '../../lib/audit.ts';
import { authOf } from '../../plugins/authorization.ts';
import { lacksSecondFactor, openLoginSession } from '../auth/index.ts';
import { cieSettings } from './cie-client.ts';
import { cieRelyingParty } from './federation/federation-client.ts';
import { federationRoutes } from './federation/federation.routes.ts';
import { federationErrorOf } from './federation/trust-chain.ts';
import {
  IDENTITY_COOKIES,
  identityCookieOptions,
  identityResponder,
  LOGIN_ATTEMPT_MINUTES,
} from './identity-responder.ts';
import {
  findLoginAttempt,
  findPendingIdentity,
  identitiesOfUser,
  insertLoginAttempt,
  useLoginAttempt,
} from './identity.repository.ts';
import { keepLogoutKeys, logoutKeysFromJson } from './identity-sessions.ts';
import * as service from './identity.service.ts';
import { codeAvailable, emailHint, linkWithCode, sendLinkCode } from './identity-link-code.service.ts';

const NOT_CONFIGURED = 'L’accesso con CIE non è attivo su questo portale.';
const NO_PENDING =
  'Nessuna identità CIE/SPID in attesa di collegamento in questo browser (scaduta o già usata). Riprova l’accesso con CIE o SPID.';
const LEVEL_TOO_LOW =
  'Il livello di sicurezza dell’accesso con SPID o CIE non basta per il tuo ruolo: accedi con SPID di livello 2 o con la CIE.';
const PROVIDER_UNREACHABLE = 'Il gestore dell’identità non risponde. Riprova tra qualche minuto.';

/**
 * Routes of the login with CIE (decision 048) and the ones CIE and SPID share (providers, pending
 * identity, link, the account's identities). Registered always; CIE's answer 404 while it is not
 * configured. `spid` lists the configured SPID identity providers (decision 052), when SPID is on.
 */
export async function identityRoutes(
  app: FastifyInstance,
  { spid }: { spid: { choices(): Promise<{ id: string; name: string }[]> } | null },
) {
  const { env } = app;
  const settings = cieSettings(env);
  const cie = cieRelyingParty(env, settings);
  const loginCookie = identityCookieOptions(app, '/api/auth/');
  const responder = identityResponder(app, 'cie', { name: IDENTITY_COOKIES.login, options: loginCookie });
  const { fail, pendingCookie } = responder;
  const limit = { rateLimit: { max: env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } };
  const deps = {
    db: app.db,
    clock: app.clock,
    throttle: {
      slowDownAfter: env.LOGIN_SLOWDOWN_AFTER,
      lockAfter: env.LOGIN_LOCK_AFTER,
      lockMinutes: env.LOGIN_LOCK_MINUTES,
      ipMaxFailures: env.LOGIN_IP_MAX_FAILURES,
    },
  };

  const requireCie = () => {
    if (!cie) throw new HttpError(404, 'not_found', NOT_CONFIGURED);
    return cie;
  };

  federationRoutes(app, cie);

  registerEndpoint(app, identityProviders, {}, async () => {
    const spidProviders = spid ? await spid.choices().catch(() => []) : [];
    const testProviders =
      app.env.IDENTITY_TEST_PROVIDERS === 'on' && (cie !== null || spidProviders.length > 0);
    return { cie: cie !== null, spid: spidProviders.length > 0, spidProviders, testProviders };
  });

  registerEndpoint(app, cieStart, { config: limit }, async (request, reply) => {
    const rp = requireCie();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const browser = randomToken();
    let url: URL;
    try {
      url = await rp.authorizationUrl({ state, nonce, codeVerifier });
    } catch (error) {
      const refused = federationErrorOf(error); // the federation does not vouch for the provider (decision 056)
      if (refused) return fail(request, reply, refused.failure, { detail: { reason: refused.message } });
      request.log.warn({ err: error }, 'CIE provider not reachable');
      throw new HttpError(503, 'provider_unreachable', PROVIDER_UNREACHABLE);
    }
    const now = app.clock.now();
    await insertLoginAttempt(app.db, {
      provider: 'cie',
      stateHash: sha256(state),
      browserHash: sha256(browser),
      nonce,
      codeVerifier,
      now,
      expiresAt: new Date(now.getTime() + LOGIN_ATTEMPT_MINUTES * 60_000),
    });
    reply.setCookie(IDENTITY_COOKIES.login, browser, { ...loginCookie, maxAge: LOGIN_ATTEMPT_MINUTES * 60 });
    return reply.redirect(url.href, 302);
  });

  registerEndpoint(app, cieCallback, { config: limit }, async (request, reply) => {
    const rp = requireCie();
    const { query } = request;
    if (!query.state) return fail(request, reply, 'state_missing');
    const attempt = await findLoginAttempt(app.db, sha256(query.state));
    if (!attempt || attempt.provider !== 'cie') return fail(request, reply, 'state_unknown');
    if (attempt.usedAt) return fail(request, reply, 'state_replayed');
    const now = app.clock.now();
    if (attempt.expiresAt <= now) return fail(request, reply, 'state_expired');
    const browser = request.cookies[IDENTITY_COOKIES.login];
    if (!browser || sha256(browser) !== attempt.browserHash) return fail(request, reply, 'browser_mismatch');
    if (!(await useLoginAttempt(app.db, attempt.id, now))) return fail(request, reply, 'state_replayed');

    let issuer: string;
    try {
      issuer = await rp.issuer();
    } catch (error) {
      const refused = federationErrorOf(error);
      if (refused) return fail(request, reply, refused.failure, { detail: { reason: refused.message } });
      request.log.warn({ err: error }, 'CIE provider not reachable');
      return fail(request, reply, 'provider_unreachable');
    }
    // RFC 9207: the response names its issuer, checked before anything else of it is used (mix-up).
    if (!query.iss) return fail(request, reply, 'issuer_missing');
    if (query.iss !== issuer) return fail(request, reply, 'issuer_mismatch', { detail: { iss: query.iss } });
    if (query.error)
      return fail(request, reply, 'provider_error', {
        detail: { error: query.error, description: query.error_description ?? null },
      });

    const callbackUrl = new URL(settings!.redirectUri);
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) callbackUrl.searchParams.set(name, value);
    let answer;
    try {
      answer = await rp.complete(callbackUrl, {
        state: query.state,
        nonce: attempt.nonce,
        codeVerifier: attempt.codeVerifier,
      });
    } catch (error) {
      const refused = federationErrorOf(error);
      if (refused) return fail(request, reply, refused.failure, { detail: { reason: refused.message } });
      const code = (error as { code?: unknown }).code;
      const network = error instanceof TypeError || code === 'ECONNREFUSED';
      request.log.warn({ err: error }, 'CIE answer refused');
      return fail(request, reply, network ? 'provider_unreachable' : 'token_invalid', {
        detail: { reason: typeof code === 'string' ? code : 'unknown', message: (error as Error).message },
      });
    }

    return responder.conclude(request, reply, answer);
  });

  const pendingOf = async (request: FastifyRequest) => {
    const token = request.cookies[IDENTITY_COOKIES.pending];
    const row = token ? await findPendingIdentity(app.db, sha256(token), app.clock.now()) : undefined;
    if (!row) throw new HttpError(404, 'not_found', NO_PENDING);
    return row;
  };

  // The pending identity and its link serve both providers.
  const requireProvider = () => {
    if (!cie && !spid) throw new HttpError(404, 'not_found', NOT_CONFIGURED);
  };

  /**
   * The session a completed link opens: at the level of the provider's login, with what the
   * provider's logout needs (carried by the pending identity), so that single logout reaches it.
   */
  const openLinkedSession = (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
    row: { provider: 'cie' | 'spid'; acr: string | null; logoutKeys: unknown },
  ) => {
    reply.clearCookie(IDENTITY_COOKIES.pending, pendingCookie);
    const opened = keepLogoutKeys(app.db, logoutKeysFromJson(row.logoutKeys), app.clock.now());
    return openLoginSession(app, request, reply, userId, row.provider, { acr: row.acr, opened });
  };

  /** A staff link whose level would not count as the second factor is refused before it is used. */
  const assertLevelFor = async (row: { userId: number | null; acr: string | null }) => {
    if (row.userId && (await lacksSecondFactor(app, row.userId, row.acr)))
      throw new HttpError(403, 'forbidden', LEVEL_TOO_LOW);
  };

  registerEndpoint(app, pendingIdentity, {}, async (request) => {
    requireProvider();
    const row = await pendingOf(request);
    const given = (name: string) => {
      const value = row.userId ? undefined : (row.attributes as Record<string, unknown>)[name];
      return typeof value === 'string' && value.trim() ? value.trim() : null;
    };
    return {
      provider: row.provider,
      kind: row.userId ? ('link' as const) : ('register' as const),
      email: given('email'),
      phone: given('phone_number'),
      codeAvailable: codeAvailable(row),
      firstName: row.firstName,
      lastName: row.lastName,
      taxCode: row.taxCode,
      accountEmailHint: row.accountEmail ? emailHint(row.accountEmail) : null,
      expiresAt: row.expiresAt.toISOString(),
    };
  });

  registerEndpoint(app, linkIdentity, { config: limit }, async (request, reply) => {
    requireProvider();
    const row = await pendingOf(request);
    await assertLevelFor(row);
    const outcome = await service.linkWithPassword(deps, actorOf(request), row, request.body.password);
    if (!outcome.ok && outcome.reason === 'bad-credentials')
      throw new HttpError(401, 'invalid_credentials', ERROR_MESSAGES.badCredentials);
    if (!outcome.ok) throw new HttpError(404, 'not_found', NO_PENDING);
    return openLinkedSession(request, reply, outcome.userId, row);
  });

  // The same link proved by a code to the account's confirmed e-mail instead of its password.
  const codeDeps = { ...deps, secret: env.APP_SECRET };
  registerEndpoint(app, requestIdentityLinkCode, { config: limit }, async (request) => {
    requireProvider();
    const row = await pendingOf(request);
    if (!row.userId) throw new HttpError(404, 'not_found', NO_PENDING);
    return sendLinkCode(codeDeps, actorOf(request), row);
  });

  registerEndpoint(app, linkIdentityWithCode, { config: limit }, async (request, reply) => {
    requireProvider();
    const row = await pendingOf(request);
    await assertLevelFor(row);
    const outcome = await linkWithCode(codeDeps, actorOf(request), row, request.body.code);
    if (!outcome.ok) throw new HttpError(404, 'not_found', NO_PENDING);
    return openLinkedSession(request, reply, outcome.userId, row);
  });

  // The user's own identity only (the session's user, no id in the path): nobody unlinks another's.
  registerEndpoint(app, unlinkIdentity, {}, async (request) => {
    const actor = { ...actorOf(request), userId: authOf(request).user.id };
    if (!(await service.unlinkIdentity(app.db, actor, request.params.provider)))
      throw new HttpError(404, 'not_found', 'Nessuna identità di questo tipo è collegata al tuo account.');
  });

  registerEndpoint(app, myIdentities, {}, async (request) => {
    const { user } = authOf(request);
    const { rows, verifiedAt, verifiedSource } = await identitiesOfUser(app.db, user.id);
    return {
      identities: rows.map((r) => ({
        provider: r.provider,
        taxCode: r.taxCode,
        acr: r.acr,
        linkedAt: r.linkedAt.toISOString(),
        lastLoginAt: r.lastLoginAt?.toISOString() ?? null,
      })),
      taxCodeVerifiedAt: verifiedAt?.toISOString() ?? null,
      taxCodeVerifiedSource: verifiedSource,
    };
  });
}
