/** Seed-spec §2/§9: a new build reloads on the next navigation, at most once per path per 10 seconds. */
export const RELOAD_THROTTLE_MS = 10_000;
export const BUILD_CHECK_INTERVAL_MS = 60 * 60 * 1000;
const STORAGE_KEY = 'portale:reload';

interface ReloadRecord {
  path: string;
  expires: number;
}

/**
 * Whether a reload to `path` may happen now; when it may, the attempt is recorded. Only the last
 * reloaded path is remembered (no second automatic reload to the same path within 10 s). Only
 * `{ path, expires }` is stored: no application state is persisted.
 */
export function claimReload(path: string, storage: Storage | undefined, now: number = Date.now()): boolean {
  if (!storage) return true;
  let previous: ReloadRecord | undefined;
  try {
    previous = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null') ?? undefined;
  } catch {
    previous = undefined;
  }
  if (previous && previous.path === path && previous.expires > now) return false;
  storage.setItem(STORAGE_KEY, JSON.stringify({ path, expires: now + RELOAD_THROTTLE_MS }));
  return true;
}

function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Full page load of `target` unless throttled; returns whether it happened. */
export function reloadAt(target: string): boolean {
  if (!claimReload(target, sessionStore())) return false;
  const path = target.split(/[?#]/)[0];
  if (path === window.location.pathname && target === window.location.pathname) window.location.reload();
  else window.location.assign(target);
  return true;
}

/** True for the errors a browser raises when a lazily loaded chunk is gone (stale build). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  );
}

interface NavigationSource {
  subscribe(
    fn: (state: {
      navigation: { state: string; location?: { pathname: string; search: string; hash: string } };
    }) => void,
  ): () => void;
}

/**
 * Polls /build.json hourly and whenever the tab becomes visible; once a different build id is seen,
 * the next navigation becomes a full load of its target.
 */
export function watchForNewBuild(router: NavigationSource, currentBuildId: string): () => void {
  let outdated = false;
  const check = async () => {
    if (outdated) return;
    try {
      const res = await fetch(`/build.json?${Date.now()}`, { cache: 'no-store' });
      if (!res.ok) return;
      const latest = (await res.json()) as { id?: string };
      if (latest.id && latest.id !== currentBuildId) outdated = true;
    } catch {
      // A failed check is ignored, as in the seed.
    }
  };
  const timer = window.setInterval(check, BUILD_CHECK_INTERVAL_MS);
  const onVisible = () => {
    if (document.visibilityState === 'visible') void check();
  };
  document.addEventListener('visibilitychange', onVisible);
  const unsubscribe = router.subscribe((state) => {
    const loc = state.navigation.location;
    if (outdated && state.navigation.state === 'loading' && loc)
      reloadAt(loc.pathname + loc.search + loc.hash);
  });
  return () => {
    window.clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
    unsubscribe();
  };
}
