import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { ERROR_MESSAGES } from '@portale/shared/http';
import {
  cieCallback,
  cieStart,
  IDENTITY_RESULT_PATH,
  identityProviders,
  linkIdentity,
  myIdentities,
  pendingIdentity,
  unlinkIdentity,
  type IdentityFailure,
  type IdentityOutcome,
} from '@portale/shared/identity';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { HttpError } from '../../lib/http-error.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { withTransaction } from '../../db/transaction.ts';
import { authOf } from '../../plugins/authorization.ts';
import {
  accountKey,
  assertLoginAllowed,
  clearAccountThrottle,
  ipKey,
  recordLoginFailure,
  withAccountLock,
  findLoginAccount,
  openLoginSession,
} from '../auth/index.ts';
import { cieSettings, OidcRelyingParty } from './cie-client.ts';
import { decideLink, personOf, type VerifiedPerson } from './identity-linking.ts';
import {
  deleteIdentity,
  findLoginAttempt,
  findPendingIdentity,
  identitiesOfUser,
  insertIdentity,
  insertLoginAttempt,
  insertPendingIdentity,
  markTaxCodeVerified,
  touchIdentity,
  useLoginAttempt,
  usePendingIdentity,
} from './identity.repository.ts';

/** The browser cookie a login attempt is bound to, and the one naming a pending identity. */
export const IDENTITY_COOKIES = { login: 'identity.login', pending: 'identity.pending' } as const;
/** Minutes a started login may take at the provider, and a pending identity waits for its link or registration. */
export const LOGIN_ATTEMPT_MINUTES = 10;
export const PENDING_IDENTITY_MINUTES = 15;

const NOT_CONFIGURED = 'L’accesso con CIE non è attivo su questo portale.';
const NO_PENDING =
  'Nessuna identità CIE/SPID in attesa di collegamento in questo browser (scaduta o già usata). Riprova l’accesso con CIE.';
const PROVIDER_UNREACHABLE = 'Il gestore dell’identità non risponde. Riprova tra qualche minuto.';

/** Routes of the login with CIE (decision 048). Registered always; they answer 404 while CIE is not configured. */
export async function identityRoutes(app: FastifyInstance) {
  const { env } = app;
  const settings = cieSettings(env);
  const cie = settings ? new OidcRelyingParty(settings) : null;
  const secure = env.COOKIE_SECURE;
  const domain = env.COOKIE_DOMAIN ? { domain: env.COOKIE_DOMAIN } : {};
  const loginCookie = { httpOnly: true, secure, sameSite: 'lax' as const, path: '/api/auth/', ...domain };
  // Path /api/: the registration (`POST /api/registrations`) reads it too.
  const pendingCookie = { httpOnly: true, secure, sameSite: 'lax' as const, path: '/api/', ...domain };
  const limit = { rateLimit: { max: env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } };
  const policy = {
    slowDownAfter: env.LOGIN_SLOWDOWN_AFTER,
    lockAfter: env.LOGIN_LOCK_AFTER,
    lockMinutes: env.LOGIN_LOCK_MINUTES,
    ipMaxFailures: env.LOGIN_IP_MAX_FAILURES,
  };

  const resultUrl = (outcome: IdentityOutcome, failure?: IdentityFailure) =>
    `${env.publicWebUrl}${IDENTITY_RESULT_PATH}?esito=${outcome}${failure ? `&codice=${failure}` : ''}`;

  const requireCie = () => {
    if (!cie) throw new HttpError(404, 'not_found', NOT_CONFIGURED);
    return cie;
  };

  registerEndpoint(app, identityProviders, {}, async () => ({ cie: cie !== null, spid: false }));

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

  /** An audited failure: no session, the browser goes to the web's result page with the reason. */
  const fail = async (
    request: FastifyRequest,
    reply: FastifyReply,
    failure: IdentityFailure,
    extra: { userId?: number | null; detail?: Record<string, unknown> } = {},
  ) => {
    await app.audit({
      action: `identity.login.${failure}`,
      actorUserId: extra.userId ?? null,
      entity: 'identity',
      entityId: 'cie',
      ...(extra.detail ? { after: extra.detail } : {}),
      ip: request.ip,
    });
    reply.clearCookie(IDENTITY_COOKIES.login, loginCookie);
    return reply.redirect(resultUrl('errore', failure), 302);
  };

  const signIn = async (request: FastifyRequest, reply: FastifyReply, userId: number) => {
    await openLoginSession(app, request, reply, userId, 'cie');
    reply.clearCookie(IDENTITY_COOKIES.login, loginCookie);
    return reply.redirect(resultUrl('accesso'), 302);
  };

  const holdPending = async (
    request: FastifyRequest,
    reply: FastifyReply,
    person: VerifiedPerson,
    userId: number | null,
  ) => {
    const token = randomToken();
    const now = app.clock.now();
    await insertPendingIdentity(app.db, {
      tokenHash: sha256(token),
      provider: person.provider,
      subject: person.subject,
      taxCode: person.taxCode,
      firstName: person.firstName,
      lastName: person.lastName,
      acr: person.acr,
      userId,
      attributes: person.attributes,
      now,
      expiresAt: new Date(now.getTime() + PENDING_IDENTITY_MINUTES * 60_000),
    });
    await app.audit({
      action: userId ? 'identity.link.pending' : 'identity.registration.pending',
      actorUserId: userId,
      entity: 'identity',
      entityId: person.provider,
      after: { taxCode: person.taxCode },
      ip: request.ip,
    });
    reply.clearCookie(IDENTITY_COOKIES.login, loginCookie);
    reply.setCookie(IDENTITY_COOKIES.pending, token, {
      ...pendingCookie,
      maxAge: PENDING_IDENTITY_MINUTES * 60,
    });
    return reply.redirect(resultUrl(userId ? 'collega' : 'registrazione'), 302);
  };

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
      const code = (error as { code?: unknown }).code;
      const network = error instanceof TypeError || code === 'ECONNREFUSED';
      request.log.warn({ err: error }, 'CIE answer refused');
      return fail(request, reply, network ? 'provider_unreachable' : 'token_invalid', {
        detail: { reason: typeof code === 'string' ? code : 'unknown', message: (error as Error).message },
      });
    }

    const person = personOf('cie', answer);
    if ('failure' in person)
      return fail(request, reply, person.failure, person.detail ? { detail: person.detail } : {});
    const decision = await decideLink(app.db, person);
    switch (decision.kind) {
      case 'refused':
        return fail(request, reply, decision.failure, {
          userId: decision.userId,
          detail: { taxCode: person.taxCode, ...decision.detail },
        });
      case 'known':
        await touchIdentity(app.db, decision.identityId, person.acr, now);
        return signIn(request, reply, decision.userId);
      case 'link-verified':
        await insertIdentity(app.db, { ...identityRow(person), userId: decision.userId }, now);
        await app.audit({
          action: 'identity.linked',
          actorUserId: decision.userId,
          entity: 'user',
          entityId: decision.userId,
          after: { provider: person.provider, acr: person.acr },
          ip: request.ip,
        });
        return signIn(request, reply, decision.userId);
      case 'link-with-password':
        return holdPending(request, reply, person, decision.userId);
      case 'register':
        return holdPending(request, reply, person, null);
    }
  });

  const pendingOf = async (request: FastifyRequest) => {
    const token = request.cookies[IDENTITY_COOKIES.pending];
    const row = token ? await findPendingIdentity(app.db, sha256(token), app.clock.now()) : undefined;
    if (!row) throw new HttpError(404, 'not_found', NO_PENDING);
    return row;
  };

  registerEndpoint(app, pendingIdentity, {}, async (request) => {
    requireCie();
    const row = await pendingOf(request);
    return {
      provider: row.provider,
      kind: row.userId ? ('link' as const) : ('register' as const),
      firstName: row.firstName,
      lastName: row.lastName,
      taxCode: row.taxCode,
      accountEmailHint: row.accountEmail ? emailHint(row.accountEmail) : null,
      expiresAt: row.expiresAt.toISOString(),
    };
  });

  registerEndpoint(app, linkIdentity, { config: limit }, async (request, reply) => {
    requireCie();
    const row = await pendingOf(request);
    if (!row.userId || !row.accountEmail) throw new HttpError(404, 'not_found', NO_PENDING);
    const email = row.accountEmail.toLowerCase();
    const keys = { account: accountKey(email), ip: ipKey(request.ip) };
    // The password proves control of the account: the same throttle and lock as the password login.
    const outcome = await withAccountLock(app.db, keys.account, async (db) => {
      await assertLoginAllowed(db, keys, app.clock.now(), policy);
      const found = await findLoginAccount(db, email);
      const ok =
        found?.id === row.userId && (await verifyPassword(found.passwordHash, request.body.password));
      if (!ok || found.status !== 'active') {
        await recordLoginFailure(db, keys, app.clock.now(), policy);
        return false;
      }
      await clearAccountThrottle(db, email);
      return true;
    });
    if (!outcome) {
      await app.audit({
        action: 'identity.link.failed',
        actorUserId: row.userId,
        entity: 'user',
        entityId: row.userId,
        ip: request.ip,
      });
      throw new HttpError(401, 'invalid_credentials', ERROR_MESSAGES.badCredentials);
    }
    const now = app.clock.now();
    const userId = row.userId;
    const linked = await withTransaction(app.db, async (tx) => {
      if (!(await usePendingIdentity(tx, row.id, now))) return false;
      await insertIdentity(
        tx,
        { userId, provider: row.provider, subject: row.subject, taxCode: row.taxCode, acr: row.acr },
        now,
      );
      await markTaxCodeVerified(tx, userId, row.taxCode, row.provider, now);
      return true;
    });
    if (!linked) throw new HttpError(404, 'not_found', NO_PENDING);
    await app.audit({
      action: 'account.tax_code.verified',
      actorUserId: userId,
      entity: 'user',
      entityId: userId,
      after: { taxCode: row.taxCode, source: row.provider, at: now.toISOString() },
      ip: request.ip,
    });
    await app.audit({
      action: 'identity.linked',
      actorUserId: userId,
      entity: 'user',
      entityId: userId,
      after: { provider: row.provider, acr: row.acr, proof: 'password' },
      ip: request.ip,
    });
    reply.clearCookie(IDENTITY_COOKIES.pending, pendingCookie);
    return openLoginSession(app, request, reply, userId, row.provider);
  });

  // The user's own identity only (the session's user, no id in the path): nobody unlinks another's.
  registerEndpoint(app, unlinkIdentity, {}, async (request) => {
    const { user } = authOf(request);
    const { provider } = request.params;
    if (!(await deleteIdentity(app.db, user.id, provider)))
      throw new HttpError(404, 'not_found', 'Nessuna identità di questo tipo è collegata al tuo account.');
    await app.audit({
      action: 'identity.unlinked',
      actorUserId: user.id,
      entity: 'user',
      entityId: user.id,
      after: { provider },
      ip: request.ip,
    });
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

const identityRow = (person: VerifiedPerson) => ({
  provider: person.provider,
  subject: person.subject,
  taxCode: person.taxCode,
  acr: person.acr,
});

/** `mario.rossi@scuola.it` → `m***@scuola.it`. */
export function emailHint(email: string): string {
  const at = email.indexOf('@');
  return at <= 0 ? '***' : `${email[0]}***${email.slice(at)}`;
}
