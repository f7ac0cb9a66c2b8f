import { normalizeTaxCode } from '@portale/shared/accounts';
import { ROLE_LABELS } from '@portale/shared/auth';
import {
  ENROLMENT_INVITATION_MESSAGES as M,
  ENROLMENT_INVITATION_TTL_DAYS,
  HANDOVER_ROLE_LABELS,
  type EnrolmentInvitation,
} from '@portale/shared/enrolment';
import type { Db } from '../../db/client.ts';
import { withTransaction, type Tx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { ServiceContext } from '../../plugins/service-context.ts';
import { enqueueMessage } from '../messages/index.ts';
import * as repo from './enrolment.repository.ts';
import { completeHandover } from './handover.service.ts';

interface Context {
  userId: number;
  now: Date;
  ip: string;
  webUrl: string;
}

const asInvitation = (row: repo.InvitationView): EnrolmentInvitation => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

/** The signed-in user's pending invitations (the notice on `/portale`). */
export async function myInvitations(db: Db, userId: number, now: Date): Promise<EnrolmentInvitation[]> {
  return (await repo.pendingInvitationsOf(db, userId, now)).map(asInvitation);
}

/** The invitation locked for a decision by its owner: 404 unknown, 403 someone else's, 409 decided. */
async function lockOwnPending(
  tx: Parameters<typeof repo.lockInvitation>[0],
  invitationId: number,
  ctx: Context,
) {
  const invitation = await repo.lockInvitation(tx, invitationId);
  if (!invitation) throw new HttpError(404, 'not_found', M.notFound);
  if (invitation.userId !== ctx.userId) throw new HttpError(403, 'forbidden', M.notYours);
  if (invitation.state === 'annullato') throw new HttpError(409, 'invitation_cancelled', M.cancelled);
  if (invitation.state !== 'in_attesa') throw new HttpError(409, 'invitation_decided', M.decided);
  return invitation;
}

async function decided(db: Db, invitationId: number, message: string) {
  const view = await repo.findInvitationView(db, invitationId);
  return { invitation: asInvitation(view!), message };
}

/**
 * Accepts an invitation (issue 32). The roles are granted and the institute linked only when the
 * owner is signed in, the invitation is pending and unexpired, the account is not staff's, the
 * codice fiscale typed in the enrolment is the account's, the institute is still in the programme
 * and its place (principal, first contact) is free or already theirs. Any refusal changes nothing.
 */
export async function acceptInvitation(db: Db, invitationId: number, ctx: Context) {
  const { now } = ctx;
  const replacedUserId = await withTransaction(db, async (tx): Promise<number | null> => {
    const invitation = await lockOwnPending(tx, invitationId, ctx);
    if (invitation.expiresAt.getTime() <= now.getTime())
      throw new HttpError(409, 'invitation_expired', M.expired);
    if (await repo.isStaffAccount(tx, ctx.userId)) throw new HttpError(422, 'staff_account', M.staffAccount);
    const account = await repo.accountIdentity(tx, ctx.userId);
    if (!account?.taxCode || normalizeTaxCode(account.taxCode) !== normalizeTaxCode(invitation.taxCode)) {
      throw new HttpError(422, 'tax_code_mismatch', M.taxCodeMismatch);
    }
    const institute = await repo.lockInstitutePeople(tx, invitation.instituteId);
    if (!institute || institute.adhesionState === 'respinto' || institute.adhesionState === 'ritirato') {
      throw new HttpError(409, 'institute_closed', M.instituteClosed);
    }
    // A handover (decision 047): the invited person takes the place of whoever holds it.
    if (invitation.kind === 'passaggio') {
      const replaced = await completeHandover(tx, invitation, institute, ctx);
      await repo.decideInvitation(tx, invitation.id, 'accettato', now);
      await auditWrite(
        tx,
        { userId: ctx.userId, ip: ctx.ip ?? null, at: now },
        {
          action: 'enrolment.invitation_accepted',
          entity: 'enrolment_invitation',
          entityId: invitation.id,
          after: { instituteId: institute.id, roles: invitation.roles, replacedUserId: replaced },
        },
      );
      return replaced;
    }
    const asPrincipal = invitation.roles.includes('school.principal');
    const asContact = invitation.roles.includes('institute.first-contact');
    const taken = (holder: number | null) => holder !== null && holder !== ctx.userId;
    if (
      (asPrincipal && taken(institute.principalUserId)) ||
      (asContact && taken(institute.firstContactUserId))
    ) {
      throw new HttpError(409, 'role_taken', M.roleTaken);
    }
    for (const role of invitation.roles) await repo.grantRole(tx, ctx.userId, role);
    if (asPrincipal) await repo.setInstitutePerson(tx, institute.id, { principalUserId: ctx.userId }, now);
    if (asContact) await repo.setInstitutePerson(tx, institute.id, { firstContactUserId: ctx.userId }, now);
    await repo.decideInvitation(tx, invitation.id, 'accettato', now);
    await auditWrite(
      tx,
      { userId: ctx.userId, ip: ctx.ip ?? null, at: now },
      {
        action: 'enrolment.invitation_accepted',
        entity: 'enrolment_invitation',
        entityId: invitation.id,
        after: { instituteId: institute.id, roles: invitation.roles },
      },
    );
    return null;
  });
  return { ...(await decided(db, invitationId, M.accepted)), replacedUserId };
}

/** Declines an invitation: nothing changes on the account or the institute. */
export async function declineInvitation(db: Db, invitationId: number, ctx: Context) {
  await withTransaction(db, async (tx) => {
    const invitation = await lockOwnPending(tx, invitationId, ctx);
    await repo.decideInvitation(tx, invitation.id, 'rifiutato', ctx.now);
    await auditWrite(
      tx,
      { userId: ctx.userId, ip: ctx.ip ?? null, at: ctx.now },
      {
        action: 'enrolment.invitation_declined',
        entity: 'enrolment_invitation',
        entityId: invitation.id,
        after: { instituteId: invitation.instituteId },
      },
    );
  });
  return decided(db, invitationId, M.declined);
}

/** The e-mail of an invitation to an existing account, to the account's address (`data.email`). */
async function enqueueInvitationMail(
  tx: Tx,
  data: NonNullable<Awaited<ReturnType<typeof repo.invitationMailData>>>,
  now: Date,
  webUrl: string,
) {
  const common = {
    instituteName: data.instituteName,
    ministryCode: data.ministryCode,
    firstName: data.firstName,
    link: `${webUrl}/portale`,
    days: String(ENROLMENT_INVITATION_TTL_DAYS),
    forgotLink: `${webUrl}/auth/forgot-password`,
  };
  await enqueueMessage(tx, {
    recipient: data.email,
    now,
    ...(data.kind === 'passaggio'
      ? {
          templateKey: 'email.passaggio-invito-account',
          data: {
            ...common,
            roleLabel: HANDOVER_ROLE_LABELS[data.roles[0]!].toLowerCase(),
            inviterName: data.inviterName ?? 'Lo staff del portale',
          },
        }
      : {
          templateKey: 'email.iscrizione-invito-account',
          data: { ...common, rolesLabel: data.roles.map((r) => ROLE_LABELS[r]).join(' e ') },
        }),
  });
}

/**
 * Staff corrected the account's address (decision 041): its pending, unexpired invitations go again to
 * the corrected address (same expiry), so a typo at the enrolment does not leave them unread (decision 047).
 */
export async function resendPendingInvitationsTo(
  tx: Tx,
  user: { id: number; email: string },
  now: Date,
  webUrl: string,
): Promise<number> {
  const pending = await repo.pendingInvitationsOf(tx, user.id, now);
  for (const invitation of pending) {
    const data = (await repo.invitationMailData(tx, invitation.id))!;
    await enqueueInvitationMail(tx, { ...data, email: user.email }, now, webUrl);
  }
  return pending.length;
}

// --- Staff (issue 32): send a pending invitation again, or cancel it ---

const DAY_MS = 24 * 60 * 60_000;

/** The invitation locked for a staff action: 404 unknown, 409 no longer pending. */
async function lockPending(tx: Parameters<typeof repo.lockInvitation>[0], invitationId: number) {
  const invitation = await repo.lockInvitation(tx, invitationId);
  if (!invitation) throw new HttpError(404, 'not_found', M.notFound);
  if (invitation.state !== 'in_attesa') throw new HttpError(409, 'invitation_not_pending', M.notPending);
  return invitation;
}

async function staffOutcome(ctx: ServiceContext, invitationId: number, message: string) {
  const invitation = await repo.findStaffInvitation(ctx.db, invitationId, ctx.actor.at);
  return { invitation: invitation!, message };
}

/**
 * Sends a pending invitation again (expired or not): the same e-mail as at the enrolment, and 30 more
 * days from now to accept it. Audited with the staff member who did it.
 */
export async function resendInvitation(ctx: ServiceContext, invitationId: number) {
  const now = ctx.actor.at;
  const email = await withTransaction(ctx.db, async (tx) => {
    const invitation = await lockPending(tx, invitationId);
    const data = (await repo.invitationMailData(tx, invitationId))!;
    const expiresAt = new Date(now.getTime() + ENROLMENT_INVITATION_TTL_DAYS * DAY_MS);
    await repo.extendInvitation(tx, invitationId, expiresAt);
    await enqueueInvitationMail(tx, data, now, ctx.webUrl);
    await auditWrite(tx, ctx.actor, {
      action: 'enrolment.invitation_resent',
      entity: 'enrolment_invitation',
      entityId: invitationId,
      before: { expiresAt: invitation.expiresAt.toISOString() },
      after: { expiresAt: expiresAt.toISOString(), email: data.email },
    });
    return data.email;
  });
  return staffOutcome(ctx, invitationId, M.resent(email));
}

/** Cancels a pending invitation: it can no longer be accepted; nothing changes on the account or the institute. Audited. */
export async function cancelInvitationByStaff(ctx: ServiceContext, invitationId: number) {
  await withTransaction(ctx.db, async (tx) => {
    const invitation = await lockPending(tx, invitationId);
    await repo.cancelInvitation(tx, invitationId, ctx.actor.at);
    await auditWrite(tx, ctx.actor, {
      action: 'enrolment.invitation_cancelled',
      entity: 'enrolment_invitation',
      entityId: invitationId,
      before: { state: invitation.state },
      after: { state: 'annullato', userId: invitation.userId, instituteId: invitation.instituteId },
    });
  });
  return staffOutcome(ctx, invitationId, M.cancelledByStaff);
}
