import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IDENTITY_RESULT_PATH, type IdentityFailure, type IdentityOutcome } from '@portale/shared/identity';
import { actorOf } from '../../lib/audit.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { lacksSecondFactor, openLoginSession } from '../auth/index.ts';
import type { ProviderAnswer } from './cie-client.ts';
import { decideLink, personOf, type VerifiedPerson } from './identity-linking.ts';
import { keepLogoutKeys, logoutKeysOf } from './identity-sessions.ts';
import { touchIdentity, type IdentityProvider } from './identity.repository.ts';
import * as service from './identity.service.ts';

/** The browser cookies a login attempt is bound to (CIE, SPID), and the one naming a pending identity. */
export const IDENTITY_COOKIES = {
  login: 'identity.login',
  spidLogin: 'identity.spid',
  pending: 'identity.pending',
} as const;
/** Minutes a started login may take at the provider, and a pending identity waits for its link or registration. */
export const LOGIN_ATTEMPT_MINUTES = 10;
export const PENDING_IDENTITY_MINUTES = 15;

interface CookieOptions {
  httpOnly: true;
  secure: boolean;
  sameSite: 'lax' | 'none';
  path: string;
  domain?: string;
}

/** The cookie a login attempt is bound to: its name and options (set at the start, cleared at the end). */
export interface LoginCookie {
  name: string;
  options: CookieOptions;
}

/** The options of the identity cookies (HttpOnly; Secure as the environment says). */
export function identityCookieOptions(app: FastifyInstance, path: string, sameSite: 'lax' | 'none' = 'lax') {
  const { env } = app;
  return {
    httpOnly: true as const,
    secure: env.COOKIE_SECURE,
    sameSite,
    path,
    ...(env.COOKIE_DOMAIN ? { domain: env.COOKIE_DOMAIN } : {}),
  };
}

/**
 * What the end of a login at an identity provider does, the same for CIE and SPID (decisions 048,
 * 052): an audited failure and the web's result page with its code; or the linking rules on the
 * verified person (sign in, link, hold a pending link or registration). Clears the attempt's cookie.
 */
export function identityResponder(app: FastifyInstance, provider: IdentityProvider, login: LoginCookie) {
  const { env } = app;
  // Path /api/: the registration (`POST /api/registrations`) reads it too.
  const pendingCookie = identityCookieOptions(app, '/api/');

  const resultUrl = (outcome: IdentityOutcome, failure?: IdentityFailure) =>
    `${env.publicWebUrl}${IDENTITY_RESULT_PATH}?esito=${outcome}${failure ? `&codice=${failure}` : ''}`;

  /** An audited failure: no session, the browser goes to the web's result page with the reason. */
  const fail = async (
    request: FastifyRequest,
    reply: FastifyReply,
    failure: IdentityFailure,
    extra: { userId?: number | null; detail?: Record<string, unknown> } = {},
  ) => {
    const actor = { ...actorOf(request), userId: extra.userId ?? null };
    await service.auditLoginFailure(app.db, actor, provider, failure, extra.detail);
    reply.clearCookie(login.name, login.options);
    return reply.redirect(resultUrl('errore', failure), 302);
  };

  const signIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    userId: number,
    person: VerifiedPerson,
    answer: ProviderAnswer,
  ) => {
    // The session keeps its level and what the provider's logout needs (decisions 048, 052).
    const opened = keepLogoutKeys(app.db, logoutKeysOf(answer, env.APP_SECRET), app.clock.now());
    await openLoginSession(app, request, reply, userId, provider, { acr: person.acr, opened });
    reply.clearCookie(login.name, login.options);
    return reply.redirect(resultUrl('accesso'), 302);
  };

  const holdPending = async (
    request: FastifyRequest,
    reply: FastifyReply,
    person: VerifiedPerson,
    answer: ProviderAnswer,
    userId: number | null,
  ) => {
    const token = randomToken();
    const actor = actorOf(request);
    const expiresAt = new Date(actor.at.getTime() + PENDING_IDENTITY_MINUTES * 60_000);
    // A link opens its session later: the pending identity carries the provider's logout keys to it.
    const logoutKeys = userId ? logoutKeysOf(answer, env.APP_SECRET) : null;
    await service.holdPendingIdentity(app.db, actor, person, {
      userId,
      tokenHash: sha256(token),
      expiresAt,
      logoutKeys,
    });
    reply.clearCookie(login.name, login.options);
    reply.setCookie(IDENTITY_COOKIES.pending, token, {
      ...pendingCookie,
      maxAge: PENDING_IDENTITY_MINUTES * 60,
    });
    return reply.redirect(resultUrl(userId ? 'collega' : 'registrazione'), 302);
  };

  /** The linking rules (identity-linking.ts) on a provider's verified answer, and what follows. */
  const conclude = async (request: FastifyRequest, reply: FastifyReply, answer: ProviderAnswer) => {
    const now = app.clock.now();
    const person = personOf(provider, answer);
    if ('failure' in person)
      return fail(request, reply, person.failure, person.detail ? { detail: person.detail } : {});
    const decision = await decideLink(app.db, person);
    // Staff MFA by the session's level: SPID L2/L3 and CIE count as the second factor (issue 38).
    if (
      (decision.kind === 'known' || decision.kind === 'link-verified') &&
      (await lacksSecondFactor(app, decision.userId, person.acr))
    )
      return fail(request, reply, 'level_insufficient', {
        userId: decision.userId,
        detail: { acr: person.acr, reason: 'second_factor' },
      });
    switch (decision.kind) {
      case 'refused':
        return fail(request, reply, decision.failure, {
          userId: decision.userId,
          detail: { taxCode: person.taxCode, ...decision.detail },
        });
      case 'known':
        await touchIdentity(app.db, decision.identityId, person.acr, now);
        return signIn(request, reply, decision.userId, person, answer);
      case 'link-verified':
        await service.linkVerifiedIdentity(app.db, actorOf(request), person, decision.userId, now);
        return signIn(request, reply, decision.userId, person, answer);
      case 'link-with-password':
        return holdPending(request, reply, person, answer, decision.userId);
      case 'register':
        return holdPending(request, reply, person, answer, null);
    }
  };

  return { fail, conclude, pendingCookie };
}
