import type { FastifyInstance } from 'fastify';
import { can, type PermissionSubject } from '@portale/shared/auth';
import { REPORT_PHOTO_MESSAGES as M } from '@portale/shared/field-work';
import type { ReviewState } from '@portale/shared/reviews';
import { auditWrite, type SignedInActor } from '../../lib/audit.ts';
import { withTransaction } from '../../db/transaction.ts';
import { HttpError } from '../../lib/http-error.ts';
import * as photos from './report-photos.repository.ts';
import { ownersOfReport, type ReportOwnership } from './report-photos.service.ts';
import { notifyPhotoDeleted } from './field-work-notices.ts';

/** Once the visit's report is approved or rejected, its detector no longer deletes its photos. */
const REVIEWED: readonly (ReviewState | null)[] = ['approvata', 'respinta'];

interface PhotoOwnership extends ReportOwnership {
  reviewState: ReviewState | null;
}

/** Why `user` may not delete the photo (undefined: they may). Decision 055, amendment. */
function refusalOf(user: PermissionSubject, photo: PhotoOwnership): string | undefined {
  // Staff who decide reviews (the visit reports' reviewers) delete any photo, at any time.
  if (can(user, 'decide:review')) return undefined;
  if (!can(user, 'create:visit-photo', ownersOfReport(photo))) return M.notDeletable;
  return REVIEWED.includes(photo.reviewState) ? M.reviewed : undefined;
}

/** Whether `user` may delete a photo (the list's `deletable`, which shows the button). */
export function mayDeletePhoto(user: PermissionSubject, photo: PhotoOwnership): boolean {
  return refusalOf(user, photo) === undefined;
}

/**
 * Deletes a sent photo: the row becomes a tombstone (no file, out of the list and of the detector's
 * quota, its place taken so a replayed upload is answered "already received"), audited without the
 * photo; then its file leaves the store (a removal that fails leaves a file the sweep removes, since no
 * row names it any more). Unknown or already deleted: 404.
 */
export async function deleteVisitPhoto(
  app: FastifyInstance,
  user: PermissionSubject,
  actor: SignedInActor,
  visitId: number,
  photoId: number,
): Promise<void> {
  const fileKey = await withTransaction(app.db, async (tx) => {
    const photo = await photos.photoToDelete(tx, visitId, photoId);
    if (!photo || photo.deletedAt) throw new HttpError(404, 'not_found', M.notFound);
    const refusal = refusalOf(user, photo);
    if (refusal) throw new HttpError(403, 'forbidden', refusal);
    await photos.markPhotoDeleted(tx, photo.id, actor.userId, actor.at);
    await auditWrite(tx, actor, {
      action: 'visit-report.photo-deleted',
      entity: 'visit',
      entityId: visitId,
      before: {
        clientReportId: photo.clientReportId,
        index: photo.index,
        sizeBytes: photo.sizeBytes,
        sha256: photo.sha256,
        mediaType: photo.mediaType,
      },
    });
    // Staff deleted it: its author is told, so they do not wonder where it went nor send it again.
    if (photo.authorUserId !== actor.userId)
      await notifyPhotoDeleted(
        tx,
        { visitId, authorUserId: photo.authorUserId, index: photo.index },
        {
          webUrl: app.env.publicWebUrl,
          now: actor.at,
        },
      );
    return photo.fileKey;
  });
  if (fileKey)
    await app.files.remove(fileKey).catch((error: unknown) => {
      app.log.warn({ err: error, visitId, photoId }, 'deleted photo file not removed (the sweep will)');
    });
}
