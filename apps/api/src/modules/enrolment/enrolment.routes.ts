import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  acceptEnrolmentInvitation,
  cancelHandover,
  createHandover,
  listHandovers,
  cancelEnrolmentInvitation,
  createEnrolment,
  ENROLMENT_INVITATION_STATE_LABELS,
  ENROLMENT_MESSAGES,
  exportStaffEnrolmentInvitations,
  listStaffEnrolmentInvitations,
  resendEnrolmentInvitation,
  type StaffEnrolmentInvitation,
  declineEnrolmentInvitation,
  getEnrolmentInstitute,
  getEnrolmentVerification,
  listEnrolmentInvitations,
  searchEnrolmentInstitutes,
} from '@portale/shared/enrolment';
import { ROLE_LABELS } from '@portale/shared/auth';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import { authOf } from '../../plugins/authorization.ts';
import { serviceContextOf } from '../../plugins/service-context.ts';
import {
  acceptInvitation,
  cancelInvitationByStaff,
  declineInvitation,
  myInvitations,
  resendInvitation,
} from './enrolment-invitations.service.ts';
import * as repo from './enrolment.repository.ts';
import * as handoverRepo from './handover.repository.ts';
import {
  cancelHandover as cancelHandoverInvitation,
  createHandover as startHandover,
} from './handover.service.ts';
import { findInstituteOwners } from '../registry/index.ts';
import { enrolInstitute, verificationStatus } from './enrolment.service.ts';
import { pendingRegistrationOf } from '../identity/index.ts';

const MAX_RESULTS = 20;

/**
 * The invitation a staff route acts on: unknown → 404. Nobody owns it in the sense of `:own` grants
 * (a principal's `manage:adhesion:own` is about their institute, not about its invitations): only
 * `manage:adhesion:any` passes.
 */
async function invitationOf(request: RequestWithParams<{ invitationId: number }>) {
  const { invitationId } = request.params;
  return (await repo.invitationExists(request.server.db, invitationId)) ? { ownerUserIds: [] } : undefined;
}

/** The institute's owners for reading its handovers: its principal and first contact. Unknown → 404. */
async function instituteOwners(request: RequestWithParams<{ instituteId: number }>) {
  const { instituteId } = request.params;
  const owners = await findInstituteOwners(request.server.db, instituteId);
  if (!owners) throw new HttpError(404, 'not_found', 'Istituto non trovato.');
  return owners;
}

/** For starting or cancelling a handover the institute is owned by its principal alone. Unknown → 404. */
async function instituteOfPrincipal(request: RequestWithParams<{ instituteId: number }>) {
  const { instituteId } = request.params;
  const row = await handoverRepo.principalOf(request.server.db, instituteId);
  if (!row) throw new HttpError(404, 'not_found', 'Istituto non trovato.');
  return { ownerUserIds: [row.principalUserId] };
}

const EXPORT_COLUMNS: ExportColumn<StaffEnrolmentInvitation>[] = [
  { header: 'Codice meccanografico', value: (r) => r.ministryCode },
  { header: 'Istituto', value: (r) => r.instituteName },
  { header: 'Persona invitata', value: (r) => r.inviteeName },
  { header: 'E-mail', value: (r) => r.inviteeEmail },
  { header: 'Ruoli', value: (r) => r.roles.map((role) => ROLE_LABELS[role]).join(', ') },
  { header: 'Stato', value: (r) => ENROLMENT_INVITATION_STATE_LABELS[r.state] },
  { header: 'Scaduto', value: (r) => r.expired },
  { header: 'Inviato il', value: (r) => new Date(r.createdAt) },
  { header: 'Scade il', value: (r) => new Date(r.expiresAt) },
  { header: 'Deciso il', value: (r) => (r.decidedAt ? new Date(r.decidedAt) : null) },
];

/**
 * The school enrolment (`/iscrizioni/iscrizione`): public, each route with its own per-IP limit; the
 * submission also counts against the portal's hourly ceiling of registrations (`plugins/rate-limits.ts`).
 */
export async function enrolmentRoutes(app: FastifyInstance) {
  const reads = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX * 3, timeWindow: '1 minute' } };
  const writes = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } };

  registerEndpoint(app, searchEnrolmentInstitutes, { config: reads }, async (request) => ({
    items: await repo.searchInstituteOptions(app.db, request.query.q, MAX_RESULTS),
  }));

  registerEndpoint(app, getEnrolmentInstitute, { config: reads }, async (request) => {
    const institute = await repo.findEnrolmentInstitute(app.db, request.params.instituteId);
    if (!institute) throw new HttpError(404, 'not_found', 'Istituto non trovato.');
    return institute;
  });

  registerEndpoint(app, getEnrolmentVerification, { config: reads }, async (request) =>
    verificationStatus(app.db, request.params.verificationId, app.clock.now()),
  );

  registerEndpoint(app, createEnrolment, { config: writes }, async (request) => {
    // The applicant verified with SPID/CIE (decision 054): that person's name, surname and codice fiscale
    // are the provider's, and their new account is linked to the identity.
    const { verifiedPerson, ...body } = request.body;
    const verified = verifiedPerson ? await pendingRegistrationOf(app, request) : undefined;
    if (verifiedPerson && !verified)
      throw new HttpError(409, 'identity_expired', ENROLMENT_MESSAGES.identityExpired);
    const as = verifiedPerson === 'firstContact' && body.firstContact ? 'firstContact' : 'principal';
    const input = verified
      ? as === 'firstContact'
        ? { ...body, firstContact: verified.body(body.firstContact!) }
        : { ...body, principal: verified.body(body.principal) }
      : body;
    return enrolInstitute(app.db, input, {
      now: app.clock.now(),
      ip: request.ip,
      webUrl: app.env.publicWebUrl,
      ...(verified ? { verified: { as, link: verified.link } } : {}),
    });
  });

  // The invitations of the signed-in account (issue 32): only the owner decides, someone else's is a 403.
  const invitationContext = (request: FastifyRequest) => ({
    userId: authOf(request).user.id,
    now: app.clock.now(),
    ip: request.ip,
    webUrl: app.env.publicWebUrl,
  });
  registerEndpoint(app, listEnrolmentInvitations, {}, async (request) => ({
    items: await myInvitations(app.db, authOf(request).user.id, app.clock.now()),
  }));
  registerEndpoint(app, acceptEnrolmentInvitation, { config: writes }, async (request) => {
    const { replacedUserId, ...result } = await acceptInvitation(
      app.db,
      request.params.invitationId,
      invitationContext(request),
    );
    await app.sessions.invalidate({ kind: 'user', userId: authOf(request).user.id });
    // A handover ended the replaced person's access to the institute: their cached grants go too.
    if (replacedUserId !== null) await app.sessions.invalidate({ kind: 'user', userId: replacedUserId });
    return result;
  });
  registerEndpoint(app, declineEnrolmentInvitation, { config: writes }, async (request) =>
    declineInvitation(app.db, request.params.invitationId, invitationContext(request)),
  );

  // Staff (issue 32): every invitation, listed and exported by the adhesions panel's readers; sent
  // again or cancelled by those who manage adhesions (an `:own` grant of a principal is not enough).
  registerEndpoint(app, listStaffEnrolmentInvitations, { anyOnly: true }, (request) =>
    repo.listStaffInvitations(app.db, request.query, app.clock.now()),
  );
  registerEndpoint(app, exportStaffEnrolmentInvitations, { anyOnly: true }, async (request, reply) => {
    const { format, ...filters } = request.query;
    const now = app.clock.now();
    return sendExport(reply, {
      format,
      name: 'inviti-iscrizione',
      sheetName: 'Inviti',
      columns: EXPORT_COLUMNS,
      total: await repo.countStaffInvitations(app.db, filters, now),
      today: now,
      produce: (write) =>
        forEachBatch(
          app.db,
          repo.staffInvitationQuery(app.db, filters, now),
          (row) => repo.toStaffInvitation(row, now),
          write,
        ),
    });
  });
  registerEndpoint(app, resendEnrolmentInvitation, { resource: invitationOf }, (request) =>
    resendInvitation(serviceContextOf(request), request.params.invitationId),
  );
  registerEndpoint(app, cancelEnrolmentInvitation, { resource: invitationOf }, (request) =>
    cancelInvitationByStaff(serviceContextOf(request), request.params.invitationId),
  );

  // Handovers (decision 047): the institute's readers see them; staff who manage institutes, or its
  // principal for a first contact, start and cancel them. Only the principal owns an institute here.
  registerEndpoint(app, listHandovers, { resource: instituteOwners }, async (request) => ({
    items: await handoverRepo.listHandovers(app.db, request.params.instituteId, app.clock.now()),
  }));
  registerEndpoint(app, createHandover, { resource: instituteOfPrincipal, config: writes }, (request) =>
    startHandover(serviceContextOf(request), request.params.instituteId, request.body),
  );
  registerEndpoint(app, cancelHandover, { resource: instituteOfPrincipal }, (request) =>
    cancelHandoverInvitation(
      serviceContextOf(request),
      request.params.instituteId,
      request.params.invitationId,
    ),
  );
}
