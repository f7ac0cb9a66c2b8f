/**
 * The service worker's cache of the detector's page data (issue 39, decision 051): the API answers of
 * the detector's plessi, teachers and visits, kept so those pages open with no network. Its name lives
 * here, in the app's own code, because the session clears it at logout and at login: one user's data
 * is never shown to the next user of the same browser. The drafts are not here (IndexedDB).
 */
export const DETECTOR_DATA_CACHE = 'portale-detector-data';

/** Deletes the cached page data; a no-op where the Cache API is missing (old browsers, tests). */
export async function clearDetectorDataCache(): Promise<void> {
  try {
    await globalThis.caches?.delete(DETECTOR_DATA_CACHE);
  } catch {
    // No Cache API in this context (e.g. an opaque origin): nothing was cached either.
  }
}
