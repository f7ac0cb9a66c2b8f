import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { OwnedResource } from '@portale/shared/auth';
import { REPORT_PHOTO_LIMITS, REPORT_PHOTO_MESSAGES as M } from '@portale/shared/field-work';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
import { HttpError } from '../../lib/http-error.ts';
import { FILE_SIGNATURES, sniffFile } from '../../plugins/uploads.ts';
import * as photos from './report-photos.repository.ts';

/** What a tus upload says about its photo (its `Upload-Metadata`), checked. */
export interface PhotoMeta {
  clientReportId: string;
  index: number;
  /** The SHA-256 the browser computed: the bytes that arrive must have it. */
  sha256: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHA256 = /^[0-9a-f]{64}$/;
/** A tus upload id: the report's client id, the photo's index and a random part (the upload is bound to them). */
const UPLOAD_ID = /^([0-9a-f-]{36})_([0-4])_[0-9a-f]{32}$/;

function badMetadata(): HttpError {
  return new HttpError(422, 'invalid_photo_metadata', M.badMetadata);
}

export function quotaBytes(app: FastifyInstance): number {
  return app.env.DETECTOR_PHOTO_QUOTA_MB * 1024 * 1024;
}

/** The photo's metadata, or an Italian 422 (an index past the fifth: "Al massimo 5 foto"). */
export function photoMetaOf(raw: Record<string, string | null | undefined> | undefined): PhotoMeta {
  const clientReportId = raw?.clientReportId?.toLowerCase() ?? '';
  const index = Number(raw?.index);
  const sha256 = raw?.sha256?.toLowerCase() ?? null;
  const type = raw?.filetype ?? '';
  if (!UUID.test(clientReportId) || raw?.index === undefined || !Number.isInteger(index) || index < 0)
    throw badMetadata();
  if (index >= REPORT_PHOTO_LIMITS.perReport) throw new HttpError(422, 'too_many_photos', M.tooMany);
  if (sha256 !== null && !SHA256.test(sha256)) throw badMetadata();
  if (type && !['image/jpeg', 'image/png'].includes(type))
    throw new HttpError(415, 'invalid_photo_type', M.badType);
  return { clientReportId, index, sha256 };
}

/** The report and photo an upload id is bound to (undefined: not one of ours). */
export function photoOfUploadId(id: string): Pick<PhotoMeta, 'clientReportId' | 'index'> | undefined {
  const match = UPLOAD_ID.exec(id);
  return match ? { clientReportId: match[1]!, index: Number(match[2]) } : undefined;
}

/** What decides who owns a sent report's photos. */
export interface ReportOwnership {
  authorUserId: number;
  visitDetectorUserId: number;
  outcome: 'accepted' | 'conflict';
  resolution: 'accepted' | 'discarded' | null;
}

/**
 * Who may add a report's photos, or delete them before its review: its author, when they are the
 * visit's detector or while their report waits as a conflict for staff; once staff discard it, or a
 * report reached a visit now held by someone else, nobody.
 */
export function ownersOfReport(report: ReportOwnership): OwnedResource {
  const holdsVisit = report.authorUserId === report.visitDetectorUserId;
  // A former holder's report kept as a conflict (decision 061): their version, photos included, is what staff decide on.
  const openConflict = report.outcome === 'conflict' && report.resolution === null;
  return { ownerUserIds: holdsVisit || openConflict ? [report.authorUserId] : [] };
}

/** The owners of a sent report's photos (the photo routes' resource): unknown report (not yet sent), 404. */
export async function photoOwnersOf(app: FastifyInstance, clientReportId: string): Promise<OwnedResource> {
  const report = await photos.reportOfPhoto(app.db, clientReportId);
  if (!report) throw new HttpError(404, 'report_not_found', M.reportMissing);
  return ownersOfReport(report);
}

/**
 * The early checks of a photo before any byte is stored (a tus upload's start, an imported photo, its
 * preview): the index and size in bounds, the place still free, and the author's quota with `size` more
 * (`quotaLeft`: what is left of it, when the caller counts it itself). `received`: the server has this
 * very photo at that place (a replay). A refusal is an HttpError with its Italian reason. `landPhoto`
 * checks the place and quota again under the report's lock.
 */
export async function photoFits(
  app: FastifyInstance,
  authorUserId: number,
  meta: Pick<PhotoMeta, 'clientReportId' | 'index' | 'sha256'>,
  size: number,
  quotaLeft?: number,
): Promise<'fits' | 'received'> {
  if (!Number.isInteger(meta.index) || meta.index < 0 || meta.index >= REPORT_PHOTO_LIMITS.perReport)
    throw new HttpError(422, 'too_many_photos', M.tooMany);
  if (!Number.isInteger(size) || size <= 0) throw badMetadata();
  if (size > REPORT_PHOTO_LIMITS.maxBytes) throw new HttpError(413, 'photo_too_large', M.tooLarge);
  const existing = await photos.photoAt(app.db, meta.clientReportId, meta.index);
  if (existing) {
    if (meta.sha256 !== null && existing.sha256 === meta.sha256) return 'received';
    throw new HttpError(409, 'photo_index_taken', M.indexTaken);
  }
  const left = quotaLeft ?? quotaBytes(app) - (await photos.storedBytesOf(app.db, authorUserId));
  if (size > left) throw new HttpError(413, 'photo_quota_exceeded', M.quota);
  return 'fits';
}

/**
 * Before a tus upload accepts a byte (its route has checked that `uploaderUserId` owns the report, so
 * the quota counted is theirs): `photoFits`, a replay answered 409 "already received" (the client then
 * counts the photo as sent).
 */
export async function checkUploadStart(
  app: FastifyInstance,
  uploaderUserId: number,
  meta: PhotoMeta,
  size: number,
): Promise<void> {
  if ((await photoFits(app, uploaderUserId, meta, size)) === 'received')
    throw new HttpError(409, 'photo_already_received', M.alreadyReceived);
}

/** A tus hook's refusal: the protocol server writes it as the answer (JSON, like every API error). */
export function tusRefusal(error: HttpError) {
  return {
    status_code: error.statusCode,
    body: JSON.stringify({ statusCode: error.statusCode, code: error.code, message: error.message }),
  };
}

/**
 * A whole upload lands in the file store (decision 030, disk or S3): streamed from the tus file,
 * hashed and counted; refused unless its first bytes are JPEG or PNG and its SHA-256 is the one the
 * browser announced; then recorded under the report's lock with the quotas checked again. Whatever
 * is refused leaves nothing in the store.
 */
export async function landPhoto(
  app: FastifyInstance,
  meta: PhotoMeta,
  uploadPath: string | Readable,
  actor?: Actor,
): Promise<{ duplicate: boolean }> {
  const tooLarge = () => new HttpError(413, 'photo_too_large', M.tooLarge);
  const source = typeof uploadPath === 'string' ? createReadStream(uploadPath) : uploadPath;
  const file = await app.files.put(source, {
    maxBytes: REPORT_PHOTO_LIMITS.maxBytes,
    tooLarge,
  });
  let kept = false;
  try {
    const signature = sniffFile(file.head, [FILE_SIGNATURES.jpeg, FILE_SIGNATURES.png]);
    if (!signature) throw new HttpError(415, 'invalid_photo_type', M.badType);
    if (meta.sha256 !== null && meta.sha256 !== file.sha256)
      throw new HttpError(422, 'photo_damaged', M.damaged);
    const result = await withTransaction(app.db, async (tx) => {
      const report = await photos.reportOfPhoto(tx, meta.clientReportId);
      if (!report || !(await photos.lockReport(tx, meta.clientReportId)))
        throw new HttpError(404, 'report_not_found', M.reportMissing);
      const existing = await photos.photoAt(tx, meta.clientReportId, meta.index);
      if (existing) {
        if (existing.sha256 === file.sha256) return { duplicate: true };
        throw new HttpError(409, 'photo_index_taken', M.indexTaken);
      }
      if ((await photos.storedBytesOf(tx, report.authorUserId)) + file.sizeBytes > quotaBytes(app))
        throw new HttpError(413, 'photo_quota_exceeded', M.quota);
      await photos.insertPhoto(tx, {
        clientReportId: meta.clientReportId,
        photoIndex: meta.index,
        detectorUserId: report.authorUserId,
        fileKey: file.key,
        mediaType: signature.type,
        sizeBytes: file.sizeBytes,
        sha256: file.sha256,
        createdAt: app.clock.now(),
      });
      // One audit row per photo received (decision 055, amendment): what arrived, never its bytes. The
      // uploader is the report's author (checked on every tus request) unless the caller says who.
      await auditWrite(tx, actor ?? { userId: report.authorUserId, ip: null, at: app.clock.now() }, {
        action: 'visit-report.photo-received',
        entity: 'visit',
        entityId: report.visitId,
        after: {
          clientReportId: meta.clientReportId,
          index: meta.index,
          sizeBytes: file.sizeBytes,
          sha256: file.sha256,
          mediaType: signature.type,
        },
      });
      return { duplicate: false };
    });
    kept = !result.duplicate;
    return result;
  } finally {
    if (!kept) await app.files.remove(file.key).catch(() => undefined);
  }
}

/**
 * A photo from a detector's exported drafts file, imported by staff (decision 051, amendment): only a
 * report of `detectorUserId` that is on the server takes it; the same early checks as the start of a
 * tus upload (size, the index free, the detector's quota), then `landPhoto` (magic bytes, the SHA-256
 * the device announced, the index and quota again under the report's lock). A photo the server has
 * already (same SHA-256 at that index: a replayed import) is `duplicate` and the store is not touched.
 */
export async function landImportedPhoto(
  app: FastifyInstance,
  detectorUserId: number,
  meta: PhotoMeta & { sha256: string },
  bytes: Buffer,
  actor?: Actor,
): Promise<{ duplicate: boolean }> {
  const report = await photos.reportOfPhoto(app.db, meta.clientReportId);
  if (!report || report.authorUserId !== detectorUserId)
    throw new HttpError(404, 'report_not_found', M.reportMissing);
  if ((await photoFits(app, report.authorUserId, meta, bytes.length)) === 'received')
    return { duplicate: true };
  return landPhoto(app, meta, Readable.from([bytes]), actor);
}
