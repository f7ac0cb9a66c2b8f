/** Origin of the API, published by the server in a meta tag (the web and the API are two origins). */
export function apiOrigin(): string {
  if (typeof document === 'undefined') return 'http://localhost:8000'; // build-time prerender: no requests
  const meta = document.querySelector<HTMLMetaElement>('meta[name="portale-api-origin"]')?.content;
  return meta && !meta.startsWith('%') ? meta.replace(/\/$/, '') : 'http://localhost:8000';
}

export const BUILD_ID: string = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';
