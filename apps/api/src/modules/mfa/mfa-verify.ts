import type { FastifyInstance } from 'fastify';
import type { MfaVerifyBody } from '@portale/shared/accounts/mfa';
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
  | { kind: 'wrong_code' }
  | { kind: 'ok'; userId: number; recoveryCodes?: string[] };

/** Checks the code of an MFA challenge; enrolment enables the factor and returns fresh recovery codes. */
export async function checkSecondFactor(app: FastifyInstance, body: MfaVerifyBody, ip: string): Promise<SecondFactorOutcome> {
  const now = app.clock.now();
  const challenge = await findLiveChallenge(app.db, body.mfa_token, now);
  if (!challenge) return { kind: 'invalid_challenge' };
  const factor = await findFactor(app.db, challenge.userId);
  if (!factor) return { kind: 'invalid_challenge' };
  const audit = (action: string, after?: unknown) =>
    app.audit({ action, actorUserId: challenge.userId, entity: 'user', entityId: challenge.userId, after, ip });

  let timeStep: number | null = null;
  let usedRecovery = false;
  if (body.code) {
    timeStep = await verifyTotp(secretOf(app, factor.secretEncrypted), body.code, now, factor.lastTimeStep);
  } else if (body.recovery_code && challenge.purpose === 'verify') {
    const hash = hashRecoveryCode(body.recovery_code);
    usedRecovery = factor.recoveryCodeHashes.includes(hash);
    if (usedRecovery) await saveRecoveryCodeHashes(app.db, factor.userId, factor.recoveryCodeHashes.filter((h) => h !== hash));
  }
  if (timeStep === null && !usedRecovery) {
    await countChallengeFailure(app.db, challenge.id);
    await audit('auth.mfa.failed');
    return { kind: 'wrong_code' };
  }
  if (!(await consumeChallenge(app.db, challenge.id, now))) return { kind: 'invalid_challenge' };
  if (timeStep !== null) await saveLastTimeStep(app.db, factor.userId, timeStep);

  if (challenge.purpose === 'enrol') {
    const recoveryCodes = newRecoveryCodes();
    await enableFactor(app.db, factor.userId, now, recoveryCodes.map(hashRecoveryCode));
    await audit('auth.mfa.enrolled');
    return { kind: 'ok', userId: challenge.userId, recoveryCodes };
  }
  await audit(usedRecovery ? 'auth.mfa.recovery_code_used' : 'auth.mfa.verified', usedRecovery ? { remaining: factor.recoveryCodeHashes.length - 1 } : undefined);
  return { kind: 'ok', userId: challenge.userId };
}
