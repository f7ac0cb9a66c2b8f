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
      ...(typeof navigator !== 'undefined' && navigator.locks ? { locks: navigator.locks } : {}),
    });
    q.start();
    // Staff see how many reports wait on this device (issue 39).
    if (typeof window !== 'undefined') startQueueReports(q, store);
    return q;
  });
  return queue;
}
