import { randomInt } from 'node:crypto';
import { maskPhone } from '@portale/shared/accounts';
import type { Db } from '../../db/client.ts';
import { withTransaction, type DbOrTx, type Tx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { hmac, safeEqual } from '../../lib/crypto.ts';
import { HttpError } from '../../lib/http-error.ts';
import { assertResendGap } from '../../lib/resend-gap.ts';
import { enqueueMessage } from '../messages/index.ts';
import * as repo from './phone-verification.repository.ts';
import type { PhoneVerificationRow } from './phone-verification.repository.ts';

export const CODE_TTL_MS = 10 * 60_000;
export const RESEND_GAP_MS = 60_000;
export const MAX_CODES_PER_DAY = 5;
export const MAX_WRONG_TRIES = 5;

/** Codes are stored as an HMAC bound to the verification id: a code cannot be moved to another number. */
function codeHash(secret: string, verificationId: string, code: string): string {
  return hmac(secret, `phone-code|${verificationId}|${code}`);
}

/** 429 when the number got a code in the last minute or five in the last 24 hours (counted in the outbox). */
async function assertMaySendCode(db: DbOrTx, phone: string, now: Date): Promise<void> {
  assertResendGap(await repo.lastCodeSentAt(db, phone), RESEND_GAP_MS, now);
  if (
    (await repo.countCodesSentSince(db, phone, new Date(now.getTime() - 86_400_000))) >= MAX_CODES_PER_DAY
  ) {
    throw new HttpError(
      429,
      'daily_code_limit',
      'Hai raggiunto il numero massimo di 5 codici al giorno per questo numero. Riprova domani.',
      { 'retry-after': '86400' },
    );
  }
}

/** Sends a fresh 6-digit code for a verification (new or existing) in one transaction with its SMS. */
async function issueCode(
  tx: Tx,
  secret: string,
  verification: { id: string; phone: string },
  now: Date,
): Promise<void> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await repo.setPhoneCode(tx, verification.id, {
    codeHash: codeHash(secret, verification.id, code),
    sentAt: now,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
  });
  await enqueueMessage(tx, { templateKey: 'sms.codice', recipient: verification.phone, data: { code }, now });
}

/** Starts a verification of `phone`, optionally bound to a user; returns its id. */
export async function startPhoneVerification(
  db: Db,
  secret: string,
  input: { phone: string; userId: number | null; now: Date; ip: string },
) {
  const { phone, userId, now } = input;
  await assertMaySendCode(db, phone, now);
  return withTransaction(db, async (tx) => {
    const row = await repo.insertPhoneVerification(tx, { userId, phone, now });
    await issueCode(tx, secret, row, now);
    await auditWrite(
      tx,
      { userId, ip: input.ip ?? null, at: now },
      { action: 'account.phone.code_sent', entity: 'phone_verification', entityId: row.id },
    );
    return row;
  });
}

/** A new code for the same verification (same limits). */
export async function resendPhoneCode(
  db: Db,
  secret: string,
  row: PhoneVerificationRow,
  now: Date,
  ip: string,
) {
  if (row.verifiedAt) throw new HttpError(409, 'already_verified', 'Questo numero è già stato verificato.');
  await assertMaySendCode(db, row.phone, now);
  await withTransaction(db, async (tx) => {
    await issueCode(tx, secret, row, now);
    await auditWrite(
      tx,
      { userId: row.userId, ip: ip ?? null, at: now },
      { action: 'account.phone.code_resent', entity: 'phone_verification', entityId: row.id },
    );
  });
}

/** Checks a code: ≤ 5 wrong tries, 10 minutes, single use. A user-bound check also verifies the user's phone. */
export async function confirmPhoneCode(
  db: Db,
  secret: string,
  row: PhoneVerificationRow,
  code: string,
  now: Date,
  ip: string,
  webUrl: string,
) {
  if (row.verifiedAt) throw new HttpError(409, 'already_verified', 'Questo numero è già stato verificato.');
  if (row.failedAttempts >= MAX_WRONG_TRIES) {
    throw new HttpError(
      422,
      'code_exhausted',
      'Hai sbagliato il codice troppe volte: chiedi un nuovo codice.',
    );
  }
  if (row.expiresAt <= now)
    throw new HttpError(422, 'code_expired', 'Il codice è scaduto: chiedi un nuovo codice.');
  if (!safeEqual(row.codeHash, codeHash(secret, row.id, code))) {
    await repo.addFailedAttempt(db, row.id);
    await auditWrite(
      db,
      { userId: row.userId, ip: ip ?? null, at: now },
      { action: 'account.phone.code_wrong', entity: 'phone_verification', entityId: row.id },
    );
    const left = MAX_WRONG_TRIES - row.failedAttempts - 1;
    throw new HttpError(
      422,
      'code_invalid',
      left > 0
        ? `Il codice non è corretto. Tentativi rimasti: ${left}.`
        : 'Il codice non è corretto e non è più valido: chiedi un nuovo codice.',
    );
  }
  await withTransaction(db, async (tx) => {
    if (!(await repo.markPhoneVerified(tx, row.id, now)))
      throw new HttpError(409, 'already_verified', 'Questo numero è già stato verificato.');
    if (row.userId) {
      const before = await repo.findUserPhone(tx, row.userId);
      await repo.setUserVerifiedPhone(tx, row.userId, row.phone, now);
      // The old number is told that the account now has another one (decision 047).
      if (before?.phone && before.phone !== row.phone)
        await enqueueMessage(tx, {
          templateKey: 'sms.cellulare-cambiato',
          recipient: before.phone,
          data: {
            changedBy: 'dal tuo profilo',
            phoneMasked: maskPhone(row.phone),
            contactLink: `${webUrl}/contatti`,
          },
          now,
        });
    }
    await auditWrite(
      tx,
      { userId: row.userId, ip: ip ?? null, at: now },
      { action: 'account.phone.verified', entity: 'phone_verification', entityId: row.id },
    );
  });
}
