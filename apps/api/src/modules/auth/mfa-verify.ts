import type { MfaVerifyBody } from '@portale/shared/accounts/mfa';
import type { Db } from '../../db/client.ts';
import { auditWrite } from '../../lib/audit.ts';
import { formatRomeDateTime } from '../../lib/format.ts';
import { loginPolicy, type LoginDeps } from './login.service.ts';
import {
  assertLoginAllowed,
  clearSecondFactorThrottle,
  ipKey,
  recordLoginFailure,
  secondFactorKey,
  withAccountLock,
} from './login-throttle.ts';
import { findAuthUser } from './session-user.repository.ts';
import { enqueueMessage } from '../messages/index.ts';
import { secretOf } from './mfa-login.ts';
import {
  consumeChallenge,
  countChallengeFailure,
  enableFactor,
  findFactor,
  findLiveChallenge,
  saveLastTimeStep,
  saveRecoveryCodeHashes,
} from './mfa.repository.ts';
import { hashRecoveryCode, newRecoveryCodes, verifyTotp } from './totp.ts';

export type SecondFactorOutcome =
  | { kind: 'invalid_challenge' }
  | { kind: 'throttled'; error: unknown }
  | { kind: 'wrong_code' }
  | { kind: 'ok'; userId: number; recoveryCodes?: string[] };

type CheckOutcome =
  | { kind: 'invalid_challenge' }
  | { kind: 'throttled'; userId: number; error: unknown }
  | { kind: 'wrong_code'; userId: number; locked: boolean }
  | {
      kind: 'ok';
      userId: number;
      purpose: 'verify' | 'enrol';
      usedRecovery: boolean;
      remaining: number;
      recoveryCodes?: string[];
    };

/**
 * Checks the code of an MFA challenge; enrolment enables the factor and returns fresh recovery codes.
 * Wrong codes (TOTP or recovery) count per account across challenges with the password's policy
 * (`LOGIN_SLOWDOWN_AFTER`, `LOGIN_LOCK_AFTER`, `LOGIN_LOCK_MINUTES`, and the IP's
 * `LOGIN_IP_MAX_FAILURES`): a new challenge per right password no longer means 5 fresh guesses. The
 * lock is told to the user by e-mail (`email.mfa-bloccato`): their password is known to someone.
 */
export async function checkSecondFactor(
  deps: LoginDeps,
  body: MfaVerifyBody,
  ip: string,
): Promise<SecondFactorOutcome> {
  const first = await findLiveChallenge(deps.db, body.mfa_token, deps.clock.now());
  if (!first) return { kind: 'invalid_challenge' };
  const keys = { account: secondFactorKey(first.userId), ip: ipKey(ip) };
  // One code of an account at a time, across instances, as for passwords (withAccountLock).
  const outcome = await withAccountLock(deps.db, keys.account, (db) => checkCode(deps, db, body, keys));
  if (outcome.kind === 'invalid_challenge') return outcome;
  const audit = (action: string, after?: unknown) =>
    auditWrite(
      deps.db,
      { userId: outcome.userId, ip, at: deps.clock.now() },
      { action, entity: 'user', entityId: outcome.userId, after },
    );
  if (outcome.kind === 'throttled') {
    await audit('auth.mfa.throttled');
    return { kind: 'throttled', error: outcome.error };
  }
  if (outcome.kind === 'wrong_code') {
    await audit('auth.mfa.failed');
    if (outcome.locked) await audit('auth.mfa.locked');
    return { kind: 'wrong_code' };
  }
  if (outcome.purpose === 'enrol') {
    await audit('auth.mfa.enrolled');
    return {
      kind: 'ok',
      userId: outcome.userId,
      ...(outcome.recoveryCodes ? { recoveryCodes: outcome.recoveryCodes } : {}),
    };
  }
  await audit(
    outcome.usedRecovery ? 'auth.mfa.recovery_code_used' : 'auth.mfa.verified',
    outcome.usedRecovery ? { remaining: outcome.remaining } : undefined,
  );
  return { kind: 'ok', userId: outcome.userId };
}

async function checkCode(
  deps: LoginDeps,
  db: Db,
  body: MfaVerifyBody,
  keys: { account: string; ip: string },
): Promise<CheckOutcome> {
  const now = deps.clock.now();
  const policy = loginPolicy(deps.env);
  // Read again under the lock: a parallel code of the same challenge may have used or exhausted it.
  const challenge = await findLiveChallenge(db, body.mfa_token, now);
  if (!challenge) return { kind: 'invalid_challenge' };
  const factor = await findFactor(db, challenge.userId);
  if (!factor) return { kind: 'invalid_challenge' };
  const userId = challenge.userId;
  try {
    await assertLoginAllowed(db, keys, now, policy);
  } catch (error) {
    return { kind: 'throttled', userId, error };
  }

  let timeStep: number | null = null;
  let usedRecovery = false;
  if (body.code) {
    timeStep = await verifyTotp(
      secretOf(deps.env, factor.secretEncrypted),
      body.code,
      now,
      factor.lastTimeStep,
    );
  } else if (body.recovery_code && challenge.purpose === 'verify') {
    const hash = hashRecoveryCode(body.recovery_code);
    usedRecovery = factor.recoveryCodeHashes.includes(hash);
    if (usedRecovery)
      await saveRecoveryCodeHashes(
        db,
        factor.userId,
        factor.recoveryCodeHashes.filter((h) => h !== hash),
      );
  }
  if (timeStep === null && !usedRecovery) {
    await countChallengeFailure(db, challenge.id);
    const locked = await recordLoginFailure(db, keys, now, policy);
    if (locked) await tellLocked(db, userId, now, deps.env.publicWebUrl, policy.lockMinutes);
    return { kind: 'wrong_code', userId, locked };
  }
  if (!(await consumeChallenge(db, challenge.id, now))) return { kind: 'invalid_challenge' };
  if (timeStep !== null) await saveLastTimeStep(db, factor.userId, timeStep);
  await clearSecondFactorThrottle(db, userId);

  if (challenge.purpose === 'enrol') {
    const recoveryCodes = newRecoveryCodes();
    await enableFactor(db, factor.userId, now, recoveryCodes.map(hashRecoveryCode));
    return {
      kind: 'ok',
      userId,
      purpose: 'enrol',
      usedRecovery: false,
      remaining: recoveryCodes.length,
      recoveryCodes,
    };
  }
  return {
    kind: 'ok',
    userId,
    purpose: 'verify',
    usedRecovery,
    remaining: factor.recoveryCodeHashes.length - 1,
  };
}

/** The e-mail of a second factor locked by wrong codes, in the transaction that counted the failure. */
async function tellLocked(db: Db, userId: number, now: Date, webUrl: string, lockMinutes: number) {
  const user = await findAuthUser(db, userId);
  if (!user) return;
  await enqueueMessage(db, {
    templateKey: 'email.mfa-bloccato',
    recipient: user.email,
    data: {
      firstName: user.firstName,
      when: formatRomeDateTime(now),
      lockMinutes: String(lockMinutes),
      forgotLink: `${webUrl}/auth/forgot-password`,
    },
    now,
  });
}
