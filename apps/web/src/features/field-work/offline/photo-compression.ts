import { REPORT_PHOTO_LIMITS, REPORT_PHOTO_MESSAGES } from '@portale/shared/field-work';
import type { NewPhoto } from './report-queue.ts';

export interface PhotoSize {
  width: number;
  height: number;
}

/** The size a photo is drawn at: the longest side at most `maxSide`, proportions kept, never enlarged. */
export function scaledSize(
  width: number,
  height: number,
  maxSide: number = REPORT_PHOTO_LIMITS.maxSidePx,
): PhotoSize {
  const longest = Math.max(width, height);
  if (longest <= maxSide) return { width, height };
  const ratio = maxSide / longest;
  return { width: Math.max(1, Math.round(width * ratio)), height: Math.max(1, Math.round(height * ratio)) };
}

/** The tries, in order: the usual quality, then lower, then smaller, until the photo fits the cap. */
export const COMPRESSION_ATTEMPTS = [
  { scale: 1, quality: REPORT_PHOTO_LIMITS.quality },
  { scale: 1, quality: 0.6 },
  { scale: 0.75, quality: 0.6 },
] as const;

export type Encoder = (size: PhotoSize, quality: number) => Promise<Blob>;

/**
 * Encodes the photo at its scaled size (`scaledSize`), trying lower quality and then a smaller size
 * while it is over `maxBytes`; past the last try, the Italian refusal the server would give.
 */
export async function compressWith(
  encode: Encoder,
  original: PhotoSize,
  maxBytes: number = REPORT_PHOTO_LIMITS.maxBytes,
): Promise<{ blob: Blob; size: PhotoSize }> {
  const base = scaledSize(original.width, original.height);
  for (const { scale, quality } of COMPRESSION_ATTEMPTS) {
    const size = scaledSize(base.width, base.height, Math.round(Math.max(base.width, base.height) * scale));
    const blob = await encode(size, quality);
    if (blob.size <= maxBytes) return { blob, size };
  }
  throw new Error(REPORT_PHOTO_MESSAGES.tooLarge);
}

/**
 * A photo from the camera or a file, compressed in the browser: drawn on a canvas at most 1600 px on
 * its longest side and encoded as JPEG (quality 0.8). Re-encoding also drops the EXIF data (the
 * position where it was taken); the browser applies the EXIF orientation when it decodes.
 */
export async function compressPhoto(file: Blob): Promise<NewPhoto> {
  if (!file.type.startsWith('image/')) throw new Error('Il file scelto non è un’immagine.');
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new Error('Impossibile leggere l’immagine: scegli una foto JPEG o PNG.');
  }
  try {
    const encode: Encoder = (size, quality) =>
      new Promise((resolve, reject) => {
        const canvas = document.createElement('canvas');
        canvas.width = size.width;
        canvas.height = size.height;
        canvas.getContext('2d')?.drawImage(bitmap, 0, 0, size.width, size.height);
        canvas.toBlob(
          (blob) => (blob ? resolve(blob) : reject(new Error('Compressione della foto non riuscita.'))),
          'image/jpeg',
          quality,
        );
      });
    const { blob, size } = await compressWith(encode, { width: bitmap.width, height: bitmap.height });
    return { blob, type: 'image/jpeg', ...size };
  } finally {
    bitmap.close();
  }
}
