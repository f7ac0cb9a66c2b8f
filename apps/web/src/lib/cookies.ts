/** Non-secret, JS-readable cookies only (strategy, expiry, return path): credentials never live here. */
export function readCookie(name: string, source: string = document.cookie): string | undefined {
  for (const part of source.split('; ')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq) === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

const secure = () => (location.protocol === 'https:' || location.hostname === 'localhost' ? '; Secure' : '');

/** Writes a cookie with the seed's attributes: Path=/, SameSite=Lax, Secure, 30 days by default. */
export function writeCookie(name: string, value: string, maxAgeSeconds = 2_592_000): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure()}`;
}

export function deleteCookie(name: string): void {
  document.cookie = `${name}=; Max-Age=-1; Path=/; SameSite=Lax${secure()}`;
}
