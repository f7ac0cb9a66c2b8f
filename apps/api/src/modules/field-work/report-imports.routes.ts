import type { FastifyInstance } from 'fastify';
import {
  CONFLICT_MESSAGES,
  DETECTOR_OVERVIEW_VISITS,
  getDetectorOverview,
  importDetectorReports,
  listVisitReportConflicts,
  resolveVisitReportConflict,
} from '@portale/shared/field-work';
import { HttpError } from '../../lib/http-error.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { signedInActorOf } from '../../plugins/service-context.ts';
import { conflictCountsOf, devicesOf } from './detector-overview.repository.ts';
import * as detectors from './detectors.repository.ts';
import { latestVisitsOfDetector } from './visits.repository.ts';
import * as conflicts from './visit-report-conflicts.repository.ts';
import { resolveConflict } from './visit-report-conflicts.service.ts';
import { importReports } from './report-imports.service.ts';

const notFound = (message: string) => new HttpError(404, 'not_found', message);

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
  registerEndpoint(app, importDetectorReports, { resource: detectorOf }, (request) =>
    importReports(app.db, signedInActorOf(request), request.params.userId, request.body),
  );

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

  registerEndpoint(app, resolveVisitReportConflict, { resource: conflictOf }, (request) =>
    resolveConflict(app.db, signedInActorOf(request), request.params.clientReportId, request.body),
  );
}
