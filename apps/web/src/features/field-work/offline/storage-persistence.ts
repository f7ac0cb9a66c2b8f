/**
 * Whether the browser keeps this site's data (the drafts in IndexedDB) when it runs short of space
 * (issue 39): `persisted()` and, if not yet, one `persist()` request. Chrome grants it to an installed
 * or often used site without asking; Firefox asks the user; Safari keeps the data of an app added to
 * the home screen. Anything but "granted" is shown as at risk.
 */
export type Persistence = 'persistent' | 'at-risk';

type StorageLike = Partial<Pick<StorageManager, 'persisted' | 'persist'>>;

export async function ensurePersistentStorage(
  storage: StorageLike | undefined = typeof navigator === 'undefined' ? undefined : navigator.storage,
): Promise<Persistence> {
  try {
    if (!storage?.persisted) return 'at-risk';
    if (await storage.persisted()) return 'persistent';
    return storage.persist && (await storage.persist()) ? 'persistent' : 'at-risk';
  } catch {
    return 'at-risk';
  }
}

/** Whether the portal runs as the installed app (home screen), where iOS keeps its data. */
export function runsInstalled(): boolean {
  if (typeof window === 'undefined') return false;
  const standalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return standalone || window.matchMedia?.('(display-mode: standalone)').matches === true;
}
