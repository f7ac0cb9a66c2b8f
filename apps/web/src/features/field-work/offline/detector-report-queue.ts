import { startQueueReports } from './device-queue-report.ts';
import { createReportQueue, type ReportQueue } from './report-queue.ts';
import { openReportStore } from './report-store.ts';
import { sendReportOverApi } from './report-transport.ts';

let queue: Promise<ReportQueue> | null = null;

/**
 * The tab's one queue of visit reports, opened on first use (only the detector's visit page imports
 * this module, lazily) and started at once: it sends at start, on reconnect and on focus.
 */
export function detectorReportQueue(): Promise<ReportQueue> {
  queue ??= openReportStore().then((store) => {
    const q = createReportQueue({
      store,
      transport: sendReportOverApi,
      // tus-js-client loads only when a report has photos to send (decision 055).
      photoTransport: async (photo, keepUrl) =>
        (await import('./photo-transport.ts')).uploadPhotoOverTus(photo, keepUrl),
      ...(typeof navigator !== 'undefined' && navigator.locks ? { locks: navigator.locks } : {}),
    });
    q.start();
    // Staff see how many reports wait on this device (issue 39).
    if (typeof window !== 'undefined') startQueueReports(q, store);
    return q;
  });
  return queue;
}

/**
 * After the form sent the report online (with its client id): without photos the record is marked
 * sent; with photos the queue sends them (the report's replay answers the stored result). Whether some
 * photo is still to send (it stays queued: reconnect, focus, "Invia ora").
 */
export async function finishOnlineSend(clientReportId: string): Promise<boolean> {
  try {
    const q = await detectorReportQueue();
    if (!(await q.hasPendingPhotos(clientReportId))) {
      await q.markSent(clientReportId);
      return false;
    }
    return (await q.submit(clientReportId))?.status !== 'sent';
  } catch {
    // No local store (storage blocked): the form could not have kept photos either.
    return false;
  }
}
