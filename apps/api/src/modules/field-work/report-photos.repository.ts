import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/transaction.ts';
import { visitReportPhotos, visitReportSubmissions, visits } from '../../db/schema/index.ts';

/** The report a photo belongs to, with its visit's detector (the owner check of an upload). */
export async function reportOfPhoto(db: DbOrTx, clientReportId: string) {
  const [row] = await db
    .select({
      visitId: visitReportSubmissions.visitId,
      authorUserId: visitReportSubmissions.detectorUserId,
      visitDetectorUserId: visits.detectorUserId,
      outcome: visitReportSubmissions.outcome,
      resolution: visitReportSubmissions.resolution,
    })
    .from(visitReportSubmissions)
    .innerJoin(visits, eq(visits.id, visitReportSubmissions.visitId))
    .where(eq(visitReportSubmissions.clientReportId, clientReportId));
  return row;
}

/** The report's row, locked: two photos of one report land one after the other. */
export async function lockReport(db: DbOrTx, clientReportId: string): Promise<boolean> {
  const rows = await db
    .select({ id: visitReportSubmissions.clientReportId })
    .from(visitReportSubmissions)
    .where(eq(visitReportSubmissions.clientReportId, clientReportId))
    .for('update');
  return rows.length > 0;
}

/** The photo at a place, a deleted one (tombstone) included: its place stays taken (decision 055, amendment). */
export async function photoAt(db: DbOrTx, clientReportId: string, index: number) {
  const [row] = await db
    .select({ id: visitReportPhotos.id, sha256: visitReportPhotos.sha256 })
    .from(visitReportPhotos)
    .where(
      and(eq(visitReportPhotos.clientReportId, clientReportId), eq(visitReportPhotos.photoIndex, index)),
    );
  return row;
}

/** The bytes a detector's photos take in the store (the per-detector quota). */
export async function storedBytesOf(db: DbOrTx, detectorUserId: number): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${visitReportPhotos.sizeBytes}), 0)` })
    .from(visitReportPhotos)
    .where(and(eq(visitReportPhotos.detectorUserId, detectorUserId), isNull(visitReportPhotos.deletedAt)));
  return Number(row?.total ?? 0);
}

export async function insertPhoto(db: DbOrTx, values: typeof visitReportPhotos.$inferInsert) {
  await db.insert(visitReportPhotos).values(values);
}

const PHOTO_COLUMNS = {
  id: visitReportPhotos.id,
  clientReportId: visitReportPhotos.clientReportId,
  index: visitReportPhotos.photoIndex,
  mediaType: visitReportPhotos.mediaType,
  sizeBytes: visitReportPhotos.sizeBytes,
  createdAt: visitReportPhotos.createdAt,
  fileKey: visitReportPhotos.fileKey,
};

/**
 * The photos with their report and visit: what the list shows and what decides who may delete (a
 * deleted one too: its tombstone). One select, narrowed by its callers.
 */
const photosWithOwnership = (db: DbOrTx) =>
  db
    .select({
      ...PHOTO_COLUMNS,
      sha256: visitReportPhotos.sha256,
      deletedAt: visitReportPhotos.deletedAt,
      authorUserId: visitReportSubmissions.detectorUserId,
      visitDetectorUserId: visits.detectorUserId,
      outcome: visitReportSubmissions.outcome,
      resolution: visitReportSubmissions.resolution,
      reviewState: visits.reviewState,
    })
    .from(visitReportPhotos)
    .innerJoin(
      visitReportSubmissions,
      eq(visitReportSubmissions.clientReportId, visitReportPhotos.clientReportId),
    )
    .innerJoin(visits, eq(visits.id, visitReportSubmissions.visitId))
    .$dynamic();

/**
 * The photos of the reports a visit holds (accepted when sent, or a conflict staff accepted), oldest
 * report first, in their order; with `clientReportId`, that one report's, a kept conflict's included
 * (decision 061). Deleted ones left out.
 */
export function photosOfVisit(db: DbOrTx, visitId: number, clientReportId?: string) {
  const reports = clientReportId
    ? eq(visitReportSubmissions.clientReportId, clientReportId)
    : or(eq(visitReportSubmissions.outcome, 'accepted'), eq(visitReportSubmissions.resolution, 'accepted'));
  return photosWithOwnership(db)
    .where(and(eq(visitReportSubmissions.visitId, visitId), reports, isNull(visitReportPhotos.deletedAt)))
    .orderBy(asc(visitReportSubmissions.createdAt), asc(visitReportPhotos.photoIndex));
}

export async function photoOfVisit(db: DbOrTx, visitId: number, photoId: number) {
  const [row] = await db
    .select(PHOTO_COLUMNS)
    .from(visitReportPhotos)
    .innerJoin(
      visitReportSubmissions,
      eq(visitReportSubmissions.clientReportId, visitReportPhotos.clientReportId),
    )
    .where(
      and(
        eq(visitReportSubmissions.visitId, visitId),
        eq(visitReportPhotos.id, photoId),
        isNull(visitReportPhotos.deletedAt),
      ),
    );
  return row;
}

/** A photo of a visit to delete, locked, with what decides who may (a deleted one too: its tombstone). */
export async function photoToDelete(db: DbOrTx, visitId: number, photoId: number) {
  const [row] = await photosWithOwnership(db)
    .where(and(eq(visitReportSubmissions.visitId, visitId), eq(visitReportPhotos.id, photoId)))
    .for('update', { of: visitReportPhotos });
  return row;
}

/** The photo becomes a tombstone: no file, out of the lists and the quota, its place still taken. */
export async function markPhotoDeleted(db: DbOrTx, photoId: number, byUserId: number, at: Date) {
  await db
    .update(visitReportPhotos)
    .set({ deletedAt: at, deletedByUserId: byUserId, fileKey: null })
    .where(eq(visitReportPhotos.id, photoId));
}
