import { REDIRECTS } from './routes.ts';

/**
 * A return path is accepted only when it is a same-origin relative path: one leading '/', no '//'
 * or '/\\', no scheme, no control characters (seed-behaviour §5.3). Anything else gives `/portale`.
 */
export function safeReturnPath(
  candidate: string | null | undefined,
  fallback: string = REDIRECTS.home,
): string {
  if (!candidate || typeof candidate !== 'string') return fallback;
  if (candidate.length > 2048) return fallback;
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\'))
    return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(candidate)) return fallback;
  try {
    const url = new URL(candidate, 'http://portale.invalid');
    if (url.origin !== 'http://portale.invalid') return fallback;
    // Dot segments can normalise '/.//evil.com' into the protocol-relative '//evil.com'.
    if (url.pathname.startsWith('//')) return fallback;
    if (url.pathname === REDIRECTS.login) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
