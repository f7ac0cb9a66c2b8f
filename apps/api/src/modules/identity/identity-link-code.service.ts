// Proving the account by a code sent to its confirmed e-mail, instead of its password (issue 38: "its
// password, or a code to its verified e-mail"), before a verified SPID/CIE identity is linked to an
// account whose codice fiscale was only typed by hand.
import { randomInt } from 'node:crypto';
import { IDENTITY_PROVIDER_SHORT_LABELS } from '@portale/shared/identity';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
import type { Clock } from '../../lib/clock.ts';
import { hmac, safeEqual } from '../../lib/crypto.ts';
import { HttpError } from '../../lib/http-error.ts';
import { assertResendGap } from '../../lib/resend-gap.ts';
import { enqueueMessage } from '../messages/index.ts';
import { addLinkCodeFailure, setLinkCode } from './identity-link-code.repository.ts';
import { completeLink, type PendingIdentity } from './identity.service.ts';

export const LINK_CODE_TTL_MS = 10 * 60_000;
export const LINK_CODE_RESEND_GAP_MS = 60_000;
/** Codes one pending identity may be sent (it lives 15 minutes). */
export const MAX_LINK_CODES = 3;
/** Wrong codes before the pending identity is used up (the person starts again from the provider). */
export const MAX_LINK_CODE_FAILURES = 5;

type Deps = { db: Db; clock: Clock; secret: string };

/** `mario.rossi@scuola.it` → `m***@scuola.it`. */
export function emailHint(email: string): string {
  const at = email.indexOf('@');
  return at <= 0 ? '***' : `${email[0]}***${email.slice(at)}`;
}

/** Bound to the pending identity: a code cannot serve another login. */
const codeHash = (secret: string, pendingId: number, code: string) =>
  hmac(secret, `identity-link|${pendingId}|${code}`);

/** A code may go to the account's e-mail only when the account is active and its e-mail confirmed. */
export const codeAvailable = (pending: PendingIdentity) =>
  !!pending.userId &&
  !!pending.accountEmail &&
  !!pending.accountEmailVerifiedAt &&
  pending.accountStatus === 'active';

/** Sends a code to the account's confirmed e-mail (within the limits), audited. */
export async function sendLinkCode(
  deps: Deps,
  actor: Actor,
  pending: PendingIdentity,
): Promise<{ sentTo: string; validMinutes: number }> {
  if (!codeAvailable(pending))
    throw new HttpError(
      409,
      'code_unavailable',
      'L’indirizzo e-mail dell’account non è confermato: collega l’identità con la password dell’account.',
    );
  const now = deps.clock.now();
  assertResendGap(pending.linkCodeSentAt, LINK_CODE_RESEND_GAP_MS, now);
  if (pending.linkCodesSent >= MAX_LINK_CODES)
    throw new HttpError(
      429,
      'code_limit',
      `Hai già chiesto ${MAX_LINK_CODES} codici per questo accesso: accedi di nuovo con SPID o CIE, oppure usa la password.`,
    );
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const email = pending.accountEmail!;
  await withTransaction(deps.db, async (tx) => {
    await setLinkCode(tx, pending.id, {
      hash: codeHash(deps.secret, pending.id, code),
      sentAt: now,
      expiresAt: new Date(now.getTime() + LINK_CODE_TTL_MS),
    });
    await enqueueMessage(tx, {
      templateKey: 'email.codice-collegamento',
      recipient: email,
      data: {
        firstName: pending.accountFirstName ?? '',
        code,
        provider: IDENTITY_PROVIDER_SHORT_LABELS[pending.provider],
        minutes: String(LINK_CODE_TTL_MS / 60_000),
      },
      now,
    });
    await auditWrite(
      tx,
      { ...actor, userId: pending.userId, at: now },
      {
        action: 'identity.link.code_sent',
        entity: 'user',
        entityId: pending.userId!,
        after: { provider: pending.provider },
      },
    );
  });
  return { sentTo: emailHint(email), validMinutes: LINK_CODE_TTL_MS / 60_000 };
}

/** Links the pending identity when the code is right (10 minutes, 5 wrong tries), audited. */
export async function linkWithCode(
  deps: Deps,
  actor: Actor,
  pending: PendingIdentity,
  code: string,
): Promise<{ ok: true; userId: number } | { ok: false; reason: 'gone' }> {
  if (!pending.userId || !codeAvailable(pending)) return { ok: false, reason: 'gone' };
  const now = deps.clock.now();
  if (!pending.linkCodeHash || !pending.linkCodeExpiresAt)
    throw new HttpError(422, 'code_missing', 'Chiedi prima il codice: lo invieremo all’e-mail dell’account.');
  if (pending.linkCodeExpiresAt <= now)
    throw new HttpError(422, 'code_expired', 'Il codice è scaduto: chiedi un nuovo codice.');
  const who = { userId: pending.userId, ip: actor.ip };
  if (!safeEqual(pending.linkCodeHash, codeHash(deps.secret, pending.id, code))) {
    const failures = await addLinkCodeFailure(deps.db, pending.id, MAX_LINK_CODE_FAILURES, now);
    await auditWrite(
      deps.db,
      { ...who, at: now },
      { action: 'identity.link.code_wrong', entity: 'user', entityId: pending.userId, after: { failures } },
    );
    const left = MAX_LINK_CODE_FAILURES - failures;
    throw new HttpError(
      422,
      'code_invalid',
      left > 0
        ? `Il codice non è corretto. Tentativi rimasti: ${left}.`
        : 'Il codice non è corretto e questo accesso non è più valido: accedi di nuovo con SPID o CIE.',
    );
  }
  return completeLink(deps, who, pending, 'email_code');
}
