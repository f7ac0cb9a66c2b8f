import {
  ASSIGNMENT_MESSAGES,
  type AssignmentBody,
  type AssignmentResult,
  type DetectorSummary,
  type DetectorUpdate,
  type DeviceQueueReport,
  type DeviceQueueState,
} from '@portale/shared/field-work';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, changedFields, type Actor } from '../../lib/audit.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { clearSchoolSiteTotals } from '../registry/index.ts';
import * as sites from './detector-sites.repository.ts';
import * as detectors from './detectors.repository.ts';
import { notifyReassignedVisits } from './field-work-notices.ts';
import * as reassignments from './visit-reassignments.repository.ts';

/**
 * Changes a detector's provinces and state, audited with what changed (nothing written when nothing
 * changes); answers the detector as they stand.
 */
export async function updateDetector(
  db: Db,
  actor: Actor,
  userId: number,
  changes: DetectorUpdate,
): Promise<DetectorSummary> {
  const now = actor.at;
  await withTransaction(db, async (tx) => {
    const before = await detectors.lockDetectorProfile(tx, userId, now);
    const after = {
      ...changes,
      ...(changes.provinces ? { provinces: [...new Set(changes.provinces)].sort() } : {}),
    };
    const diff = changedFields(
      { active: before.active, provinces: before.provinces.join(',') },
      { active: after.active, provinces: after.provinces?.join(',') },
    );
    if (Object.keys(diff.after).length === 0) return;
    await detectors.updateDetectorProfile(tx, userId, after, now);
    await auditWrite(tx, actor, {
      action: 'detector.updated',
      entity: 'user',
      entityId: userId,
      ...diff,
    });
  });
  return (await detectors.findDetector(db, userId, now))!;
}

/**
 * Assigns plessi (a list or a filter) to a detector, moves them or removes their detector. Without
 * `confirm` it only counts; with it, it applies in one transaction, refusing more than 5000 plessi
 * or a count that changed since the preview (`expectedCount`). The plessi's planned visits go with
 * them to the new detector, and both detectors are told (decision 061).
 */
export async function assignSchoolSites(
  db: Db,
  actor: Actor,
  body: AssignmentBody,
  deps: { webUrl: string },
): Promise<AssignmentResult> {
  const now = actor.at;
  if (body.detectorUserId !== null && !(await detectors.isDetectorUser(db, body.detectorUserId)))
    throw fieldError('detectorUserId', ASSIGNMENT_MESSAGES.notDetector);
  const target = body.siteIds ? { siteIds: [...new Set(body.siteIds)] } : { filter: body.filter! };
  if (target.siteIds && (await sites.countExistingSites(db, target.siteIds)) !== target.siteIds.length)
    throw fieldError('siteIds', 'Tra i plessi indicati ce n’è qualcuno che non esiste.');
  const where = sites.assignmentTarget(target);
  if (!body.confirm)
    return {
      ...(await sites.countAssignment(db, target, body.detectorUserId)),
      visitsMoved: await reassignments.countVisitsToMove(db, where, body.detectorUserId),
      updated: 0,
      applied: false,
    };
  return withTransaction(db, async (tx) => {
    const counts = await sites.countAssignment(tx, target, body.detectorUserId, true);
    if (counts.matched > 5000) throw fieldError('filter', ASSIGNMENT_MESSAGES.tooMany);
    if (body.expectedCount !== undefined && body.expectedCount !== counts.matched)
      throw new HttpError(409, 'assignment_count_changed', ASSIGNMENT_MESSAGES.countChanged);
    // The visits first: the filter may name the plessi by their detector before the assignment.
    const moved = await reassignments.moveVisitsOfSites(tx, where, body.detectorUserId, actor.userId, now);
    const ids = await sites.applyAssignment(tx, target, body.detectorUserId, now);
    if (moved.length > 0)
      await notifyReassignedVisits(tx, moved, body.detectorUserId!, { webUrl: deps.webUrl, now });
    if (ids.length > 0 || moved.length > 0) {
      await auditWrite(tx, actor, {
        action:
          body.detectorUserId === null ? 'school-site.detector-removed' : 'school-site.detector-assigned',
        entity: 'school-site',
        entityId: ids.length === 1 ? ids[0] : undefined,
        before: { ...counts },
        after: {
          detectorUserId: body.detectorUserId,
          siteIds: ids,
          ...(target.filter ? { filter: target.filter } : {}),
          ...(moved.length > 0 ? { visitsMoved: moved } : {}),
        },
      });
    }
    clearSchoolSiteTotals();
    return { ...counts, visitsMoved: moved.length, updated: ids.length, applied: true };
  });
}

/**
 * A detector's device says how many reports it has not sent yet and since when (issue 39): kept per
 * device, answered as staff see it (every device of the detector). A state report, not a change of
 * business data: not audited. A device whose clock is ahead cannot put the oldest report in the future.
 */
export async function reportDeviceQueue(
  db: Db,
  actor: Actor,
  userId: number,
  report: DeviceQueueReport,
): Promise<DeviceQueueState> {
  const now = actor.at;
  const oldest =
    report.oldestUnsentAt && new Date(report.oldestUnsentAt) > now
      ? now.toISOString()
      : report.oldestUnsentAt;
  await detectors.upsertDeviceQueue(db, userId, { ...report, oldestUnsentAt: oldest }, now);
  const detector = await detectors.findDetector(db, userId, now);
  if (!detector) throw new HttpError(404, 'not_found', 'Rilevatore non trovato.');
  return {
    unsentReports: detector.unsentReports,
    oldestUnsentAt: detector.oldestUnsentAt,
    queueReportedAt: detector.queueReportedAt,
  };
}
