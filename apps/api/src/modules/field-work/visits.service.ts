import {
  canTransitionVisit,
  type ConflictCode,
  VISIT_MESSAGES,
  visitReportable,
  type Visit,
  type VisitOutcome,
  type VisitReport,
} from '@portale/shared/field-work';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { submitForReview } from '../review-queue/index.ts';
import { lockSiteDetector, teachersOfSite } from './detector-sites.repository.ts';
import * as reassignments from './visit-reassignments.repository.ts';
import * as submissions from './visit-report-submissions.repository.ts';
import * as visits from './visits.repository.ts';

export const SITE_NOT_FOUND = 'Plesso non trovato.';

const notFound = (message: string) => new HttpError(404, 'not_found', message);
const conflict = (code: string, message: string) => new HttpError(409, code, message);

/** Plans a visit of the plesso for whoever is its detector now, audited; answers the visit. */
export async function planVisit(db: Db, actor: Actor, siteId: number, scheduledAt: Date): Promise<Visit> {
  const now = actor.at;
  if (scheduledAt.getTime() <= now.getTime()) throw fieldError('scheduledAt', VISIT_MESSAGES.future);
  const visitId = await withTransaction(db, async (tx) => {
    const site = await lockSiteDetector(tx, siteId);
    if (!site) throw notFound(SITE_NOT_FOUND);
    if (site.detector === null) throw conflict('site_without_detector', VISIT_MESSAGES.noDetector);
    const id = await visits.insertVisit(tx, {
      schoolSiteId: siteId,
      detectorUserId: site.detector,
      scheduledAt,
      now,
    });
    await auditWrite(tx, actor, {
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
  return (await visits.findVisit(db, visitId))!;
}

/**
 * What a report's send answered: the visit, or the error to answer (a replay answers what the first
 * send answered, an error included). An error outcome is returned, not thrown, because what led to
 * it (the kept conflicting report and its audit row) must commit.
 */
export type ReportOutcome =
  { ok: true; visit: Visit } | { ok: false; status: number; code: string; message: string };

/**
 * The detector (`actor`, whom the endpoint requires signed in) reports the visit, or corrects a report
 * sent back: the visit is held (`svolta`) and goes to review, audited. With `clientReportId` the send
 * is idempotent (issue 39, decision 043). `onBehalfOf`: staff import a detector's exported drafts
 * (decision 051): the report is the detector's, the audit names the staff actor; a visit that is now
 * another detector's is kept as a conflict.
 */
export async function reportVisit(
  db: Db,
  actor: Actor,
  visitId: number,
  { clientReportId, report, teachersMet: sent }: VisitReport,
  onBehalfOf?: { detectorUserId: number },
): Promise<ReportOutcome> {
  const userId = onBehalfOf?.detectorUserId ?? actor.userId!;
  const behalf = onBehalfOf ? { onBehalfOf: userId } : {};
  const now = actor.at;
  const teachersMet = [...new Set(sent)];
  const payloadHash = submissions.payloadHashOf(visitId, report, teachersMet);
  const reused = () => conflict('client_report_id_reused', VISIT_MESSAGES.clientReportIdReused);
  const outcome = await withTransaction(db, async (tx): Promise<{ status: number; body: unknown }> => {
    const visit = await visits.lockVisit(tx, visitId);
    if (!visit) throw notFound(VISIT_MESSAGES.notFound);
    // The visit went to another detector since (decision 061): staff import for a detector who does not
    // hold it, or its former holder's device sends what they wrote. The super-admin reports any visit.
    const reassigned =
      visit.detectorUserId !== userId &&
      (onBehalfOf !== undefined || (await reassignments.heldBefore(tx, visitId, userId)));
    const kept = {
      clientReportId: clientReportId!,
      visitId,
      detectorUserId: userId,
      payloadHash,
      report,
      teachersMet,
      visitState: visit.state,
      importedByUserId: onBehalfOf ? actor.userId : null,
      now,
    };
    if (clientReportId !== undefined) {
      // Idempotency (issue 39, decision 043): a replay answers what the first send answered; never a second report.
      const stored = await submissions.findSubmission(tx, clientReportId);
      if (stored) {
        if (stored.payloadHash !== payloadHash || stored.detectorUserId !== userId) throw reused();
        return { status: stored.status, body: stored.body };
      }
      // Staff changed the visit while the detector was offline (cancelled it, or handed it to another
      // detector: decision 061): keep the version sent, answer a conflict.
      const code: ConflictCode | null =
        visit.state === 'annullata' || visit.state === 'mancata'
          ? 'visit_changed'
          : reassigned
            ? 'visit_reassigned'
            : null;
      if (code) {
        const message =
          code === 'visit_changed' ? VISIT_MESSAGES.visitChanged : VISIT_MESSAGES.visitReassigned;
        const body = { statusCode: 409, code, message };
        const row = { ...kept, outcome: 'conflict' as const, conflictCode: code, status: 409, body };
        if (!(await submissions.insertSubmission(tx, row))) throw reused();
        await auditWrite(tx, actor, {
          action: 'visit.report-conflict',
          entity: 'visit',
          entityId: visitId,
          after: { clientReportId, visitState: visit.state, code, ...behalf },
        });
        return { status: 409, body };
      }
    }
    // A report without a client id is not kept: a former holder's is refused, never put on the visit.
    if (reassigned) throw conflict('visit_reassigned', VISIT_MESSAGES.reassignedNotKept);
    const resubmission = visit.state === 'svolta' && visit.reviewState === 'da_correggere';
    if (!resubmission && !canTransitionVisit(visit.state, 'svolta'))
      throw conflict('visit_transition', VISIT_MESSAGES.notReportable);
    if ((await teachersOfSite(tx, visit.schoolSiteId, teachersMet)).length !== teachersMet.length)
      throw fieldError('teachersMet', VISIT_MESSAGES.teacherNotOfSite);
    if (!visitReportable(visit.scheduledAt, now))
      throw conflict('visit_not_yet_held', VISIT_MESSAGES.notYetHappened);
    await visits.setVisitReport(tx, visitId, { report, teachersMet }, now);
    await submitForReview(tx, { type: 'visite', subjectId: visitId, at: now });
    await auditWrite(tx, actor, {
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
        report,
        teachersMet,
        ...(clientReportId ? { clientReportId } : {}),
        ...behalf,
      },
    });
    const body = (await visits.findVisit(tx, visitId))!;
    // The same id sent at once for two visits: the second finds the first's row and rolls back (409, never a 500).
    if (
      clientReportId !== undefined &&
      !(await submissions.insertSubmission(tx, {
        ...kept,
        outcome: 'accepted',
        conflictCode: null,
        status: 200,
        body,
      }))
    )
      throw reused();
    return { status: 200, body };
  });
  if (outcome.status !== 200) {
    const error = outcome.body as { code: string; message: string };
    return { ok: false, status: outcome.status, code: error.code, message: error.message };
  }
  return { ok: true, visit: outcome.body as Visit };
}

/** Marks a planned visit as cancelled or missed (`annullata`, `mancata`), audited; answers the visit. */
export async function closeVisit(
  db: Db,
  actor: Actor,
  visitId: number,
  { state, note }: VisitOutcome,
): Promise<Visit> {
  await withTransaction(db, async (tx) => {
    const visit = await visits.lockVisit(tx, visitId);
    if (!visit) throw notFound(VISIT_MESSAGES.notFound);
    if (!canTransitionVisit(visit.state, state))
      throw conflict('visit_transition', VISIT_MESSAGES.notPlanned);
    await visits.setVisitOutcome(tx, visitId, state, note ?? null, actor.at);
    await auditWrite(tx, actor, {
      action: `visit.${state}`,
      entity: 'visit',
      entityId: visitId,
      before: { state: visit.state },
      after: { state, note: note ?? null },
    });
  });
  return (await visits.findVisit(db, visitId))!;
}
