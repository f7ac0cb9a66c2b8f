import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can } from '@portale/shared/auth';
import {
  canTransitionSubstitution,
  createSubstitution,
  decideSubstitution,
  exportSubstitutions,
  getSubstitution,
  getSubstitutionCandidates,
  listSubstitutions,
  romeToday,
  SUBSTITUTION_MESSAGES,
  SUBSTITUTION_STATE_LABELS,
  type SubstitutionSummary,
} from '@portale/shared/substitutions';
import { withTransaction, type Tx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { randomToken } from '../../lib/crypto.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { authOf } from '../../plugins/authorization.ts';
import { issuePasswordLink } from '../accounts/index.ts';
import { enqueueMessage } from '../messages/index.ts';
import { applySubstitution } from './substitution-effects.ts';
import * as repo from './substitutions.repository.ts';

/** The set-password link of a teacher invited by a substitution lasts as long as an enrolment's (7 days). */
export const INVITATION_LINK_TTL_MS = 7 * 24 * 60 * 60_000;

const EXPORT_COLUMNS: ExportColumn<SubstitutionSummary>[] = [
  { header: 'Numero', value: (r) => r.id },
  { header: 'Stato', value: (r) => SUBSTITUTION_STATE_LABELS[r.state] },
  { header: 'Richiesta il', value: (r) => new Date(r.createdAt) },
  { header: 'Decorrenza', value: (r) => r.effectiveOn, type: 'date' },
  { header: 'Istituto', value: (r) => r.instituteName },
  { header: 'Plesso', value: (r) => r.schoolSiteName },
  { header: 'Codice meccanografico', value: (r) => r.schoolSiteCode },
  { header: 'Comune', value: (r) => r.municipalityName },
  { header: 'Provincia', value: (r) => r.province },
  { header: 'Regione', value: (r) => r.region },
  { header: 'Insegnante uscente', value: (r) => r.outgoingName },
  { header: 'E-mail uscente', value: (r) => r.outgoingEmail },
  { header: 'Subentrante', value: (r) => r.incomingName },
  { header: 'E-mail subentrante', value: (r) => r.incomingEmail ?? '' },
  { header: 'Motivo', value: (r) => r.reason },
  { header: 'Richiesta da', value: (r) => r.requestedByName ?? '' },
  { header: 'Decisa da', value: (r) => r.decidedByName ?? '' },
  { header: 'Decisa il', value: (r) => (r.decidedAt ? new Date(r.decidedAt) : null) },
  { header: 'Nota', value: (r) => r.decisionNote ?? '' },
];

const notFound = (message: string) => new HttpError(404, 'not_found', message);
const conflict = (code: string, message: string) => new HttpError(409, code, message);

/** `2026-12-01` → `01/12/2026`. */
const italianDate = (iso: string) => iso.split('-').reverse().join('/');

/** The plesso named in the body: owned by its institute's principal and first contact; unknown → 404. */
function requestedSiteOf(request: FastifyRequest) {
  const { schoolSiteId } = request.body as { schoolSiteId: number };
  return repo
    .siteInstituteOwners(request.server.db, schoolSiteId)
    .then((owners) => owners ?? Promise.reject(notFound(SUBSTITUTION_MESSAGES.siteNotFound)));
}

function substitutionOf(request: FastifyRequest) {
  const { substitutionId } = request.params as { substitutionId: number };
  return repo
    .substitutionOwners(request.server.db, substitutionId)
    .then((owners) => owners ?? Promise.reject(notFound(SUBSTITUTION_MESSAGES.notFound)));
}

/** The caller's own collection: staff read every request, a principal or first contact their institutes'. */
function mine(request: FastifyRequest) {
  return Promise.resolve({ ownerUserIds: [authOf(request).user.id] });
}

function scopeOf(request: FastifyRequest): repo.SubstitutionScope {
  const user = authOf(request).user;
  return can(user, 'read:substitution') ? {} : { ownerUserId: user.id };
}

/** A unique index refused the row (the driver's error, or Drizzle's wrapper of it). */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

function splitInvitedName(stored: string | null, email: string): { firstName: string; lastName: string } {
  const [lastName, firstName] = (stored ?? '').split(', ');
  return { firstName: firstName?.trim() || email.split('@')[0]!, lastName: lastName?.trim() || '' };
}

/** Requests of the institutes (principal, first contact) and decisions of the staff (issue 10). */
export async function substitutionsRoutes(app: FastifyInstance) {
  const webUrl = () => app.env.publicWebUrl;

  registerEndpoint(app, listSubstitutions, { resource: mine }, (request) =>
    repo.listSubstitutions(app.db, request.query, scopeOf(request)),
  );

  registerEndpoint(app, exportSubstitutions, { anyOnly: true }, async (request, reply) => {
    const { format, ...filters } = request.query;
    return sendExport(reply, {
      format,
      name: 'sostituzioni',
      sheetName: 'Sostituzioni',
      columns: EXPORT_COLUMNS,
      total: await repo.countSubstitutions(app.db, filters, {}),
      today: app.clock.now(),
      produce: (write) =>
        forEachBatch(
          app.db,
          repo.substitutionListQuery(app.db, filters, {}),
          repo.toSubstitutionSummary,
          write,
        ),
    });
  });

  registerEndpoint(app, getSubstitutionCandidates, { resource: mine }, (request) =>
    repo.candidatesOf(app.db, authOf(request).user.id),
  );

  registerEndpoint(app, createSubstitution, { resource: requestedSiteOf }, async (request) => {
    const body = request.body;
    const now = app.clock.now();
    if (body.effectiveOn < romeToday(now))
      throw fieldError('effectiveOn', SUBSTITUTION_MESSAGES.effectiveInPast);
    const outgoingTeacher = await repo.teacherOfSite(app.db, body.outgoingUserId, body.schoolSiteId);
    if (!outgoingTeacher) throw fieldError('outgoingUserId', SUBSTITUTION_MESSAGES.outgoingNotOfSite);
    // The incoming person: a teacher of the same institute by id, or an address (an existing account is linked).
    let incomingUserId: number | null = null;
    let incomingEmail: string | null = null;
    let incomingName: string | null = null;
    if (body.incomingUserId !== undefined) {
      const teacher = await repo.teacherOfSameInstitute(app.db, body.incomingUserId, body.schoolSiteId);
      if (!teacher) throw fieldError('incomingUserId', SUBSTITUTION_MESSAGES.incomingNotFound);
      incomingUserId = teacher.id;
    } else {
      const existing = await repo.findUserByEmail(app.db, body.incomingEmail!);
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
    if (await repo.hasOpenRequest(app.db, body.schoolSiteId, body.outgoingUserId))
      throw conflict('substitution_open', SUBSTITUTION_MESSAGES.openExists);
    let id: number;
    try {
      id = await withTransaction(app.db, async (tx) => {
        const created = await repo.insertSubstitution(tx, {
          schoolSiteId: body.schoolSiteId,
          outgoingUserId: body.outgoingUserId,
          incomingUserId,
          incomingEmail,
          incomingName,
          reason: body.reason,
          effectiveOn: body.effectiveOn,
          state: 'richiesta',
          requestedByUserId: authOf(request).user.id,
          createdAt: now,
          updatedAt: now,
        });
        await auditWrite(tx, request, {
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
    return {
      message: SUBSTITUTION_MESSAGES.created,
      substitution: (await repo.findSubstitution(app.db, id))!,
    };
  });

  registerEndpoint(app, getSubstitution, { resource: substitutionOf }, async (request) => {
    return (
      (await repo.findSubstitution(app.db, request.params.substitutionId)) ??
      Promise.reject(notFound(SUBSTITUTION_MESSAGES.notFound))
    );
  });

  registerEndpoint(app, decideSubstitution, { resource: substitutionOf }, async (request) => {
    const { substitutionId } = request.params;
    const { decision, note } = request.body;
    const now = app.clock.now();
    const current = await repo.findSubstitution(app.db, substitutionId);
    if (!current) throw notFound(SUBSTITUTION_MESSAGES.notFound);
    if (!canTransitionSubstitution(current.state, decision))
      throw conflict('substitution_transition', SUBSTITUTION_MESSAGES.alreadyDecided);
    // Hashed before the transaction (argon2 is slow): the unusable random password of an invited teacher.
    const inviteHash = current.incomingUserId === null ? await hashPassword(randomToken(32)) : null;
    const links = {
      loginLink: `${webUrl()}/auth/login`,
      forgotLink: `${webUrl()}/auth/forgot-password`,
      portalLink: `${webUrl()}/portale`,
    };

    await withTransaction(app.db, async (tx) => {
      const row = await repo.decideIfOpen(tx, substitutionId, {
        state: decision,
        decidedByUserId: authOf(request).user.id,
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
        await auditWrite(tx, request, {
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
      await auditWrite(tx, request, {
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
          ip: request.ip,
          webUrl: webUrl(),
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

    const substitution = (await repo.findSubstitution(app.db, substitutionId))!;
    const message =
      decision === 'respinta'
        ? SUBSTITUTION_MESSAGES.rejected
        : substitution.appliedAt
          ? SUBSTITUTION_MESSAGES.approved
          : SUBSTITUTION_MESSAGES.approvedFrom(italianDate(substitution.effectiveOn));
    return { message, substitution };
  });
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
