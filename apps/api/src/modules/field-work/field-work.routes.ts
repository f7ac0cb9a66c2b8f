import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can } from '@portale/shared/auth';
import { romeLocalToDate } from '@portale/shared/bookings';
import {
  assignSchoolSites,
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
  reportDeviceQueue,
  reportVisit,
  updateDetector,
  VISIT_MESSAGES,
  visitCalendar as visitCalendarEndpoint,
  type DetectorSiteFilters,
  type DetectorSiteSummary,
  type DetectorSummary,
} from '@portale/shared/field-work';
import { SCHOOL_LEVEL_LABELS } from '@portale/shared/registry';
import { actorOf } from '../../lib/audit.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import { authOf } from '../../plugins/authorization.ts';
import * as sites from './detector-sites.repository.ts';
import * as detectors from './detectors.repository.ts';
import * as detectorsService from './detectors.service.ts';
import { reportImportRoutes } from './report-imports.routes.ts';
import { reportPhotoRoutes } from './report-photos.routes.ts';
import { visitCalendar } from './visit-calendar.ts';
import { visitReportOwners } from './visit-reassignments.repository.ts';
import * as visits from './visits.repository.ts';
import { SITE_NOT_FOUND } from './visits.service.ts';
import * as visitsService from './visits.service.ts';

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
function siteOf(request: RequestWithParams<{ siteId: number }>) {
  const { siteId } = request.params;
  return sites
    .siteDetectorOwners(request.server.db, siteId)
    .then((owners) => owners ?? Promise.reject(notFound(SITE_NOT_FOUND)));
}

function visitOf(request: RequestWithParams<{ visitId: number }>) {
  const { visitId } = request.params;
  return visits
    .visitOwners(request.server.db, visitId)
    .then((owners) => owners ?? Promise.reject(notFound(VISIT_MESSAGES.notFound)));
}

/**
 * A visit's report: its detector, and whoever held the visit before (decision 061): a report they wrote
 * offline before the visit was handed over is kept as a conflict for staff, not refused with a 403.
 */
function visitReportOf(request: RequestWithParams<{ visitId: number }>) {
  return visitReportOwners(request.server.db, request.params.visitId).then(
    (owners) => owners ?? Promise.reject(notFound(VISIT_MESSAGES.notFound)),
  );
}

function detectorOf(request: RequestWithParams<{ userId: number }>) {
  const { userId } = request.params;
  return detectors
    .isDetectorUser(request.server.db, userId)
    .then((yes) => (yes ? { ownerUserIds: [] } : Promise.reject(notFound(DETECTOR_NOT_FOUND))));
}

/** A detector's own record, for what only they may do (their device's queue): owned by them alone. */
function detectorSelf(request: RequestWithParams<{ userId: number }>) {
  const { userId } = request.params;
  return detectors
    .isDetectorUser(request.server.db, userId)
    .then((yes) => (yes ? { ownerUserIds: [userId] } : Promise.reject(notFound(DETECTOR_NOT_FOUND))));
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

/** Detectors and their plessi (staff), a detector's own plessi, a plesso's teachers and visits (issue 10). */
export async function fieldWorkRoutes(app: FastifyInstance) {
  registerEndpoint(app, listDetectors, {}, (request) =>
    detectors.listDetectors(app.db, request.query, app.clock.now()),
  );

  registerEndpoint(app, exportDetectors, {}, async (request, reply) => {
    const { format, ...filters } = request.query;
    const now = app.clock.now();
    return sendExport(reply, {
      format,
      name: 'rilevatori',
      sheetName: 'Rilevatori',
      columns: DETECTOR_EXPORT,
      total: await detectors.countDetectors(app.db, filters),
      today: now,
      produce: (write) =>
        forEachBatch(
          app.db,
          detectors.detectorListQuery(app.db, filters, now),
          detectors.toDetectorSummary,
          write,
        ),
    });
  });

  registerEndpoint(app, updateDetector, { resource: detectorOf }, (request) =>
    detectorsService.updateDetector(app.db, actorOf(request), request.params.userId, request.body),
  );

  registerEndpoint(app, reportDeviceQueue, { resource: detectorSelf }, (request) =>
    detectorsService.reportDeviceQueue(app.db, actorOf(request), request.params.userId, request.body),
  );

  registerEndpoint(app, assignSchoolSites, { anyOnly: true }, (request) =>
    detectorsService.assignSchoolSites(app.db, actorOf(request), request.body, {
      webUrl: app.env.publicWebUrl,
    }),
  );

  registerEndpoint(app, listMySchoolSites, { resource: mine }, (request) =>
    sites.listDetectorSites(app.db, scopedFilters(request, request.query), app.clock.now()),
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
      total: await sites.countDetectorSites(app.db, filters, now),
      today: now,
      produce: (write) =>
        forEachBatch(
          app.db,
          sites.detectorSiteListQuery(app.db, filters, now),
          sites.toDetectorSiteSummary,
          write,
        ),
    });
  });

  registerEndpoint(app, getMyVisits, { resource: mine }, (request) =>
    visits.myVisits(app.db, authOf(request).user.id, app.clock.now()),
  );

  registerEndpoint(app, getDetectorSite, { resource: siteOf }, async (request) => {
    return (
      (await sites.findDetectorSiteDetail(app.db, request.params.siteId, app.clock.now())) ??
      Promise.reject(notFound(SITE_NOT_FOUND))
    );
  });

  registerEndpoint(app, listSiteTeachers, { resource: siteOf }, async (request) => {
    const site = await sites.findDetectorSite(app.db, request.params.siteId, app.clock.now());
    if (!site) throw notFound(SITE_NOT_FOUND);
    return { site, items: await sites.listSiteTeachers(app.db, site.id) };
  });

  registerEndpoint(app, listSiteVisits, { resource: siteOf }, async (request) => {
    const site = await sites.findDetectorSite(app.db, request.params.siteId, app.clock.now());
    if (!site) throw notFound(SITE_NOT_FOUND);
    const [teachers, items] = await Promise.all([
      sites.listSiteTeachers(app.db, site.id),
      visits.listVisitsOfSite(app.db, site.id),
    ]);
    return { site, teachers, items };
  });

  registerEndpoint(app, createVisit, { resource: siteOf }, (request) =>
    visitsService.planVisit(
      app.db,
      actorOf(request),
      request.params.siteId,
      romeLocalToDate(request.body.scheduledAt)!,
    ),
  );

  registerEndpoint(app, reportVisit, { resource: visitReportOf }, async (request) => {
    const outcome = await visitsService.reportVisit(
      app.db,
      actorOf(request),
      request.params.visitId,
      request.body,
    );
    if (!outcome.ok) throw new HttpError(outcome.status, outcome.code, outcome.message);
    return outcome.visit;
  });

  registerEndpoint(app, closeVisit, { resource: visitOf }, (request) =>
    visitsService.closeVisit(app.db, actorOf(request), request.params.visitId, request.body),
  );

  registerEndpoint(app, visitCalendarEndpoint, { resource: visitOf }, async (request, reply) => {
    const visit = await visits.findVisit(app.db, request.params.visitId);
    if (!visit) throw notFound(VISIT_MESSAGES.notFound);
    const site = (await sites.findDetectorSite(app.db, visit.schoolSiteId, app.clock.now()))!;
    const ics = visitCalendar(visit, site, { stamp: app.clock.now(), env: app.env });
    return reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="visita-${visit.id}.ics"`)
      .send(ics);
  });

  reportImportRoutes(app);
  await reportPhotoRoutes(app);
}
