import { USER_ADMIN_MESSAGES, type UserAction } from '@portale/shared/users';
import { withTransaction, type Tx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { ServiceContext } from '../../plugins/service-context.ts';
import { mayResendEmailLink, sendEmailVerification } from '../accounts/index.ts';
import { formatRomeDateTime } from '../../lib/format.ts';
import { revokeUserSessions, clearAccountThrottle, clearSecondFactorThrottle } from '../auth/index.ts';
import { enqueueMessage } from '../messages/index.ts';
import * as repo from './users.repository.ts';
import { conflict, lockTarget } from './users.service.ts';

interface ActionContext {
  tx: Tx;
  ctx: ServiceContext;
  target: repo.UserForUpdate;
  now: Date;
}

/** What an action changed, for the audit, and what to tell the staff member. */
interface ActionOutcome {
  action: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  message: string;
}

const ACTIONS: Record<UserAction, (ctx: ActionContext) => Promise<ActionOutcome>> = {
  async suspend({ tx, ctx, target, now }) {
    if (target.id === ctx.user.id) throw conflict('self_suspend', USER_ADMIN_MESSAGES.selfSuspend);
    if (target.status === 'suspended')
      throw conflict('already_suspended', USER_ADMIN_MESSAGES.alreadySuspended);
    await repo.updateUserFields(tx, target.id, { status: 'suspended' }, now);
    // A suspended user's tokens stop working at once (the token lookup also checks the status).
    const sessionsRevoked = await revokeUserSessions(tx, target.id, 'user.suspended', now);
    return {
      action: 'user.suspended',
      before: { status: 'active' },
      after: { status: 'suspended', sessionsRevoked },
      message: 'Utente sospeso: non può più accedere e le sue sessioni sono state chiuse.',
    };
  },

  async reactivate({ tx, target, now }) {
    if (target.status !== 'suspended') throw conflict('not_suspended', USER_ADMIN_MESSAGES.notSuspended);
    await repo.updateUserFields(tx, target.id, { status: 'active' }, now);
    return {
      action: 'user.reactivated',
      before: { status: 'suspended' },
      after: { status: 'active' },
      message: 'Utente riattivato: può di nuovo accedere.',
    };
  },

  async unlock({ tx, target, now }) {
    const lockedUntil = await repo.findLoginLock(tx, target, now);
    if (!lockedUntil) throw conflict('not_locked', USER_ADMIN_MESSAGES.notLocked);
    await clearAccountThrottle(tx, target.email);
    await clearSecondFactorThrottle(tx, target.id);
    return {
      action: 'auth.login.unlocked',
      before: { lockedUntil: lockedUntil.toISOString() },
      after: { lockedUntil: null },
      message: 'Accesso sbloccato: l’utente può riprovare subito.',
    };
  },

  async 'mfa-reset'({ tx, ctx, target, now }) {
    // Like one's own roles (issue 32): whoever holds a session and `manage:user` must not drop the
    // second factor that protects it. There is no self-service reset; another administrator does it.
    if (target.id === ctx.user.id)
      throw new HttpError(403, 'self_access_change', USER_ADMIN_MESSAGES.selfMfaReset);
    if (!(await repo.deleteMfaFactor(tx, target.id))) throw conflict('no_mfa', USER_ADMIN_MESSAGES.noMfa);
    await enqueueMessage(tx, {
      templateKey: 'email.mfa-reset',
      recipient: target.email,
      data: { firstName: target.firstName, when: formatRomeDateTime(now) },
      now,
    });
    return {
      action: 'auth.mfa.reset',
      before: { mfaEnrolled: true },
      after: { mfaEnrolled: false },
      message: 'Il secondo fattore è stato azzerato: l’utente lo configurerà al prossimo accesso.',
    };
  },

  async 'force-password-change'({ tx, target, now }) {
    if (target.mustChangePassword)
      throw conflict('already_must_change', USER_ADMIN_MESSAGES.alreadyMustChange);
    await repo.updateUserFields(tx, target.id, { mustChangePassword: true }, now);
    return {
      action: 'user.password_change_forced',
      before: { mustChangePassword: false },
      after: { mustChangePassword: true },
      message: 'Al prossimo accesso l’utente dovrà scegliere una nuova password.',
    };
  },

  async 'resend-verification'({ tx, ctx, target, now }) {
    if (target.emailVerified) throw conflict('already_verified', USER_ADMIN_MESSAGES.alreadyVerified);
    if (target.status === 'suspended') throw conflict('suspended', USER_ADMIN_MESSAGES.suspendedNoMail);
    if (!(await mayResendEmailLink(tx, target.id, now)))
      throw new HttpError(429, 'code_recently_sent', USER_ADMIN_MESSAGES.resendTooSoon);
    await sendEmailVerification(tx, target, now, ctx.webUrl);
    return {
      action: 'user.verification_resent',
      after: { email: target.email },
      message: `Collegamento di verifica inviato a ${target.email}.`,
    };
  },
};

/** Runs one action on a user, audited in the same transaction; answers the Italian outcome message. */
export function runUserAction(ctx: ServiceContext, userId: number, action: UserAction): Promise<string> {
  return withTransaction(ctx.db, async (tx) => {
    const target = await lockTarget(tx, ctx, userId);
    const outcome = await ACTIONS[action]({ tx, ctx, target, now: ctx.actor.at });
    await auditWrite(tx, ctx.actor, {
      action: outcome.action,
      entity: 'user',
      entityId: userId,
      before: outcome.before,
      after: outcome.after,
    });
    return outcome.message;
  });
}
