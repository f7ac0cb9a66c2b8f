import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can } from '@portale/shared/auth';
import { romeLocalToDate } from '@portale/shared/bookings';
import {
  ASSIGNMENT_MESSAGES,
  assignSchoolSites,
  canTransitionVisit,
  closeVisit,
  createVisit,
  exportDetectors,
  exportMySchoolSites,
  getDetectorSite,
  getMyVisits,
  listDetectors,
  listMySchoolSites,
  listSiteTeachers,
  listSiteVisits,
  listVisitReportConflicts,
  reportVisit,
  updateDetector,
  VISIT_MESSAGES,
  visitReportable,
  visitCalendar as visitCalendarEndpoint,
  type DetectorSiteFilters,
  type DetectorSiteSummary,
  type DetectorSummary,
  type Visit,
} from '@portale/shared/field-work';
import { SCHOOL_LEVEL_LABELS } from '@portale/shared/registry';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, changedFields } from '../../lib/audit.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import { authOf } from '../../plugins/authorization.ts';
import { submitForReview } from '../review-queue/index.ts';
import { clearSchoolSiteTotals } from '../registry/index.ts';
import * as repo from './field-work.repository.ts';
import { visitCalendar } from './visit-calendar.ts';
import * as submissions from './visit-report-submissions.repository.ts';

export const SITE_NOT_FOUND = 'Plesso non trovato.';
const DETECTOR_NOT_FOUND = 'Rilevatore non trovato.';

const DETECTOR_EXPORT: ExportColumn<DetectorSummary>[] = [
  { header: 'Cognome', value: (r) => r.lastName },
  { header: 'Nome', value: (r) => r.firstName },
  { header: 'E-mail', value: (r) => r.email },
  { header: 'Telefono', value: (r) => r.phone ?? '' },
  { header: 'Province', value: (r) => r.provinces.join(' ') },
  { header: 'Attivo', value: (r) => r.active },
  { header: 'Plessi assegnati', value: (r) => r.siteCount },
];

const SITE_EXPORT: ExportColumn<DetectorSiteSummary>[] = [
  { header: 'Codice meccanografico', value: (r) => r.ministryCode },
  { header: 'Denominazione', value: (r) => r.name },
  { header: 'Grado', value: (r) => SCHOOL_LEVEL_LABELS[r.schoolLevel] },
  { header: 'Indirizzo', value: (r) => r.address ?? '' },
  { header: 'CAP', value: (r) => r.postalCode ?? '' },
  { header: 'Comune', value: (r) => r.municipalityName },
  { header: 'Provincia', value: (r) => r.province },
  { header: 'Istituto', value: (r) => r.instituteName },
  {
    header: 'Rilevatore',
    value: (r) => (r.detector ? `${r.detector.lastName} ${r.detector.firstName}` : ''),
  },
  { header: 'Insegnanti', value: (r) => r.teacherCount },
  { header: 'Prossima visita', value: (r) => (r.nextVisitAt ? new Date(r.nextVisitAt) : null) },
];

function notFound(message: string) {
  return new HttpError(404, 'not_found', message);
}

/** A plesso for field work: its owners are [its detector]; unknown → 404. */
function siteOf(request: FastifyRequest) {
  const { siteId } = request.params as { siteId: number };
  return repo
    .siteDetectorOwners(request.server.db, siteId)
    .then((owners) => owners ?? Promise.reject(notFound(SITE_NOT_FOUND)));
}

function visitOf(request: FastifyRequest) {
  const { visitId } = request.params as { visitId: number };
  return repo
    .visitOwners(request.server.db, visitId)
    .then((owners) => owners ?? Promise.reject(notFound(VISIT_MESSAGES.notFound)));
}

function detectorOf(request: FastifyRequest) {
  const { userId } = request.params as { userId: number };
  return repo
    .isDetectorUser(request.server.db, userId)
    .then((yes) => (yes ? { ownerUserIds: [] } : Promise.reject(notFound(DETECTOR_NOT_FOUND))));
}

/** The caller's own collection (`/me/…`): owned by the caller. */
function mine(request: FastifyRequest) {
  return Promise.resolve({ ownerUserIds: [authOf(request).user.id] });
}

/** A detector sees only their own plessi; whoever reads every plesso's visits (super-admin) may choose a detector or see all assigned. */
function scopedFilters<F extends DetectorSiteFilters>(request: FastifyRequest, filters: F): F {
  const user = authOf(request).user;
  return can(user, 'read:visit') ? filters : { ...filters, detectorId: user.id };
}

const conflict = (code: string, message: string) => new HttpError(409, code, message);

/** Detectors and their plessi (staff), a detector's own plessi, a plesso's teachers and visits (issue 10). */
export async function fieldWorkRoutes(app: FastifyInstance) {
  registerEndpoint(app, listDetectors, {}, (request) =>
    repo.listDetectors(app.db, request.query, app.clock.now()),
  );

  registerEndpoint(app, exportDetectors, {}, async (request, reply) => {
    const { format, ...filters } = request.query;
    const now = app.clock.now();
    return sendExport(reply, {
      format,
      name: 'rilevatori',
      sheetName: 'Rilevatori',
      columns: DETECTOR_EXPORT,
      total: await repo.countDetectors(app.db, filters),
      today: now,
      produce: (write) =>
        forEachBatch(app.db, repo.detectorListQuery(app.db, filters, now), repo.toDetectorSummary, write),
    });
  });

  registerEndpoint(app, updateDetector, { resource: detectorOf }, async (request) => {
    const { userId } = request.params;
    const now = app.clock.now();
    await withTransaction(app.db, async (tx) => {
      const before = await repo.lockDetectorProfile(tx, userId, now);
      const after = {
        ...request.body,
        ...(request.body.provinces ? { provinces: [...new Set(request.body.provinces)].sort() } : {}),
      };
      const diff = changedFields(
        { active: before.active, provinces: before.provinces.join(',') },
        { active: after.active, provinces: after.provinces?.join(',') },
      );
      if (Object.keys(diff.after).length === 0) return;
      await repo.updateDetectorProfile(tx, userId, after, now);
      await auditWrite(tx, request, {
        action: 'detector.updated',
        entity: 'user',
        entityId: userId,
        ...diff,
      });
    });
    return (await repo.findDetector(app.db, userId, now))!;
  });

  registerEndpoint(app, assignSchoolSites, { anyOnly: true }, async (request) => {
    const body = request.body;
    const now = app.clock.now();
    if (body.detectorUserId !== null && !(await repo.isDetectorUser(app.db, body.detectorUserId)))
      throw fieldError('detectorUserId', ASSIGNMENT_MESSAGES.notDetector);
    const target = body.siteIds ? { siteIds: [...new Set(body.siteIds)] } : { filter: body.filter! };
    if (target.siteIds && (await repo.countExistingSites(app.db, target.siteIds)) !== target.siteIds.length)
      throw fieldError('siteIds', 'Tra i plessi indicati ce n’è qualcuno che non esiste.');
    if (!body.confirm)
      return {
        ...(await repo.countAssignment(app.db, target, body.detectorUserId)),
        updated: 0,
        applied: false,
      };
    return withTransaction(app.db, async (tx) => {
      const counts = await repo.countAssignment(tx, target, body.detectorUserId, true);
      if (counts.matched > 5000) throw fieldError('filter', ASSIGNMENT_MESSAGES.tooMany);
      if (body.expectedCount !== undefined && body.expectedCount !== counts.matched)
        throw conflict('assignment_count_changed', ASSIGNMENT_MESSAGES.countChanged);
      const ids = await repo.applyAssignment(tx, target, body.detectorUserId, now);
      if (ids.length > 0) {
        await auditWrite(tx, request, {
          action:
            body.detectorUserId === null ? 'school-site.detector-removed' : 'school-site.detector-assigned',
          entity: 'school-site',
          entityId: ids.length === 1 ? ids[0] : undefined,
          before: { ...counts },
          after: {
            detectorUserId: body.detectorUserId,
            siteIds: ids,
            ...(target.filter ? { filter: target.filter } : {}),
          },
        });
      }
      clearSchoolSiteTotals();
      return { ...counts, updated: ids.length, applied: true };
    });
  });

  registerEndpoint(app, listMySchoolSites, { resource: mine }, (request) =>
    repo.listDetectorSites(app.db, scopedFilters(request, request.query), app.clock.now()),
  );

  registerEndpoint(app, exportMySchoolSites, { resource: mine }, async (request, reply) => {
    const { format, ...rest } = request.query;
    const filters = scopedFilters(request, rest);
    const now = app.clock.now();
    return sendExport(reply, {
      format,
      name: 'plessi-assegnati',
      sheetName: 'Plessi assegnati',
      columns: SITE_EXPORT,
      total: await repo.countDetectorSites(app.db, filters, now),
      today: now,
      produce: (write) =>
        forEachBatch(
          app.db,
          repo.detectorSiteListQuery(app.db, filters, now),
          repo.toDetectorSiteSummary,
          write,
        ),
    });
  });

  registerEndpoint(app, getMyVisits, { resource: mine }, (request) =>
    repo.myVisits(app.db, authOf(request).user.id, app.clock.now()),
  );

  registerEndpoint(app, getDetectorSite, { resource: siteOf }, async (request) => {
    return (
      (await repo.findDetectorSiteDetail(app.db, request.params.siteId, app.clock.now())) ??
      Promise.reject(notFound(SITE_NOT_FOUND))
    );
  });

  registerEndpoint(app, listSiteTeachers, { resource: siteOf }, async (request) => {
    const site = await repo.findDetectorSite(app.db, request.params.siteId, app.clock.now());
    if (!site) throw notFound(SITE_NOT_FOUND);
    return { site, items: await repo.listSiteTeachers(app.db, site.id) };
  });

  registerEndpoint(app, listSiteVisits, { resource: siteOf }, async (request) => {
    const site = await repo.findDetectorSite(app.db, request.params.siteId, app.clock.now());
    if (!site) throw notFound(SITE_NOT_FOUND);
    const [teachers, items] = await Promise.all([
      repo.listSiteTeachers(app.db, site.id),
      repo.listVisitsOfSite(app.db, site.id),
    ]);
    return { site, teachers, items };
  });

  registerEndpoint(app, createVisit, { resource: siteOf }, async (request) => {
    const { siteId } = request.params;
    const now = app.clock.now();
    const scheduledAt = romeLocalToDate(request.body.scheduledAt)!;
    if (scheduledAt.getTime() <= now.getTime()) throw fieldError('scheduledAt', VISIT_MESSAGES.future);
    const visitId = await withTransaction(app.db, async (tx) => {
      const site = await repo.lockSiteDetector(tx, siteId);
      if (!site) throw notFound(SITE_NOT_FOUND);
      if (site.detector === null) throw conflict('site_without_detector', VISIT_MESSAGES.noDetector);
      const id = await repo.insertVisit(tx, {
        schoolSiteId: siteId,
        detectorUserId: site.detector,
        scheduledAt,
        now,
      });
      await auditWrite(tx, request, {
        action: 'visit.planned',
        entity: 'visit',
        entityId: id,
        after: {
          schoolSiteId: siteId,
          detectorUserId: site.detector,
          scheduledAt: scheduledAt.toISOString(),
        },
      });
      return id;
    });
    return (await repo.findVisit(app.db, visitId))!;
  });

  registerEndpoint(app, reportVisit, { resource: visitOf }, async (request) => {
    const { visitId } = request.params;
    const { clientReportId } = request.body;
    const userId = authOf(request).user.id;
    const now = app.clock.now();
    const teachersMet = [...new Set(request.body.teachersMet)];
    const payloadHash = submissions.payloadHashOf(visitId, request.body.report, teachersMet);
    const reused = () => conflict('client_report_id_reused', VISIT_MESSAGES.clientReportIdReused);
    const outcome = await withTransaction(app.db, async (tx): Promise<{ status: number; body: unknown }> => {
      const visit = await repo.lockVisit(tx, visitId);
      if (!visit) throw notFound(VISIT_MESSAGES.notFound);
      const kept = {
        clientReportId: clientReportId!,
        visitId,
        detectorUserId: userId,
        payloadHash,
        report: request.body.report,
        teachersMet,
        visitState: visit.state,
        now,
      };
      if (clientReportId !== undefined) {
        // Idempotency (issue 39, decision 043): a replay answers what the first send answered; never a second report.
        const stored = await submissions.findSubmission(tx, clientReportId);
        if (stored) {
          if (stored.payloadHash !== payloadHash || stored.detectorUserId !== userId) throw reused();
          return { status: stored.status, body: stored.body };
        }
        // Staff changed the visit while the detector was offline: keep the version sent, answer a conflict.
        if (visit.state === 'annullata' || visit.state === 'mancata') {
          const body = { statusCode: 409, code: 'visit_changed', message: VISIT_MESSAGES.visitChanged };
          if (!(await submissions.insertSubmission(tx, { ...kept, outcome: 'conflict', status: 409, body })))
            throw reused();
          await auditWrite(tx, request, {
            action: 'visit.report-conflict',
            entity: 'visit',
            entityId: visitId,
            after: { clientReportId, visitState: visit.state },
          });
          return { status: 409, body };
        }
      }
      const resubmission = visit.state === 'svolta' && visit.reviewState === 'da_correggere';
      if (!resubmission && !canTransitionVisit(visit.state, 'svolta'))
        throw conflict('visit_transition', VISIT_MESSAGES.notReportable);
      if ((await repo.teachersOfSite(tx, visit.schoolSiteId, teachersMet)).length !== teachersMet.length)
        throw fieldError('teachersMet', VISIT_MESSAGES.teacherNotOfSite);
      if (!visitReportable(visit.scheduledAt, now))
        throw conflict('visit_not_yet_held', VISIT_MESSAGES.notYetHappened);
      await repo.setVisitReport(tx, visitId, { report: request.body.report, teachersMet }, now);
      await submitForReview(tx, { type: 'visite', subjectId: visitId, at: now });
      await auditWrite(tx, request, {
        action: resubmission ? 'visit.report-corrected' : 'visit.reported',
        entity: 'visit',
        entityId: visitId,
        before: {
          state: visit.state,
          reviewState: visit.reviewState,
          report: visit.report,
          teachersMet: visit.teachersMet,
        },
        after: {
          state: 'svolta',
          reviewState: 'in_attesa',
          report: request.body.report,
          teachersMet,
          ...(clientReportId ? { clientReportId } : {}),
        },
      });
      const body = (await repo.findVisit(tx, visitId))!;
      // The same id sent at once for two visits: the second finds the first's row and rolls back (409, never a 500).
      if (
        clientReportId !== undefined &&
        !(await submissions.insertSubmission(tx, { ...kept, outcome: 'accepted', status: 200, body }))
      )
        throw reused();
      return { status: 200, body };
    });
    if (outcome.status !== 200) {
      const error = outcome.body as { code: string; message: string };
      throw new HttpError(outcome.status, error.code, error.message);
    }
    return outcome.body as Visit;
  });

  registerEndpoint(app, listVisitReportConflicts, { anyOnly: true }, async (request) =>
    submissions.listConflicts(app.db, request.query.page, request.query.pageSize),
  );

  registerEndpoint(app, closeVisit, { resource: visitOf }, async (request) => {
    const { visitId } = request.params;
    const now = app.clock.now();
    await withTransaction(app.db, async (tx) => {
      const visit = await repo.lockVisit(tx, visitId);
      if (!visit) throw notFound(VISIT_MESSAGES.notFound);
      if (!canTransitionVisit(visit.state, request.body.state))
        throw conflict('visit_transition', VISIT_MESSAGES.notPlanned);
      await repo.setVisitOutcome(tx, visitId, request.body.state, request.body.note ?? null, now);
      await auditWrite(tx, request, {
        action: `visit.${request.body.state}`,
        entity: 'visit',
        entityId: visitId,
        before: { state: visit.state },
        after: { state: request.body.state, note: request.body.note ?? null },
      });
    });
    return (await repo.findVisit(app.db, visitId))!;
  });

  registerEndpoint(app, visitCalendarEndpoint, { resource: visitOf }, async (request, reply) => {
    const visit = await repo.findVisit(app.db, request.params.visitId);
    if (!visit) throw notFound(VISIT_MESSAGES.notFound);
    const site = (await repo.findDetectorSite(app.db, visit.schoolSiteId, app.clock.now()))!;
    const ics = visitCalendar(visit, site, { stamp: app.clock.now(), env: app.env });
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="visita-${visit.id}.ics"`)
      .send(ics);
  });
}
