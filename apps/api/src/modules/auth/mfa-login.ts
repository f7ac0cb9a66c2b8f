import type { LoginResponse } from '@portale/shared/accounts';
import { ACCEPTED_ACR } from '@portale/shared/identity';
import type { Env } from '../../env.ts';
import { auditWrite } from '../../lib/audit.ts';
import { openSecret, sealSecret } from '../../lib/secret-box.ts';
import type { LoginClient, LoginDeps } from './login.service.ts';
import { findAuthUser } from './session-user.repository.ts';
import { CHALLENGE_TTL_SECONDS, createChallenge, findFactor, savePendingFactor } from './mfa.repository.ts';
import { newTotpSecret, totpUri } from './totp.ts';

/** True when one of the user's roles is listed in MFA_ROLES. */
export async function needsSecondFactor(
  deps: Pick<LoginDeps, 'db' | 'env'>,
  userId: number,
): Promise<boolean> {
  const user = await findAuthUser(deps.db, userId);
  return Boolean(user?.roles.some((role) => deps.env.mfaRoles.includes(role)));
}

/**
 * Whether a session opened at this level (`acr`) counts as the second factor (issue 38): a SPID login
 * at level 2 or 3, or CIE (level 2 and above), does; a password login (no level) does not.
 */
export function levelCountsAsSecondFactor(acr: string | null | undefined): boolean {
  return typeof acr === 'string' && (ACCEPTED_ACR as readonly string[]).includes(acr);
}

/**
 * True when a session about to open at this level would lack the second factor the user's role needs
 * (MFA_ROLES): the SPID/CIE login is then refused, as a password login would be asked for TOTP.
 */
export async function lacksSecondFactor(
  deps: Pick<LoginDeps, 'db' | 'env'>,
  userId: number,
  acr: string | null | undefined,
): Promise<boolean> {
  return !levelCountsAsSecondFactor(acr) && (await needsSecondFactor(deps, userId));
}

/**
 * After a correct password: for a user whose role needs MFA, the second step (verify, or enrol at the
 * first login) instead of a session; undefined for everyone else.
 */
export async function beginSecondFactor(
  deps: LoginDeps,
  userId: number,
  client: LoginClient,
): Promise<LoginResponse | undefined> {
  const { db, env } = deps;
  if (!(await needsSecondFactor(deps, userId))) return undefined;
  const now = deps.clock.now();
  const actor = { userId, ip: client.ip, at: now };
  const factor = await findFactor(db, userId);
  const challenge = { userId, now, ip: client.ip, userAgent: client.userAgent };
  if (factor?.enabledAt) {
    const mfaToken = await createChallenge(db, { ...challenge, purpose: 'verify' });
    await auditWrite(db, actor, { action: 'auth.mfa.challenge', entity: 'user', entityId: userId });
    return { mfa_required: true, mfa_token: mfaToken, expires_in: CHALLENGE_TTL_SECONDS };
  }
  const secret = newTotpSecret();
  await savePendingFactor(db, userId, sealSecret(env.APP_SECRET, secret), now);
  const mfaToken = await createChallenge(db, { ...challenge, purpose: 'enrol' });
  await auditWrite(db, actor, { action: 'auth.mfa.enrolment_started', entity: 'user', entityId: userId });
  const user = await findAuthUser(db, userId);
  return {
    mfa_enrolment_required: true,
    mfa_token: mfaToken,
    expires_in: CHALLENGE_TTL_SECONDS,
    secret,
    otpauth_uri: totpUri(secret, user?.email ?? String(userId)),
  };
}

export function secretOf(env: Env, sealed: string): string {
  return openSecret(env.APP_SECRET, sealed);
}
