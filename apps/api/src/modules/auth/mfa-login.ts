import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LoginResponse } from '@portale/shared/accounts';
import { openSecret, sealSecret } from '../../lib/secret-box.ts';
import { findAuthUser } from './session-user.repository.ts';
import { CHALLENGE_TTL_SECONDS, createChallenge, findFactor, savePendingFactor } from './mfa.repository.ts';
import { newTotpSecret, totpUri } from './totp.ts';

/** True when one of the user's roles is listed in MFA_ROLES. */
export async function needsSecondFactor(app: FastifyInstance, userId: number): Promise<boolean> {
  const user = await findAuthUser(app.db, userId);
  return Boolean(user?.roles.some((role) => app.env.mfaRoles.includes(role)));
}

/**
 * After a correct password: for a user whose role needs MFA, the second step (verify, or enrol at the
 * first login) instead of a session; undefined for everyone else.
 */
export async function beginSecondFactor(
  app: FastifyInstance,
  request: FastifyRequest,
  userId: number,
): Promise<LoginResponse | undefined> {
  if (!(await needsSecondFactor(app, userId))) return undefined;
  const now = app.clock.now();
  const factor = await findFactor(app.db, userId);
  const challenge = { userId, now, ip: request.ip, userAgent: request.headers['user-agent'] };
  if (factor?.enabledAt) {
    const mfaToken = await createChallenge(app.db, { ...challenge, purpose: 'verify' });
    await app.audit({
      action: 'auth.mfa.challenge',
      actorUserId: userId,
      entity: 'user',
      entityId: userId,
      ip: request.ip,
    });
    return { mfa_required: true, mfa_token: mfaToken, expires_in: CHALLENGE_TTL_SECONDS };
  }
  const secret = newTotpSecret();
  await savePendingFactor(app.db, userId, sealSecret(app.env.APP_SECRET, secret), now);
  const mfaToken = await createChallenge(app.db, { ...challenge, purpose: 'enrol' });
  await app.audit({
    action: 'auth.mfa.enrolment_started',
    actorUserId: userId,
    entity: 'user',
    entityId: userId,
    ip: request.ip,
  });
  const user = await findAuthUser(app.db, userId);
  return {
    mfa_enrolment_required: true,
    mfa_token: mfaToken,
    expires_in: CHALLENGE_TTL_SECONDS,
    secret,
    otpauth_uri: totpUri(secret, user?.email ?? String(userId)),
  };
}

export function secretOf(app: FastifyInstance, sealed: string): string {
  return openSecret(app.env.APP_SECRET, sealed);
}
