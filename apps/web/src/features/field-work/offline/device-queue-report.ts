import { reportDeviceQueue } from '@portale/shared/field-work';
import { callApi } from '../../../lib/api-client.ts';
import { getSession, renewOfflineSession } from '../../../lib/session.ts';
import type { ReportQueue } from './report-queue.ts';
import type { ReportDb } from './report-store.ts';

const DEVICE_ID = 'deviceId';

/** This browser's own random id (kept in the store's `meta`), so staff see each device's queue once. */
export async function deviceIdOf(store: ReportDb, newId = () => crypto.randomUUID()): Promise<string> {
  const tx = store.transaction('meta', 'readwrite');
  const existing = await tx.store.get(DEVICE_ID);
  if (existing) {
    await tx.done;
    return existing;
  }
  const id = newId();
  await tx.store.put(id, DEVICE_ID);
  await tx.done;
  return id;
}

/**
 * Tells the server how many reports wait on this device and since when (issue 39: staff see "N report
 * non inviati da X giorni"): at start, after every change of the queue (debounced) and on reconnect;
 * online only, the same state once. A failure waits for the next change or reconnect.
 */
export function startQueueReports(
  queue: ReportQueue,
  store: ReportDb,
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = '';
  const send = async () => {
    const userId = getSession().user?.id;
    if (!userId || !navigator.onLine) return;
    const summary = await queue.summary();
    const body = {
      deviceId: await deviceIdOf(store),
      unsent: summary.unsent,
      oldestUnsentAt: summary.oldestUnsentAt,
    };
    const key = JSON.stringify([userId, body]);
    if (key === last) return;
    await renewOfflineSession();
    await callApi(reportDeviceQueue, { params: { userId }, body });
    last = key;
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void send().catch(() => undefined), 1500);
  };
  const unsubscribe = queue.subscribe(schedule);
  target.addEventListener('online', schedule);
  schedule();
  return () => {
    clearTimeout(timer);
    unsubscribe();
    target.removeEventListener('online', schedule);
  };
}
