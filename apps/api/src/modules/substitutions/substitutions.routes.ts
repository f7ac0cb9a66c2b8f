import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can } from '@portale/shared/auth';
import {
  createSubstitution,
  decideSubstitution,
  exportSubstitutions,
  getSubstitution,
  getSubstitutionCandidates,
  listSubstitutions,
  SUBSTITUTION_MESSAGES,
  SUBSTITUTION_STATE_LABELS,
  type SubstitutionSummary,
} from '@portale/shared/substitutions';
import { signedInActorOf } from '../../plugins/service-context.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { forEachBatch } from '../../lib/list.ts';
import { authOf } from '../../plugins/authorization.ts';
import * as repo from './substitutions.repository.ts';
import { decideOnSubstitution, italianDate, notFound, requestSubstitution } from './substitutions.service.ts';

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

/** The plesso named in the body: owned by its institute's principal and first contact; unknown → 404. */
function requestedSiteOf(request: FastifyRequest) {
  const { schoolSiteId } = request.body as { schoolSiteId: number };
  return repo
    .siteInstituteOwners(request.server.db, schoolSiteId)
    .then((owners) => owners ?? Promise.reject(notFound(SUBSTITUTION_MESSAGES.siteNotFound)));
}

function substitutionOf(request: RequestWithParams<{ substitutionId: number }>) {
  const { substitutionId } = request.params;
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

/** Requests of the institutes (principal, first contact) and decisions of the staff (issue 10). */
export async function substitutionsRoutes(app: FastifyInstance) {
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
    const substitution = await requestSubstitution(app.db, signedInActorOf(request), request.body);
    return { message: SUBSTITUTION_MESSAGES.created, substitution };
  });

  registerEndpoint(app, getSubstitution, { resource: substitutionOf }, async (request) => {
    return (
      (await repo.findSubstitution(app.db, request.params.substitutionId)) ??
      Promise.reject(notFound(SUBSTITUTION_MESSAGES.notFound))
    );
  });

  registerEndpoint(app, decideSubstitution, { resource: substitutionOf }, async (request) => {
    const { decision } = request.body;
    const substitution = await decideOnSubstitution(
      app.db,
      app.env.publicWebUrl,
      signedInActorOf(request),
      request.params.substitutionId,
      request.body,
    );
    const message =
      decision === 'respinta'
        ? SUBSTITUTION_MESSAGES.rejected
        : substitution.appliedAt
          ? SUBSTITUTION_MESSAGES.approved
          : SUBSTITUTION_MESSAGES.approvedFrom(italianDate(substitution.effectiveOn));
    return { message, substitution };
  });
}
