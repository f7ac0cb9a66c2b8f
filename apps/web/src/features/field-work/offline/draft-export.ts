import { DRAFT_EXPORT_KIND, DRAFT_EXPORT_VERSION, type DraftFilePhoto } from '@portale/shared/field-work';
import type { OfflinePhoto, OfflineReport } from './report-store.ts';

// "Esporta bozze" (issue 39, decision 051 and its amendment): the unsent reports as a file staff can
// import if the device breaks, with the photos still on the device (an uploaded photo leaves it, so
// these are the ones the server does not have yet).

/** Bytes turned into characters this many at a time (a 5 MB photo at once overflows the call stack). */
const SLICE = 0x8000;

/** The Blob's bytes in base64. */
export async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += SLICE)
    binary += String.fromCharCode(...bytes.subarray(i, i + SLICE));
  return btoa(binary);
}

/** A photo as the file carries it: the compressed Blob, its media type, size and the SHA-256 the device computed. */
export async function photoEntryOf(photo: OfflinePhoto): Promise<DraftFilePhoto> {
  return {
    index: photo.index,
    mediaType: photo.type,
    sizeBytes: photo.blob.size,
    sha256: photo.sha256,
    data: await base64Of(photo.blob),
  };
}

/**
 * The file's text (version 2): each report as the store keeps it, with `photos` (none: an empty list).
 * Photos are read one at a time; the file is built in memory (a device holds a handful of reports).
 */
export async function draftFileOf(
  records: OfflineReport[],
  photosOf: (clientReportId: string) => Promise<OfflinePhoto[]>,
  exportedAt: Date,
): Promise<string> {
  const reports = [];
  for (const record of records) {
    const photos: DraftFilePhoto[] = [];
    for (const photo of await photosOf(record.clientReportId)) photos.push(await photoEntryOf(photo));
    reports.push({ ...record, photos });
  }
  return JSON.stringify(
    { kind: DRAFT_EXPORT_KIND, version: DRAFT_EXPORT_VERSION, exportedAt: exportedAt.toISOString(), reports },
    null,
    2,
  );
}
