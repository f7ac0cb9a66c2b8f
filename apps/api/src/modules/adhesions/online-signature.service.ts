// The online signature: a 6-digit SMS code bound to the document, then the signature recorded.
import { randomInt, randomUUID } from 'node:crypto';
import { maskPhone } from '@portale/shared/accounts';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { hmac, safeEqual } from '../../lib/crypto.ts';
import { HttpError } from '../../lib/http-error.ts';
import { assertResendGap } from '../../lib/resend-gap.ts';
import { enqueueMessage } from '../messages/index.ts';
import * as repo from './adhesions.repository.ts';

/** The states in which the document may be (re)generated and signed. */
import {
  CODE_TTL_MS,
  MAX_CODES_PER_DAY,
  MAX_WRONG_TRIES,
  MESSAGES,
  RESEND_GAP_MS,
  recordSignature,
  signingContext,
} from './adhesion-signing.service.ts';

function codeHash(secret: string, challengeId: string, code: string): string {
  return hmac(secret, `adhesion-signature|${challengeId}|${code}`);
}

/** Sends the principal a 6-digit code bound to the document they are about to sign. */
export async function startOnlineSignature(
  db: Db,
  secret: string,
  input: { instituteId: number; userId: number; documentSha256: string; now: Date; ip: string },
) {
  const { now } = input;
  const { data, principal, document } = await signingContext(
    db,
    input.instituteId,
    input.userId,
    input.documentSha256,
  );
  if (!principal.phone || !principal.phoneVerifiedAt)
    throw new HttpError(409, 'phone_unverified', MESSAGES.noPhone);
  const activity = await repo.challengeActivity(db, input.userId, new Date(now.getTime() - 86_400_000));
  assertResendGap(activity.last, RESEND_GAP_MS, now);
  if (activity.countSince >= MAX_CODES_PER_DAY) {
    throw new HttpError(
      429,
      'daily_code_limit',
      `Hai chiesto ${MAX_CODES_PER_DAY} codici nelle ultime 24 ore: riprova domani.`,
      { 'retry-after': '86400' },
    );
  }
  const id = randomUUID();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await withTransaction(db, async (tx) => {
    await repo.insertChallenge(tx, {
      id,
      userId: input.userId,
      documentId: document.id,
      phone: principal.phone!,
      codeHash: codeHash(secret, id, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    });
    await enqueueMessage(tx, {
      templateKey: 'sms.firma-adesione',
      recipient: principal.phone!,
      data: { code, ministryCode: data.ministryCode },
      now,
    });
    await auditWrite(
      tx,
      { userId: input.userId, ip: input.ip, at: now },
      {
        action: 'adhesion.signature.code_sent',
        entity: 'institute',
        entityId: input.instituteId,
        after: { documentVersion: document.version },
      },
    );
  });
  return {
    challengeId: id,
    phoneMasked: maskPhone(principal.phone),
    expiresInSeconds: CODE_TTL_MS / 1000,
    resendAfterSeconds: RESEND_GAP_MS / 1000,
  };
}

/** Checks the SMS code (≤ 5 wrong tries, 10 minutes, single use) and records the online signature. */
export async function confirmOnlineSignature(
  db: Db,
  ctx: { secret: string; webUrl: string },
  input: {
    instituteId: number;
    userId: number;
    challengeId: string;
    code: string;
    documentSha256: string;
    now: Date;
    ip: string;
  },
): Promise<number> {
  const { now } = input;
  const challenge = await repo.findChallenge(db, input.challengeId, input.userId);
  if (!challenge) throw new HttpError(404, 'challenge_not_found', MESSAGES.challengeNotFound);
  if (challenge.usedAt) throw new HttpError(409, 'challenge_used', MESSAGES.challengeUsed);
  if (challenge.failedAttempts >= MAX_WRONG_TRIES)
    throw new HttpError(422, 'code_exhausted', MESSAGES.codeExhausted);
  if (challenge.expiresAt <= now) throw new HttpError(422, 'code_expired', MESSAGES.codeExpired);
  if (!safeEqual(challenge.codeHash, codeHash(ctx.secret, challenge.id, input.code))) {
    await repo.addChallengeFailure(db, challenge.id);
    await auditWrite(
      db,
      { userId: input.userId, ip: input.ip, at: now },
      { action: 'adhesion.signature.code_wrong', entity: 'institute', entityId: input.instituteId },
    );
    const left = MAX_WRONG_TRIES - challenge.failedAttempts - 1;
    throw new HttpError(
      422,
      'code_invalid',
      left > 0
        ? `Il codice non è corretto. Tentativi rimasti: ${left}.`
        : 'Il codice non è corretto e non è più valido: chiedi un nuovo codice.',
    );
  }
  const challengeDocument = await repo.findDocumentPdf(db, challenge.documentId);
  if (challengeDocument?.sha256 !== input.documentSha256)
    throw new HttpError(409, 'document_changed', MESSAGES.documentChanged);
  return recordSignature(db, ctx.webUrl, {
    instituteId: input.instituteId,
    userId: input.userId,
    method: 'online',
    documentSha256: input.documentSha256,
    at: now,
    ip: input.ip,
    before: async (tx) => {
      if (!(await repo.useChallenge(tx, challenge.id, now)))
        throw new HttpError(409, 'challenge_used', MESSAGES.challengeUsed);
    },
  });
}
