import { Upload, type DetailedError } from 'tus-js-client';
import { REPORT_PHOTO_UPLOAD_PATH } from '@portale/shared/field-work';
import { apiCredentialHeaders } from '../../../lib/api-client.ts';
import { apiOrigin } from '../../../lib/config.ts';
import { renewOfflineSession } from '../../../lib/session.ts';
import type { PhotoTransport, SendOutcome } from './report-queue.ts';

/** Answers that may change by themselves (no network, session to renew, server busy): the photo stays queued. */
const TRANSIENT = new Set([0, 401, 408, 419, 423, 425, 429, 500, 502, 503, 504]);

/** What the server's answer to a photo upload means for the queue; `undefined`: try again later. */
export function photoOutcomeOf(status: number, body: string): SendOutcome | undefined {
  if (TRANSIENT.has(status)) return undefined;
  let parsed: { code?: string; message?: string } | undefined;
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    parsed = undefined;
  }
  // A replay: the server already has this photo (its answer was lost on the way back).
  if (status === 409 && parsed?.code === 'photo_already_received') return { kind: 'sent' };
  return { kind: 'rejected', message: parsed?.message ?? `Foto rifiutata dal server (errore ${status}).` };
}

/** tus retries at once network errors, a busy server and a PATCH whose offset moved (it asks HEAD again). */
export function shouldRetryPhoto(error: DetailedError): boolean {
  const status = error.originalResponse?.getStatus() ?? 0;
  if (status === 409) return error.originalRequest?.getMethod() === 'PATCH';
  return status === 0 || status === 423 || status === 429 || status >= 500;
}

/**
 * Uploads one photo with tus (`tus-js-client`, decision 055), in 1 MB parts: an upload cut by the
 * network goes on from the server's offset; its URL is kept on the photo in IndexedDB (`keepUrl`), so
 * it also goes on after a reload or the next day. The upload is bound to the report's client id and the
 * photo's index; the browser announces the SHA-256 the server checks.
 */
export const uploadPhotoOverTus: PhotoTransport = async (photo, keepUrl) => {
  // After an offline start the session has no access token yet: renew it first (no-op otherwise).
  await renewOfflineSession();
  return new Promise<SendOutcome>((resolve, reject) => {
    const upload = new Upload(photo.blob, {
      endpoint: `${apiOrigin()}${REPORT_PHOTO_UPLOAD_PATH}`,
      uploadUrl: photo.uploadUrl,
      metadata: {
        clientReportId: photo.clientReportId,
        index: String(photo.index),
        filetype: photo.type,
        sha256: photo.sha256,
      },
      chunkSize: 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000],
      // The URL is kept on the photo (IndexedDB), not in tus-js-client's localStorage.
      storeFingerprintForResuming: false,
      async onBeforeRequest(req) {
        const xhr = req.getUnderlyingObject() as { withCredentials?: boolean } | undefined;
        if (xhr && 'withCredentials' in xhr) xhr.withCredentials = true;
        for (const [name, value] of Object.entries(await apiCredentialHeaders())) req.setHeader(name, value);
      },
      onUploadUrlAvailable() {
        if (upload.url) void keepUrl(upload.url);
      },
      onShouldRetry: (error) => shouldRetryPhoto(error),
      onSuccess: () => resolve({ kind: 'sent' }),
      onError(error) {
        const response = (error as DetailedError).originalResponse;
        const outcome = response ? photoOutcomeOf(response.getStatus(), response.getBody()) : undefined;
        if (outcome) resolve(outcome);
        else reject(error);
      },
    });
    upload.start();
  });
};
