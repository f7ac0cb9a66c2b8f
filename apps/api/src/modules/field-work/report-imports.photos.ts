import type { Actor } from '../../lib/audit.ts';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  REPORT_IMPORT_MESSAGES as M,
  REPORT_PHOTO_LIMITS,
  REPORT_PHOTO_TYPES,
  type DraftFilePhoto,
  type DraftFileReport,
  type ReportImportPhoto,
  type ReportImportStatus,
} from '@portale/shared/field-work';
import { HttpError } from '../../lib/http-error.ts';
import { FILE_SIGNATURES, sniffFile } from '../../plugins/uploads.ts';
import * as photos from './report-photos.repository.ts';
import { landImportedPhoto, photoFits, quotaBytes } from './report-photos.service.ts';

// The photos of an imported drafts file (decision 051, amendment "photos in the exported drafts"):
// checked one by one before confirming, landed through the tus upload's checks once confirmed.

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const SHA256 = /^[0-9a-f]{64}$/;

/**
 * A report whose photos land: it is on the server, accepted (now or by an earlier send) or kept as a
 * conflict (the detector's version, photos included, is what staff decide on: decision 051, as the
 * device's own upload of a conflict's photos, decision 055).
 */
const TAKES_PHOTOS: readonly ReportImportStatus[] = ['new', 'imported', 'received', 'conflict'];

type Decoded = { bytes: Buffer; sha256: string } | { message: string };

/**
 * The photo's bytes from the file, checked without the store or the database: base64, its announced
 * size and SHA-256, at most 5 MB, JPEG or PNG by its first bytes. One photo is in memory at a time.
 */
export function decodePhoto(photo: DraftFilePhoto): Decoded {
  if (photo.data.length === 0 || photo.data.length % 4 !== 0 || !BASE64.test(photo.data))
    return { message: M.photoData };
  if (!(REPORT_PHOTO_TYPES as readonly string[]).includes(photo.mediaType)) return { message: M.photoType };
  const bytes = Buffer.from(photo.data, 'base64');
  if (bytes.length > REPORT_PHOTO_LIMITS.maxBytes) return { message: M.photoTooLarge };
  if (bytes.length !== photo.sizeBytes) return { message: M.photoSize };
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (!SHA256.test(photo.sha256.toLowerCase()) || photo.sha256.toLowerCase() !== sha256)
    return { message: M.photoHash };
  if (!sniffFile(bytes.subarray(0, 16), [FILE_SIGNATURES.jpeg, FILE_SIGNATURES.png]))
    return { message: M.photoType };
  return { bytes, sha256 };
}

const photoOf = (
  photo: DraftFilePhoto,
  status: ReportImportPhoto['status'],
  message: string | null = null,
): ReportImportPhoto => ({ index: photo.index, sizeBytes: photo.sizeBytes, status, message });

/** What is left of the detector's photo quota (bytes), shared by the reports of one preview. */
export async function photoBudget(
  app: FastifyInstance,
  detectorUserId: number,
): Promise<{ left: number; detectorUserId: number }> {
  return { left: quotaBytes(app) - (await photos.storedBytesOf(app.db, detectorUserId)), detectorUserId };
}

/** Before confirming: each photo of the report `valid`, `received` (the server has it) or `invalid` (why). */
export async function previewPhotos(
  app: FastifyInstance,
  draft: DraftFileReport,
  status: ReportImportStatus,
  budget: { left: number; detectorUserId: number },
): Promise<ReportImportPhoto[]> {
  const items: ReportImportPhoto[] = [];
  for (const photo of draft.photos) {
    const decoded = decodePhoto(photo);
    if ('message' in decoded) items.push(photoOf(photo, 'invalid', decoded.message));
    else if (!TAKES_PHOTOS.includes(status)) items.push(photoOf(photo, 'invalid', M.photoOfInvalid));
    else items.push(await previewOne(app, draft, photo, decoded, budget));
  }
  return items;
}

async function previewOne(
  app: FastifyInstance,
  draft: DraftFileReport,
  photo: DraftFilePhoto,
  decoded: { bytes: Buffer; sha256: string },
  budget: { left: number; detectorUserId: number },
): Promise<ReportImportPhoto> {
  const meta = { clientReportId: draft.clientReportId, index: photo.index, sha256: decoded.sha256 };
  try {
    const fits = await photoFits(app, budget.detectorUserId, meta, decoded.bytes.length, budget.left);
    if (fits === 'received') return photoOf(photo, 'received');
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return photoOf(photo, 'invalid', refusalOf(app, error));
  }
  budget.left -= decoded.bytes.length;
  return photoOf(photo, 'valid');
}

/** The Italian reason of a refusal by the upload's checks, as staff read it. */
function refusalOf(app: FastifyInstance, error: HttpError): string {
  const messages: Record<string, string> = {
    photo_quota_exceeded: M.photoQuota(app.env.DETECTOR_PHOTO_QUOTA_MB),
    photo_too_large: M.photoTooLarge,
    invalid_photo_type: M.photoType,
    photo_damaged: M.photoHash,
    photo_index_taken: M.photoIndexTaken,
  };
  return messages[error.code] ?? error.message;
}

/**
 * Once the report is sent: each photo through the tus upload's checks into the file store, `landed`,
 * `received` (a replay: nothing new) or `refused` (why; nothing stored). A report not on the server
 * (in conflict, not importable) takes none.
 */
export async function landPhotos(
  app: FastifyInstance,
  detectorUserId: number,
  draft: DraftFileReport,
  status: ReportImportStatus,
  actor: Actor,
): Promise<ReportImportPhoto[]> {
  const items: ReportImportPhoto[] = [];
  for (const photo of draft.photos) {
    const decoded = decodePhoto(photo);
    if ('message' in decoded) {
      items.push(photoOf(photo, 'refused', decoded.message));
      continue;
    }
    if (!TAKES_PHOTOS.includes(status)) {
      items.push(photoOf(photo, 'refused', M.photoOfInvalid));
      continue;
    }
    try {
      const meta = { clientReportId: draft.clientReportId, index: photo.index, sha256: decoded.sha256 };
      const { duplicate } = await landImportedPhoto(app, detectorUserId, meta, decoded.bytes, actor);
      items.push(photoOf(photo, duplicate ? 'received' : 'landed'));
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      items.push(photoOf(photo, 'refused', refusalOf(app, error)));
    }
  }
  return items;
}
