/** A token counts as expired this many milliseconds before its real expiry (seed-spec §4). */
export const TOKEN_EXPIRY_MARGIN_MS = 500;

export type TokenStatus = 'valid' | 'expired' | 'unknown';

/** Status of a token given its expiry in epoch ms; no token or no known expiry is `unknown`. */
export function tokenStatus(
  token: string | null | undefined,
  expiresAt: number | false | null | undefined,
  now: number = Date.now(),
): TokenStatus {
  if (!token || !expiresAt) return 'unknown';
  return now < expiresAt - TOKEN_EXPIRY_MARGIN_MS ? 'valid' : 'expired';
}
