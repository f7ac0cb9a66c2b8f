import { can } from '@portale/shared/auth';
import {
  ENROLMENT_INVITATION_TTL_DAYS,
  HANDOVER_MESSAGES as M,
  HANDOVER_ROLE_LABELS,
  type EnrolmentInvitationRole,
} from '@portale/shared/enrolment';
import type { AdhesionState } from '@portale/shared/registry';
import type { z } from 'zod';
import type { HandoverBodySchema } from '@portale/shared/enrolment';
import { withTransaction, type Tx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { randomToken } from '../../lib/crypto.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { ServiceContext } from '../../plugins/service-context.ts';
import { formatRomeDateTime } from '../../lib/format.ts';
import { issuePasswordLink } from '../accounts/index.ts';
import { enqueueMessage } from '../messages/index.ts';
import * as enrolmentRepo from './enrolment.repository.ts';
import * as repo from './handover.repository.ts';

const DAY_MS = 24 * 60 * 60_000;
/** The password link of an account created by a handover lasts as the enrolment's (7 days). */
const PASSWORD_LINK_TTL_MS = 7 * DAY_MS;

/** The institutes whose people can no longer change: out of the programme. */
const CLOSED: readonly AdhesionState[] = ['respinto', 'ritirato'];

const holderOf = (
  institute: { principalUserId: number | null; firstContactUserId: number | null },
  role: EnrolmentInvitationRole,
) => (role === 'school.principal' ? institute.principalUserId : institute.firstContactUserId);

/**
 * Invites a new principal or first contact (decision 047). Staff who manage institutes name either;
 * the institute's principal names only a first contact (403 otherwise). Refused: an institute not
 * enrolled or out of the programme (409), the current holder (422 on `email`), a staff account (422 on
 * `email`). A new address gets an account (no role yet) and the password link; an existing account an
 * e-mail pointing to the portal. A pending invitation for the same role is replaced (cancelled).
 * Nothing changes on the institute until the invited person accepts.
 */
export async function createHandover(
  ctx: ServiceContext,
  instituteId: number,
  body: z.output<typeof HandoverBodySchema>,
) {
  const { actor, user: inviter, webUrl } = ctx;
  // Without `:any`, the caller passed as the institute's principal: a first contact only.
  if (!can(inviter, 'manage:institute') && body.role !== 'institute.first-contact')
    throw new HttpError(403, 'forbidden', M.principalOnlyForContact);
  const passwordHash = await hashPassword(randomToken(32));
  const now = actor.at;
  const result = await withTransaction(ctx.db, async (tx) => {
    const institute = await enrolmentRepo.lockInstitute(tx, instituteId);
    if (!institute) throw new HttpError(404, 'not_found', 'Istituto non trovato.');
    if (CLOSED.includes(institute.adhesionState))
      throw new HttpError(409, 'institute_closed', M.instituteClosed);
    if (institute.adhesionState === 'nessuna') throw new HttpError(409, 'not_enrolled', M.notEnrolled);
    const holder = holderOf(institute, body.role);

    let user = await enrolmentRepo.findUserByEmail(tx, body.email);
    let created = false;
    if (user) {
      if (user.id === holder) throw fieldError('email', M.currentHolder);
      if (await enrolmentRepo.isStaffAccount(tx, user.id)) throw fieldError('email', M.staffAccount);
    } else {
      user = await repo.insertInvitedUser(
        tx,
        {
          email: body.email,
          passwordHash,
          firstName: body.firstName,
          lastName: body.lastName,
          taxCode: body.taxCode,
        },
        now,
      );
      // A concurrent creation of the same address: the unique index decided; answer as for a taken one.
      if (!user) throw new HttpError(409, 'conflict', 'L’indirizzo è appena stato registrato: riprova.');
      created = true;
      await auditWrite(tx, actor, {
        action: 'user.created_by_handover',
        entity: 'user',
        entityId: user.id,
        after: { email: user.email, instituteId },
      });
    }

    const replaced = await repo.cancelPendingFor(tx, instituteId, body.role, now);
    for (const id of replaced)
      await auditWrite(tx, actor, {
        action: 'enrolment.invitation_replaced',
        entity: 'enrolment_invitation',
        entityId: id,
        before: { state: 'in_attesa' },
        after: { state: 'annullato' },
      });
    const invitationId = await enrolmentRepo.insertInvitation(tx, {
      kind: 'passaggio',
      enrolmentId: null,
      invitedByUserId: inviter.id,
      instituteId,
      userId: user.id,
      roles: [body.role],
      taxCode: body.taxCode,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ENROLMENT_INVITATION_TTL_DAYS * DAY_MS),
    });
    await auditWrite(tx, actor, {
      action: 'institute.handover_invited',
      entity: 'institute',
      entityId: instituteId,
      after: {
        invitationId,
        role: body.role,
        userId: user.id,
        email: user.email,
        accountCreated: created,
        holderUserId: holder,
        replacedInvitationIds: replaced,
      },
    });
    const data = {
      instituteName: institute.name,
      ministryCode: institute.ministryCode,
      roleLabel: HANDOVER_ROLE_LABELS[body.role].toLowerCase(),
      inviterName: `${inviter.firstName} ${inviter.lastName}`,
      days: String(ENROLMENT_INVITATION_TTL_DAYS),
      forgotLink: `${webUrl}/auth/forgot-password`,
    };
    if (created)
      await issuePasswordLink(tx, user, {
        now,
        ip: actor.ip ?? '',
        webUrl,
        ttlMs: PASSWORD_LINK_TTL_MS,
        templateKey: 'email.passaggio-invito',
        data,
      });
    else
      await enqueueMessage(tx, {
        templateKey: 'email.passaggio-invito-account',
        recipient: user.email,
        data: { ...data, firstName: user.firstName, link: `${webUrl}/portale` },
        now,
      });
    return { invitationId, email: user.email };
  });
  const invitation = (await repo.findHandover(ctx.db, instituteId, result.invitationId, now))!;
  return { invitation, message: M.created(result.email, ENROLMENT_INVITATION_TTL_DAYS) };
}

/** Cancels a pending handover of the institute (the principal: only a first contact's). Audited. */
export async function cancelHandover(ctx: ServiceContext, instituteId: number, invitationId: number) {
  const { actor } = ctx;
  const now = actor.at;
  await withTransaction(ctx.db, async (tx) => {
    const invitation = await enrolmentRepo.lockInvitation(tx, invitationId);
    if (!invitation || invitation.instituteId !== instituteId || invitation.kind !== 'passaggio')
      throw new HttpError(404, 'not_found', M.notFound);
    if (!can(ctx.user, 'manage:institute') && !invitation.roles.includes('institute.first-contact'))
      throw new HttpError(403, 'forbidden', M.principalOnlyForContact);
    if (invitation.state !== 'in_attesa') throw new HttpError(409, 'invitation_not_pending', M.notPending);
    await enrolmentRepo.cancelInvitation(tx, invitationId, now);
    await auditWrite(tx, actor, {
      action: 'institute.handover_cancelled',
      entity: 'institute',
      entityId: instituteId,
      before: { state: 'in_attesa' },
      after: { invitationId, state: 'annullato', userId: invitation.userId },
    });
  });
  const invitation = (await repo.findHandover(ctx.db, instituteId, invitationId, now))!;
  return { invitation, message: M.cancelled };
}

/** What the adhesion does when the principal changes (decision 047), for the audit and the notice. */
function adhesionAfterHandover(state: AdhesionState, role: EnrolmentInvitationRole) {
  if (role !== 'school.principal') return { kept: true, note: 'L’adesione dell’istituto non cambia.' };
  if (state === 'adesione_firmata' || state === 'attivo')
    return {
      kept: true,
      note: 'L’adesione che hai firmato resta valida: l’hai firmata quando eri il dirigente in carica.',
    };
  return {
    kept: false,
    note: 'Il documento di adesione non era ancora stato firmato: lo firmerà il nuovo dirigente, in una nuova versione con i suoi dati.',
  };
}

/**
 * The accepted handover (called in the acceptance's transaction, the institute locked): the new
 * person takes the place; the one replaced loses the role when they hold it in no other institute,
 * is told by e-mail, and the audit keeps what happened to the adhesion. Returns the replaced user id
 * (their cached sessions are dropped by the route), or `null`.
 */
export async function completeHandover(
  tx: Tx,
  invitation: { id: number; roles: EnrolmentInvitationRole[] },
  institute: {
    id: number;
    adhesionState: AdhesionState;
    principalUserId: number | null;
    firstContactUserId: number | null;
  },
  ctx: { userId: number; now: Date; ip: string; webUrl: string },
): Promise<number | null> {
  const role = invitation.roles[0]!;
  const previous = holderOf(institute, role);
  await enrolmentRepo.grantRole(tx, ctx.userId, role);
  await enrolmentRepo.setInstitutePerson(
    tx,
    institute.id,
    role === 'school.principal' ? { principalUserId: ctx.userId } : { firstContactUserId: ctx.userId },
    ctx.now,
  );
  const adhesion = adhesionAfterHandover(institute.adhesionState, role);
  let roleRevoked = false;
  if (previous !== null && previous !== ctx.userId) {
    roleRevoked = await repo.revokeRoleIfUnused(tx, previous, role);
    const person = await repo.personOf(tx, previous);
    const successor = await repo.personOf(tx, ctx.userId);
    const names = await enrolmentRepo.lockInstitute(tx, institute.id);
    if (person && successor && names)
      await enqueueMessage(tx, {
        templateKey: 'email.passaggio-concluso',
        recipient: person.email,
        data: {
          firstName: person.firstName,
          when: formatRomeDateTime(ctx.now),
          successorName: `${successor.firstName} ${successor.lastName}`,
          roleLabel: HANDOVER_ROLE_LABELS[role].toLowerCase(),
          instituteName: names.name,
          ministryCode: names.ministryCode,
          adhesionNote: adhesion.note,
          contactLink: `${ctx.webUrl}/contatti`,
        },
        now: ctx.now,
      });
  }
  await auditWrite(
    tx,
    { userId: ctx.userId, ip: ctx.ip ?? null, at: ctx.now },
    {
      action: 'institute.handover',
      entity: 'institute',
      entityId: institute.id,
      before: { [role === 'school.principal' ? 'principalUserId' : 'firstContactUserId']: previous },
      after: {
        [role === 'school.principal' ? 'principalUserId' : 'firstContactUserId']: ctx.userId,
        invitationId: invitation.id,
        adhesionState: institute.adhesionState,
        adhesionKept: adhesion.kept,
        previousRoleRevoked: roleRevoked,
      },
    },
  );
  return previous !== null && previous !== ctx.userId ? previous : null;
}
