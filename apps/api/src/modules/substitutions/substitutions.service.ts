import {
  canTransitionSubstitution,
  romeToday,
  SUBSTITUTION_MESSAGES,
  type SubstitutionCreateSchema,
  type SubstitutionDecisionSchema,
  type SubstitutionSummary,
} from '@portale/shared/substitutions';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { withTransaction, type Tx } from '../../db/transaction.ts';
import { auditWrite, type SignedInActor } from '../../lib/audit.ts';
import { randomToken } from '../../lib/crypto.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { issuePasswordLink } from '../accounts/index.ts';
import { enqueueMessage } from '../messages/index.ts';
import { applySubstitution } from './substitution-effects.ts';
import * as repo from './substitutions.repository.ts';

/** The set-password link of a teacher invited by a substitution lasts as long as an enrolment's (7 days). */
export const INVITATION_LINK_TTL_MS = 7 * 24 * 60 * 60_000;

export const notFound = (message: string) => new HttpError(404, 'not_found', message);
const conflict = (code: string, message: string) => new HttpError(409, code, message);

/** `2026-12-01` → `01/12/2026`. */
export const italianDate = (iso: string) => iso.split('-').reverse().join('/');

/** A unique index refused the row (the driver's error, or Drizzle's wrapper of it). */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

function splitInvitedName(stored: string | null, email: string): { firstName: string; lastName: string } {
  const [lastName, firstName] = (stored ?? '').split(', ');
  return { firstName: firstName?.trim() || email.split('@')[0]!, lastName: lastName?.trim() || '' };
}

/**
 * A substitution request of an institute (issue 10): the date not in the past, the outgoing teacher of
 * the plesso, the incoming person a teacher of the same institute by id or an address (an existing
 * account is linked), no other open request for them; then the request and its audit in one
 * transaction. 422 on the field at fault, 409 when a request is already open. Returns it as stored.
 */
export async function requestSubstitution(
  db: Db,
  actor: SignedInActor,
  body: z.output<typeof SubstitutionCreateSchema>,
): Promise<SubstitutionSummary> {
  const now = actor.at;
  if (body.effectiveOn < romeToday(now))
    throw fieldError('effectiveOn', SUBSTITUTION_MESSAGES.effectiveInPast);
  const outgoingTeacher = await repo.teacherOfSite(db, body.outgoingUserId, body.schoolSiteId);
  if (!outgoingTeacher) throw fieldError('outgoingUserId', SUBSTITUTION_MESSAGES.outgoingNotOfSite);
  // The incoming person: a teacher of the same institute by id, or an address (an existing account is linked).
  let incomingUserId: number | null = null;
  let incomingEmail: string | null = null;
  let incomingName: string | null = null;
  if (body.incomingUserId !== undefined) {
    const teacher = await repo.teacherOfSameInstitute(db, body.incomingUserId, body.schoolSiteId);
    if (!teacher) throw fieldError('incomingUserId', SUBSTITUTION_MESSAGES.incomingNotFound);
    incomingUserId = teacher.id;
  } else {
    const existing = await repo.findUserByEmail(db, body.incomingEmail!);
    if (existing) incomingUserId = existing.id;
    else {
      incomingEmail = body.incomingEmail!;
      incomingName = `${body.incomingLastName}, ${body.incomingFirstName}`;
    }
  }
  if (incomingUserId === body.outgoingUserId)
    throw fieldError(
      body.incomingUserId !== undefined ? 'incomingUserId' : 'incomingEmail',
      SUBSTITUTION_MESSAGES.incomingSame,
    );
  if (await repo.hasOpenRequest(db, body.schoolSiteId, body.outgoingUserId))
    throw conflict('substitution_open', SUBSTITUTION_MESSAGES.openExists);
  let id: number;
  try {
    id = await withTransaction(db, async (tx) => {
      const created = await repo.insertSubstitution(tx, {
        schoolSiteId: body.schoolSiteId,
        outgoingUserId: body.outgoingUserId,
        incomingUserId,
        incomingEmail,
        incomingName,
        reason: body.reason,
        effectiveOn: body.effectiveOn,
        state: 'richiesta',
        requestedByUserId: actor.userId,
        createdAt: now,
        updatedAt: now,
      });
      await auditWrite(tx, actor, {
        action: 'substitution.requested',
        entity: 'substitution',
        entityId: created,
        after: {
          schoolSiteId: body.schoolSiteId,
          outgoingUserId: body.outgoingUserId,
          incomingUserId,
          incomingEmail,
          effectiveOn: body.effectiveOn,
          reason: body.reason,
        },
      });
      return created;
    });
  } catch (error) {
    // A simultaneous request for the same teacher and plesso: the partial unique index decides.
    if (isUniqueViolation(error)) throw conflict('substitution_open', SUBSTITUTION_MESSAGES.openExists);
    throw error;
  }
  return (await repo.findSubstitution(db, id))!;
}

/**
 * The staff's decision on an open request, in one transaction: the state, its audit and the e-mails
 * (the requester; on approval also the outgoing and the incoming teacher, an invited one with a
 * set-password link). An approval whose date has come takes effect now (`applySubstitution`); a later
 * one is applied by the scheduled job on that date (decision 038). 404 for an unknown request, 409
 * when it was already decided. Returns it as stored after the decision.
 */
export async function decideOnSubstitution(
  db: Db,
  webUrl: string,
  actor: SignedInActor,
  substitutionId: number,
  { decision, note }: z.output<typeof SubstitutionDecisionSchema>,
): Promise<SubstitutionSummary> {
  const now = actor.at;
  const current = await repo.findSubstitution(db, substitutionId);
  if (!current) throw notFound(SUBSTITUTION_MESSAGES.notFound);
  if (!canTransitionSubstitution(current.state, decision))
    throw conflict('substitution_transition', SUBSTITUTION_MESSAGES.alreadyDecided);
  // Hashed before the transaction (argon2 is slow): the unusable random password of an invited teacher.
  const inviteHash = current.incomingUserId === null ? await hashPassword(randomToken(32)) : null;
  const links = {
    loginLink: `${webUrl}/auth/login`,
    forgotLink: `${webUrl}/auth/forgot-password`,
    portalLink: `${webUrl}/portale`,
  };

  await withTransaction(db, async (tx) => {
    const row = await repo.decideIfOpen(tx, substitutionId, {
      state: decision,
      decidedByUserId: actor.userId,
      note: note ?? null,
      now,
    });
    if (!row) throw conflict('substitution_transition', SUBSTITUTION_MESSAGES.alreadyDecided);
    const site = (await repo.siteLabel(tx, row.schoolSiteId))!;
    const outgoing = (await repo.findUser(tx, row.outgoingUserId))!;
    const requester =
      row.requestedByUserId === null ? undefined : await repo.findUser(tx, row.requestedByUserId);
    const common = {
      siteName: site.name,
      siteCode: site.ministryCode,
      instituteName: site.instituteName,
      effectiveOn: italianDate(row.effectiveOn),
      outgoingName: `${outgoing.firstName} ${outgoing.lastName}`,
    };

    if (decision === 'respinta') {
      const incomingName = current.incomingName;
      await auditWrite(tx, actor, {
        action: 'substitution.rejected',
        entity: 'substitution',
        entityId: substitutionId,
        before: { state: 'richiesta' },
        after: { state: 'respinta', note },
      });
      if (requester) {
        await enqueueMessage(tx, {
          templateKey: 'email.sostituzione-respinta',
          recipient: requester.email,
          data: { ...common, ...links, firstName: requester.firstName, incomingName, note: note ?? '' },
          now,
        });
      }
      return;
    }

    const approval = await resolveIncoming(tx, row, inviteHash!, now);
    const incoming = approval.incoming;
    const incomingName = `${incoming.firstName} ${incoming.lastName}`.trim();
    // On its date or later it takes effect now; before, the scheduled job applies it on that date (decision 038).
    const effect =
      row.effectiveOn <= romeToday(now)
        ? await applySubstitution(tx, { ...row, incomingUserId: incoming.id }, now)
        : undefined;
    await auditWrite(tx, actor, {
      action: 'substitution.approved',
      entity: 'substitution',
      entityId: substitutionId,
      before: {
        state: 'richiesta',
        outgoingSchoolSiteId: row.schoolSiteId,
        incomingSchoolSiteId: effect?.incomingSiteBefore ?? null,
      },
      after: {
        state: 'approvata',
        note: note ?? null,
        schoolSiteId: row.schoolSiteId,
        outgoingUserId: row.outgoingUserId,
        incomingUserId: incoming.id,
        createdUserId: approval.created ? incoming.id : null,
        effectiveOn: row.effectiveOn,
        applied: effect !== undefined,
        accessCodeIds: effect?.accessCodeIds ?? [],
      },
    });
    await enqueueMessage(tx, {
      templateKey: 'email.sostituzione-uscente',
      recipient: outgoing.email,
      data: { ...common, firstName: outgoing.firstName, incomingName },
      now,
    });
    if (approval.created) {
      await issuePasswordLink(tx, incoming, {
        now,
        ip: actor.ip,
        webUrl,
        ttlMs: INVITATION_LINK_TTL_MS,
        templateKey: 'email.sostituzione-invito',
        data: { ...common, forgotLink: links.forgotLink },
      });
    } else {
      await enqueueMessage(tx, {
        templateKey: 'email.sostituzione-entrante',
        recipient: incoming.email,
        data: { ...common, ...links, firstName: incoming.firstName },
        now,
      });
    }
    if (requester) {
      await enqueueMessage(tx, {
        templateKey: 'email.sostituzione-approvata',
        recipient: requester.email,
        data: { ...common, firstName: requester.firstName, incomingName },
        now,
      });
    }
  });

  return (await repo.findSubstitution(db, substitutionId))!;
}

/**
 * Approval, inside the decision's transaction: the incoming person, created from the invited address
 * when it has no account yet (they get the set-password link now, to be ready on the date). What moves
 * in the plesso moves on the effective date (`applySubstitution`).
 */
async function resolveIncoming(tx: Tx, row: repo.SubstitutionRow, inviteHash: string, now: Date) {
  let incoming: repo.PersonRow | undefined;
  let created = false;
  if (row.incomingUserId !== null) incoming = await repo.findUser(tx, row.incomingUserId);
  if (!incoming && row.incomingEmail) {
    // The address may have registered since the request: link that account.
    incoming = await repo.findUserByEmail(tx, row.incomingEmail);
    if (!incoming) {
      const name = splitInvitedName(row.incomingName, row.incomingEmail);
      incoming = await repo.insertInvitedUser(
        tx,
        { email: row.incomingEmail, ...name, passwordHash: inviteHash },
        now,
      );
      created = incoming !== undefined;
      incoming ??= await repo.findUserByEmail(tx, row.incomingEmail);
    }
  }
  if (!incoming)
    throw new HttpError(409, 'substitution_incoming_missing', SUBSTITUTION_MESSAGES.incomingNotFound);
  await repo.setIncomingUser(tx, row.id, incoming.id, now);
  return { incoming, created };
}
