import {
  EMAIL_CHANGE_MESSAGES,
  normalizeTaxCode,
  PROFILE_MESSAGES,
  type AccountProfile,
  type EmailChangeBodySchema,
  type UpdateProfileBodySchema,
} from '@portale/shared/accounts';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
import type { Clock } from '../../lib/clock.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { formatRomeDateTime } from '../../lib/format.ts';
import { HttpError } from '../../lib/http-error.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import {
  accountKey,
  assertLoginAllowed,
  clearAccountThrottle,
  ipKey,
  recordLoginFailure,
  withAccountLock,
} from '../auth/index.ts';
import { TAX_CODE_VERIFIED_MESSAGE, taxCodeVerifiedSource } from '../identity/index.ts';
import { enqueueMessage } from '../messages/index.ts';
import { submitForReview } from '../review-queue/index.ts';
import { exportAccountData } from './account-export.repository.ts';
import * as profiles from './account-profile.repository.ts';
import { findOpenDeletionRequest, insertDeletionRequest } from './deletion-requests.repository.ts';
import { isAddressTaken } from './email-verification.repository.ts';
import { mayResendEmailLink, sendEmailVerification } from './email-verification.service.ts';
import { findPasswordUser } from './password.repository.ts';
import { schoolSiteExists } from './school-sites.repository.ts';

/** What the account's own flows need: the database, the clock, the login throttle's policy, the web's URL. */
export interface AccountDeps {
  db: Db;
  clock: Clock;
  throttle: Parameters<typeof assertLoginAllowed>[3];
  webUrl: string;
}

/** The signed-in user, as the session knows them. */
export interface AccountUser {
  id: number;
  email: string;
  firstName: string;
}

/**
 * The current password of the signed-in user, checked as a login is: one attempt of the account at
 * a time, refused (429) while the account is slowed down or locked, and each wrong password counted
 * with the login failures of the account and the IP (it may lock the account like a login would).
 */
async function assertCurrentPassword(
  deps: AccountDeps,
  actor: Actor,
  user: AccountUser,
  password: string | undefined,
) {
  const { clock, throttle } = deps;
  if (!password) throw fieldError('current_password', PROFILE_MESSAGES.currentPasswordRequired);
  const keys = { account: accountKey(user.email), ip: ipKey(actor.ip ?? '') };
  const outcome = await withAccountLock(deps.db, keys.account, async (db) => {
    try {
      await assertLoginAllowed(db, keys, clock.now(), throttle);
    } catch (error) {
      return { kind: 'throttled' as const, error };
    }
    const found = await findPasswordUser(db, user.id);
    if (!(await verifyPassword(found?.passwordHash, password))) {
      return {
        kind: 'failed' as const,
        locked: await recordLoginFailure(db, keys, clock.now(), throttle),
      };
    }
    await clearAccountThrottle(db, user.email);
    return { kind: 'ok' as const };
  });
  if (outcome.kind === 'throttled') throw outcome.error;
  if (outcome.kind === 'failed') {
    // Outside any transaction, at the moment of the refusal.
    await auditWrite(
      deps.db,
      { userId: user.id, ip: actor.ip, at: clock.now() },
      {
        action: 'account.tax_code.change_failed',
        entity: 'user',
        entityId: user.id,
        after: { locked: outcome.locked },
      },
    );
    throw fieldError('current_password', PROFILE_MESSAGES.currentPasswordWrong);
  }
}

/**
 * Saves the signed-in user's own profile. A changed codice fiscale needs the current password and
 * is refused when CIE/SPID proved it (decision 048); an approved teacher moving to another plesso,
 * or correcting what the staff asked, goes back to the review queue (decision 029). Returns the
 * profile as it is now (`undefined` when the account is gone).
 */
export async function updateProfile(
  deps: AccountDeps,
  actor: Actor,
  user: AccountUser,
  body: z.output<typeof UpdateProfileBodySchema>,
): Promise<AccountProfile | undefined> {
  const { db } = deps;
  const userId = user.id;
  const now = actor.at;
  const { schoolSiteId, current_password: currentPassword, ...rest } = body;
  const changes = { ...rest, ...(schoolSiteId === undefined ? {} : { schoolSiteId }) };
  if (changes.taxCode) {
    const current = (await profiles.findAccountProfile(db, userId))?.taxCode;
    const changed = current && normalizeTaxCode(current) !== changes.taxCode;
    // A codice fiscale proved by CIE/SPID is not typed over (decision 048).
    if (changed && (await taxCodeVerifiedSource(db, userId)))
      throw fieldError('taxCode', TAX_CODE_VERIFIED_MESSAGE);
    if (changed) await assertCurrentPassword(deps, actor, user, currentPassword);
  }
  if (schoolSiteId && !(await schoolSiteExists(db, schoolSiteId)))
    throw fieldError('schoolSiteId', 'Il plesso scelto non esiste.');
  await withTransaction(db, async (tx) => {
    // An approved teacher moving to another plesso is reviewed again for it (decision 029).
    const moved = schoolSiteId
      ? await profiles.reopenReviewAfterMove(tx, userId, schoolSiteId, now)
      : undefined;
    await profiles.updateAccountProfile(tx, userId, changes, now);
    const fields = Object.keys(changes);
    // Corrections asked by the staff: the registration goes back to the review queue.
    const reopened =
      moved ?? (fields.length ? await profiles.reopenReviewAfterChanges(tx, userId, now) : undefined);
    if (reopened !== undefined)
      await submitForReview(tx, { type: 'insegnanti', subjectId: reopened, at: now });
    const review = moved !== undefined ? { reviewState: 'in_attesa' } : {};
    await auditWrite(tx, actor, {
      action: 'account.profile.updated',
      entity: 'user',
      entityId: userId,
      after: { fields, ...review },
    });
  });
  return profiles.findAccountProfile(db, userId);
}

/**
 * A change of one's own e-mail (decision 041): the password, then a link to the new address; the
 * account moves to it only when the link is opened (confirmEmailToken), and the old address is told then.
 */
export async function requestEmailChange(
  deps: AccountDeps,
  actor: Actor,
  user: AccountUser,
  body: z.output<typeof EmailChangeBodySchema>,
): Promise<void> {
  const { db } = deps;
  const now = actor.at;
  const { email } = body;
  await assertCurrentPassword(deps, actor, user, body.current_password);
  if (email === user.email.toLowerCase()) throw fieldError('email', EMAIL_CHANGE_MESSAGES.same);
  if (await isAddressTaken(db, email)) throw fieldError('email', EMAIL_CHANGE_MESSAGES.taken);
  if (!(await mayResendEmailLink(db, user.id, now)))
    throw new HttpError(429, 'email_links_exhausted', EMAIL_CHANGE_MESSAGES.tooMany);
  await withTransaction(db, async (tx) => {
    await sendEmailVerification(tx, { id: user.id, email, firstName: user.firstName }, now, deps.webUrl, {
      changeRequest: true,
    });
    await auditWrite(tx, actor, {
      action: 'account.email.change_requested',
      entity: 'user',
      entityId: user.id,
      after: { email },
    });
  });
}

/**
 * The user's request to delete their account: stored, acknowledged by e-mail and audited together;
 * a second request while one is open changes nothing. Returns when the open request was made.
 */
export async function requestDeletion(
  db: Db,
  actor: Actor,
  user: AccountUser,
  reason: string | null,
): Promise<Date> {
  const now = actor.at;
  const open = await findOpenDeletionRequest(db, user.id);
  if (open) return open.createdAt;
  return withTransaction(db, async (tx) => {
    const row = await insertDeletionRequest(tx, user.id, reason, now);
    await enqueueMessage(tx, {
      templateKey: 'email.cancellazione-richiesta',
      recipient: user.email,
      data: { firstName: user.firstName, when: formatRomeDateTime(now) },
      now,
    });
    await auditWrite(tx, actor, {
      action: 'account.deletion_requested',
      entity: 'deletion_request',
      entityId: row.id,
    });
    return row.createdAt;
  });
}

/** Everything the portal holds about the user, for them to download; the download is audited. */
export async function exportAccount(db: Db, actor: Actor, userId: number) {
  const data = await exportAccountData(db, userId);
  if (!data) return undefined;
  await auditWrite(db, actor, { action: 'account.exported', entity: 'user', entityId: userId });
  return data;
}
