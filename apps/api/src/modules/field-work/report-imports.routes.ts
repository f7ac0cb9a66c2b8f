import type { FastifyInstance } from 'fastify';
import {
  CONFLICT_CODE_LABELS,
  CONFLICT_MESSAGES,
  DETECTOR_OVERVIEW_VISITS,
  exportVisitReportConflicts,
  getDetectorOverview,
  importDetectorReports,
  listVisitReportConflicts,
  resolveVisitReportConflict,
  VISIT_STATE_LABELS,
  type VisitReportConflict,
} from '@portale/shared/field-work';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { HttpError } from '../../lib/http-error.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { signedInActorOf } from '../../plugins/service-context.ts';
import { conflictCountsOf, devicesOf } from './detector-overview.repository.ts';
import * as detectors from './detectors.repository.ts';
import { latestVisitsOfDetector } from './visits.repository.ts';
import * as conflicts from './visit-report-conflicts.repository.ts';
import { resolveConflict } from './visit-report-conflicts.service.ts';
import { importReports } from './report-imports.service.ts';
import { largeJsonBody } from './report-imports.body.ts';

const notFound = (message: string) => new HttpError(404, 'not_found', message);

const fullName = (p: { firstName: string; lastName: string } | null) =>
  p ? `${p.lastName} ${p.firstName}` : '';
const DECISIONS = { accepted: 'Accettato', discarded: 'Scartato' } as const;

const CONFLICT_EXPORT: ExportColumn<VisitReportConflict>[] = [
  { header: 'Arrivato il', value: (c) => new Date(c.submittedAt) },
  { header: 'Motivo', value: (c) => CONFLICT_CODE_LABELS[c.code] },
  { header: 'Rilevatore', value: (c) => fullName(c.detector) },
  { header: 'Codice meccanografico', value: (c) => c.visit.site.ministryCode },
  { header: 'Plesso', value: (c) => c.visit.site.name },
  { header: 'Visita prevista il', value: (c) => new Date(c.visit.scheduledAt) },
  { header: 'Stato della visita all’arrivo', value: (c) => VISIT_STATE_LABELS[c.visitState] },
  { header: 'Stato della visita ora', value: (c) => VISIT_STATE_LABELS[c.visit.state] },
  { header: 'Resoconto del dispositivo', value: (c) => c.report },
  { header: 'Insegnanti incontrati', value: (c) => c.teachersMet.map(fullName).join('; ') },
  { header: 'Importato da', value: (c) => fullName(c.importedBy) },
  { header: 'Decisione', value: (c) => (c.resolution ? DECISIONS[c.resolution.decision] : 'Da risolvere') },
  { header: 'Nota della decisione', value: (c) => c.resolution?.note ?? '' },
  { header: 'Deciso da', value: (c) => fullName(c.resolution?.by ?? null) },
];
/** Conflicts are few (one per report that met a changed visit): the export reads them page by page. */
const EXPORT_PAGE = 100;

/** The detector the drafts are imported for: only staff's `:any` grant reaches them; unknown → 404. */
function detectorOf(request: RequestWithParams<{ userId: number }>) {
  return detectors
    .isDetectorUser(request.server.db, request.params.userId)
    .then((yes) => (yes ? { ownerUserIds: [] } : Promise.reject(notFound('Rilevatore non trovato.'))));
}

/** A kept conflict: decided by staff (`:any`); unknown → 404. */
function conflictOf(request: RequestWithParams<{ clientReportId: string }>) {
  return conflicts
    .findConflict(request.server.db, request.params.clientReportId)
    .then((found) => (found ? { ownerUserIds: [] } : Promise.reject(notFound(CONFLICT_MESSAGES.notFound))));
}

/** Staff import a detector's exported drafts, decide the conflicts and see one detector (issue 39, decision 051). */
export function reportImportRoutes(app: FastifyInstance) {
  // The file with its photos is larger than the server's 1 MB body: a scope of its own reads it.
  void app.register(async (scope) => {
    largeJsonBody(scope);
    registerEndpoint(scope, importDetectorReports, { resource: detectorOf }, (request) =>
      importReports(app, signedInActorOf(request), request.params.userId, request.body),
    );
  });

  registerEndpoint(app, getDetectorOverview, { resource: detectorOf }, async (request) => {
    const { userId } = request.params;
    const [detector, devices, visits, conflicts] = await Promise.all([
      detectors.findDetector(app.db, userId, app.clock.now()),
      devicesOf(app.db, userId),
      latestVisitsOfDetector(app.db, userId, DETECTOR_OVERVIEW_VISITS),
      conflictCountsOf(app.db, userId),
    ]);
    return { detector: detector!, devices, visits, conflicts };
  });

  registerEndpoint(app, listVisitReportConflicts, { anyOnly: true }, (request) =>
    conflicts.listConflicts(app.db, request.query),
  );

  registerEndpoint(app, exportVisitReportConflicts, { anyOnly: true }, async (request, reply) => {
    const { format, ...filters } = request.query;
    const pageOf = (page: number) =>
      conflicts.listConflicts(app.db, { ...filters, page, pageSize: EXPORT_PAGE });
    const first = await pageOf(1);
    return sendExport(reply, {
      format,
      name: 'conflitti-resoconti',
      sheetName: 'Conflitti',
      columns: CONFLICT_EXPORT,
      total: first.total,
      today: app.clock.now(),
      produce: async (write) => {
        for (let page = 1, rows = first; rows.items.length > 0; rows = await pageOf(++page)) {
          if ((await write(rows.items)) === false || page * EXPORT_PAGE >= rows.total) return;
        }
      },
    });
  });

  registerEndpoint(app, resolveVisitReportConflict, { resource: conflictOf }, (request) =>
    resolveConflict(app.db, signedInActorOf(request), request.params.clientReportId, request.body),
  );
}
