import {
  CONFLICT_MESSAGES,
  visitReportable,
  type ConflictResolutionBody,
  type VisitReportConflict,
} from '@portale/shared/field-work';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, type SignedInActor } from '../../lib/audit.ts';
import { HttpError } from '../../lib/http-error.ts';
import { submitForReview } from '../review-queue/index.ts';
import { teachersOfSite } from './detector-sites.repository.ts';
import * as conflicts from './visit-report-conflicts.repository.ts';
import { reassignVisit } from './visit-reassignments.repository.ts';
import * as visits from './visits.repository.ts';

const conflict = (code: string, message: string) => new HttpError(409, code, message);

/**
 * Staff decide a kept conflict (issue 39, decision 051): `accept` puts the device's report on the visit
 * (held, its author's again, to review), `discard` keeps it as it is with the note. Audited; a conflict
 * is decided once.
 */
export async function resolveConflict(
  db: Db,
  actor: SignedInActor,
  clientReportId: string,
  { decision, note }: ConflictResolutionBody,
): Promise<VisitReportConflict> {
  const now = actor.at;
  await withTransaction(db, async (tx) => {
    const kept = await conflicts.lockConflict(tx, clientReportId);
    if (!kept) throw new HttpError(404, 'not_found', CONFLICT_MESSAGES.notFound);
    if (kept.resolution !== null) throw conflict('conflict_resolved', CONFLICT_MESSAGES.resolved);
    const visit = (await visits.lockVisit(tx, kept.visitId))!;
    const resolution = decision === 'accept' ? 'accepted' : 'discarded';
    if (decision === 'accept') {
      if (visit.state === 'svolta' && visit.reviewState !== 'da_correggere')
        throw conflict('visit_reported', CONFLICT_MESSAGES.alreadyReported);
      const teachers = await teachersOfSite(tx, visit.schoolSiteId, kept.teachersMet);
      if (teachers.length !== new Set(kept.teachersMet).size)
        throw conflict('teacher_not_of_site', CONFLICT_MESSAGES.teacherNotOfSite);
      if (!visitReportable(visit.scheduledAt, now))
        throw conflict('visit_not_yet_held', CONFLICT_MESSAGES.notYetHeld);
      await visits.setVisitReport(tx, kept.visitId, kept, now);
      if (visit.detectorUserId !== kept.detectorUserId)
        await reassignVisit(
          tx,
          kept.visitId,
          { from: visit.detectorUserId, to: kept.detectorUserId, byUserId: actor.userId },
          now,
        );
      await submitForReview(tx, { type: 'visite', subjectId: kept.visitId, at: now });
    }
    await conflicts.setResolution(tx, clientReportId, {
      resolution,
      note: note ?? null,
      by: actor.userId,
      at: now,
    });
    await auditWrite(tx, actor, {
      action: decision === 'accept' ? 'visit.report-conflict-accepted' : 'visit.report-conflict-discarded',
      entity: 'visit',
      entityId: kept.visitId,
      before: {
        state: visit.state,
        detectorUserId: visit.detectorUserId,
        outcomeNote: visit.outcomeNote,
        report: visit.report,
        teachersMet: visit.teachersMet,
      },
      after: {
        clientReportId,
        resolution,
        note: note ?? null,
        ...(decision === 'accept'
          ? {
              state: 'svolta',
              reviewState: 'in_attesa',
              detectorUserId: kept.detectorUserId,
              report: kept.report,
              teachersMet: kept.teachersMet,
            }
          : {}),
      },
    });
  });
  return (await conflicts.findConflict(db, clientReportId))!;
}
