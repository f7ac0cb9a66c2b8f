import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  DELETION_REQUEST_ANSWER,
  EMAIL_CHANGE_MESSAGES,
  exportAccount,
  getAccountProfile,
  normalizeTaxCode,
  PROFILE_MESSAGES,
  requestAccountDeletion,
  requestEmailChange,
  updateAccountProfile,
} from '@portale/shared/accounts';
import { withTransaction } from '../../db/transaction.ts';
import { writeAudit } from '../../lib/audit.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { TAX_CODE_VERIFIED_MESSAGE, taxCodeVerifiedSource } from '../identity/index.ts';
import { HttpError } from '../../lib/http-error.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { authOf } from '../../plugins/authorization.ts';
import {
  accountKey,
  assertLoginAllowed,
  clearAccountThrottle,
  ipKey,
  recordLoginFailure,
  withAccountLock,
} from '../auth/index.ts';
import { enqueueMessage } from '../messages/index.ts';
import { submitForReview } from '../review-queue/index.ts';
import { exportAccountData } from './account-export.repository.ts';
import { mayResendEmailLink, sendEmailVerification } from './email-verification.service.ts';
import { isAddressTaken } from './email-verification.repository.ts';
import * as profiles from './account-profile.repository.ts';
import { findOpenDeletionRequest, insertDeletionRequest } from './deletion-requests.repository.ts';
import { romeDateStamp } from '../../lib/export.ts';
import { formatRomeDateTime } from '../../lib/format.ts';
import { findPasswordUser } from './password.repository.ts';
import { schoolSiteExists } from './school-sites.repository.ts';

/** The signed-in user's own account: any role, also before the registration is complete (contracts say `'signed-in'`). */
export async function accountRoutes(app: FastifyInstance) {
  const notFound = () => new HttpError(404, 'not_found', 'Account non trovato.');

  registerEndpoint(app, getAccountProfile, {}, async (request) => {
    return (await profiles.findAccountProfile(app.db, authOf(request).user.id)) ?? Promise.reject(notFound());
  });

  const throttle = {
    slowDownAfter: app.env.LOGIN_SLOWDOWN_AFTER,
    lockAfter: app.env.LOGIN_LOCK_AFTER,
    lockMinutes: app.env.LOGIN_LOCK_MINUTES,
    ipMaxFailures: app.env.LOGIN_IP_MAX_FAILURES,
  };

  /**
   * The current password of the signed-in user, checked as a login is: one attempt of the account at
   * a time, refused (429) while the account is slowed down or locked, and each wrong password counted
   * with the login failures of the account and the IP (it may lock the account like a login would).
   */
  async function assertCurrentPassword(request: FastifyRequest, password: string | undefined) {
    const { user } = authOf(request);
    if (!password) throw fieldError('current_password', PROFILE_MESSAGES.currentPasswordRequired);
    const keys = { account: accountKey(user.email), ip: ipKey(request.ip) };
    const outcome = await withAccountLock(app.db, keys.account, async (db) => {
      try {
        await assertLoginAllowed(db, keys, app.clock.now(), throttle);
      } catch (error) {
        return { kind: 'throttled' as const, error };
      }
      const found = await findPasswordUser(db, user.id);
      if (!(await verifyPassword(found?.passwordHash, password))) {
        return {
          kind: 'failed' as const,
          locked: await recordLoginFailure(db, keys, app.clock.now(), throttle),
        };
      }
      await clearAccountThrottle(db, user.email);
      return { kind: 'ok' as const };
    });
    if (outcome.kind === 'throttled') throw outcome.error;
    if (outcome.kind === 'failed') {
      await app.audit({
        action: 'account.tax_code.change_failed',
        actorUserId: user.id,
        entity: 'user',
        entityId: user.id,
        after: { locked: outcome.locked },
        ip: request.ip,
      });
      throw fieldError('current_password', PROFILE_MESSAGES.currentPasswordWrong);
    }
  }

  registerEndpoint(app, updateAccountProfile, {}, async (request) => {
    const userId = authOf(request).user.id;
    const now = app.clock.now();
    const { schoolSiteId, current_password: currentPassword, ...rest } = request.body;
    const changes = { ...rest, ...(schoolSiteId === undefined ? {} : { schoolSiteId }) };
    if (changes.taxCode) {
      const current = (await profiles.findAccountProfile(app.db, userId))?.taxCode;
      const changed = current && normalizeTaxCode(current) !== changes.taxCode;
      // A codice fiscale proved by CIE/SPID is not typed over (decision 048).
      if (changed && (await taxCodeVerifiedSource(app.db, userId)))
        throw fieldError('taxCode', TAX_CODE_VERIFIED_MESSAGE);
      if (changed) await assertCurrentPassword(request, currentPassword);
    }
    if (schoolSiteId && !(await schoolSiteExists(app.db, schoolSiteId)))
      throw fieldError('schoolSiteId', 'Il plesso scelto non esiste.');
    await withTransaction(app.db, async (tx) => {
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
      await writeAudit(
        tx,
        {
          action: 'account.profile.updated',
          actorUserId: userId,
          entity: 'user',
          entityId: userId,
          after: { fields, ...review },
          ip: request.ip,
        },
        now,
      );
    });
    return (await profiles.findAccountProfile(app.db, userId)) ?? Promise.reject(notFound());
  });

  // A change of one's own e-mail (decision 041): the password, then a link to the new address; the
  // account moves to it only when the link is opened (confirmEmailToken), and the old address is told then.
  registerEndpoint(
    app,
    requestEmailChange,
    { config: { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } } },
    async (request) => {
      const { user } = authOf(request);
      const now = app.clock.now();
      const { email } = request.body;
      await assertCurrentPassword(request, request.body.current_password);
      if (email === user.email.toLowerCase()) throw fieldError('email', EMAIL_CHANGE_MESSAGES.same);
      if (await isAddressTaken(app.db, email)) throw fieldError('email', EMAIL_CHANGE_MESSAGES.taken);
      if (!(await mayResendEmailLink(app.db, user.id, now)))
        throw new HttpError(429, 'email_links_exhausted', EMAIL_CHANGE_MESSAGES.tooMany);
      await withTransaction(app.db, async (tx) => {
        await sendEmailVerification(
          tx,
          { id: user.id, email, firstName: user.firstName },
          now,
          app.env.publicWebUrl,
          { changeRequest: true },
        );
        await writeAudit(
          tx,
          {
            action: 'account.email.change_requested',
            actorUserId: user.id,
            entity: 'user',
            entityId: user.id,
            after: { email },
            ip: request.ip,
          },
          now,
        );
      });
      return { message: EMAIL_CHANGE_MESSAGES.sent };
    },
  );

  registerEndpoint(app, exportAccount, {}, async (request, reply) => {
    const userId = authOf(request).user.id;
    const data = await exportAccountData(app.db, userId);
    if (!data) throw notFound();
    await app.audit({
      action: 'account.exported',
      actorUserId: userId,
      entity: 'user',
      entityId: userId,
      ip: request.ip,
    });
    const day = romeDateStamp(app.clock.now());
    reply.header('content-disposition', `attachment; filename="portale-scuole-dati-${day}.json"`);
    return { exportedAt: app.clock.now().toISOString(), ...data };
  });

  registerEndpoint(app, requestAccountDeletion, {}, async (request) => {
    const { user } = authOf(request);
    const now = app.clock.now();
    const open = await findOpenDeletionRequest(app.db, user.id);
    const requestedAt =
      open?.createdAt ??
      (await withTransaction(app.db, async (tx) => {
        const row = await insertDeletionRequest(tx, user.id, request.body.reason ?? null, now);
        await enqueueMessage(tx, {
          templateKey: 'email.cancellazione-richiesta',
          recipient: user.email,
          data: { firstName: user.firstName, when: formatRomeDateTime(now) },
          now,
        });
        await writeAudit(
          tx,
          {
            action: 'account.deletion_requested',
            actorUserId: user.id,
            entity: 'deletion_request',
            entityId: row.id,
            ip: request.ip,
          },
          now,
        );
        return row.createdAt;
      }));
    return {
      status: 'received' as const,
      requestedAt: requestedAt.toISOString(),
      message: DELETION_REQUEST_ANSWER,
    };
  });
}
