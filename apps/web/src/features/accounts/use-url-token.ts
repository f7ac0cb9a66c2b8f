import { useEffect, useState } from 'react';

/**
 * Reads `?token=` once and removes it from the address bar (history.replaceState), so the secret does
 * not stay in the history, in bookmarks or in the Referer of later requests.
 */
export function useUrlToken(): string {
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '');
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has('token')) return;
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  }, []);
  return token;
}
