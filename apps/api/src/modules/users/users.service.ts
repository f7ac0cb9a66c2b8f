import { maskPhone, normalizeMobilePhone } from '@portale/shared/accounts';
import { ROLE_LABELS, PERMISSION_LABELS } from '@portale/shared/auth';
import { coversGrants, USER_ADMIN_MESSAGES, type UserCreate, type UserUpdate } from '@portale/shared/users';
import { withTransaction, type DbOrTx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { randomToken } from '../../lib/crypto.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { ServiceContext } from '../../plugins/service-context.ts';
import { sendEmailVerification, issuePasswordLink } from '../accounts/index.ts';
import { resendPendingInvitationsTo } from '../enrolment/index.ts';
import { enqueueMessage } from '../messages/index.ts';
import * as repo from './users.repository.ts';

/** The invitation link of a new user is valid for a week (a reset link for an hour). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;

export const notFound = () => new HttpError(404, 'not_found', USER_ADMIN_MESSAGES.notFound);
export const conflict = (code: string, message: string) => new HttpError(409, code, message);

type Access = { roles: readonly string[]; permissions: readonly string[] };

/** Locks and reads the target, refusing a user whose grants the actor does not hold (403). */
export async function lockTarget(tx: DbOrTx, ctx: ServiceContext, userId: number) {
  const target = await repo.findUserForUpdate(tx, userId);
  if (!target) throw notFound();
  if (!coversGrants(ctx.user, target)) throw new HttpError(403, 'forbidden', USER_ADMIN_MESSAGES.moreGrants);
  return target;
}

function assertMayAssign(ctx: ServiceContext, access: Access) {
  if (!coversGrants(ctx.user, access)) throw new HttpError(403, 'forbidden', USER_ADMIN_MESSAGES.escalation);
}

/** A unique index refused the row (the driver's error, or Drizzle's wrapper of it). */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

function accessLabel(access: UserCreate): string {
  return [
    ...access.roles.map((r) => ROLE_LABELS[r]),
    ...access.permissions.map((p) => PERMISSION_LABELS[p]),
  ].join(', ');
}

/**
 * Creates the user with a random unusable password, roles and direct permissions, and queues the
 * invitation to choose a password, audited, in one transaction. The address is unique
 * case-insensitively (422 on `email`).
 */
export async function createUser(ctx: ServiceContext, input: UserCreate): Promise<number> {
  assertMayAssign(ctx, input);
  const passwordHash = await hashPassword(randomToken(32));
  const now = ctx.actor.at;
  const inviter = ctx.user;
  try {
    return await withTransaction(ctx.db, async (tx) => {
      if (await repo.isEmailTaken(tx, input.email)) throw fieldError('email', USER_ADMIN_MESSAGES.emailTaken);
      const user = await repo.insertUser(
        tx,
        { email: input.email, firstName: input.firstName, lastName: input.lastName, passwordHash },
        now,
      );
      await repo.replaceUserAccess(tx, user.id, input);
      await issuePasswordLink(tx, user, {
        now,
        ip: ctx.actor.ip ?? '',
        webUrl: ctx.webUrl,
        ttlMs: INVITATION_TTL_MS,
        templateKey: 'email.invito',
        data: {
          inviterName: `${inviter.firstName} ${inviter.lastName}`,
          rolesLabel: accessLabel(input),
          forgotLink: `${ctx.webUrl}/auth/forgot-password`,
        },
      });
      await auditWrite(tx, ctx.actor, {
        action: 'user.created',
        entity: 'user',
        entityId: user.id,
        after: { ...input },
      });
      return user.id;
    });
  } catch (error) {
    // Two creations of the same address at once: the unique index decides, the answer is the same.
    if (isUniqueViolation(error)) throw fieldError('email', USER_ADMIN_MESSAGES.emailTaken);
    throw error;
  }
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * Changes names, roles and direct permissions; the audit keeps only what changed (actor, before and
 * after). Nobody gives what they do not hold (403 `forbidden`), and nobody changes their own roles or
 * permissions (403 `self_access_change`): a grant always comes from someone else (users README).
 */
export async function updateUser(ctx: ServiceContext, userId: number, changes: UserUpdate): Promise<void> {
  try {
    await applyUserUpdate(ctx, userId, changes);
  } catch (error) {
    // Two changes to the same address at once: the unique index decides.
    if (isUniqueViolation(error)) throw fieldError('email', USER_ADMIN_MESSAGES.emailTaken);
    throw error;
  }
}

async function applyUserUpdate(ctx: ServiceContext, userId: number, changes: UserUpdate): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const target = await lockTarget(tx, ctx, userId);
    const next = {
      roles: changes.roles ?? target.roles,
      permissions: changes.permissions ?? target.permissions,
    };
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const key of ['firstName', 'lastName'] as const) {
      if (changes[key] !== undefined && changes[key] !== target[key])
        [before[key], after[key]] = [target[key], changes[key]];
    }
    for (const key of ['roles', 'permissions'] as const) {
      if (changes[key] && !sameList(changes[key], target[key]))
        [before[key], after[key]] = [target[key], changes[key]];
    }
    // A corrected e-mail address (a typo at enrolment or registration): unique, verified again, the old address told.
    const newEmail =
      changes.email !== undefined && changes.email !== target.email.toLowerCase() ? changes.email : undefined;
    if (newEmail !== undefined) {
      if (await repo.isEmailTaken(tx, newEmail)) throw fieldError('email', USER_ADMIN_MESSAGES.emailTaken);
      [before.email, after.email] = [target.email, newEmail];
    }
    // A corrected mobile number: verified again by SMS (the portal asks at the next sign-in); the person is told by e-mail.
    let newPhone: string | undefined;
    if (changes.phone !== undefined) {
      newPhone = normalizeMobilePhone(changes.phone);
      if (!newPhone) throw fieldError('phone', 'Inserisci un numero di cellulare valido.');
      if (newPhone === target.phone) newPhone = undefined;
      else [before.phone, after.phone] = [target.phone, newPhone];
    }
    if (Object.keys(after).length === 0) return;
    if (newPhone !== undefined) {
      const now = ctx.actor.at;
      await repo.changePhone(tx, userId, newPhone, now);
      await enqueueMessage(tx, {
        templateKey: 'email.cellulare-cambiato',
        recipient: newEmail ?? target.email,
        data: {
          firstName: target.firstName,
          phoneMasked: maskPhone(newPhone),
          contactLink: `${ctx.webUrl}/contatti`,
        },
        now,
      });
      // The old number is told too: a change nobody asked for does not go unnoticed (decision 047).
      if (target.phone)
        await enqueueMessage(tx, {
          templateKey: 'sms.cellulare-cambiato',
          recipient: target.phone,
          data: {
            changedBy: 'dallo staff del portale',
            phoneMasked: maskPhone(newPhone),
            contactLink: `${ctx.webUrl}/contatti`,
          },
          now,
        });
    }
    if (newEmail !== undefined) {
      const now = ctx.actor.at;
      await repo.changeEmail(tx, userId, newEmail, now);
      await sendEmailVerification(
        tx,
        { id: userId, email: newEmail, firstName: target.firstName },
        now,
        ctx.webUrl,
      );
      await enqueueMessage(tx, {
        templateKey: 'email.indirizzo-cambiato',
        recipient: target.email,
        data: {
          firstName: target.firstName,
          newEmail,
          changedBy: 'dallo staff del portale',
          contactLink: `${ctx.webUrl}/contatti`,
        },
        now,
      });
      // A pending invitation to an institute follows the account: the corrected address gets it (decision 047).
      await resendPendingInvitationsTo(tx, { id: userId, email: newEmail }, now, ctx.webUrl);
    }
    if (after.roles || after.permissions) {
      if (target.id === ctx.user.id)
        throw new HttpError(403, 'self_access_change', USER_ADMIN_MESSAGES.selfAccessChange);
      assertMayAssign(ctx, next);
      await repo.replaceUserAccess(tx, userId, {
        ...(after.roles ? { roles: next.roles } : {}),
        ...(after.permissions ? { permissions: next.permissions } : {}),
      });
    }
    const names = {
      ...(after.firstName ? { firstName: after.firstName as string } : {}),
      ...(after.lastName ? { lastName: after.lastName as string } : {}),
    };
    await repo.updateUserFields(tx, userId, names, ctx.actor.at);
    await auditWrite(tx, ctx.actor, {
      action: 'user.updated',
      entity: 'user',
      entityId: userId,
      before,
      after,
    });
  });
}
