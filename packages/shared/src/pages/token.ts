/** Access-code token of `/{token}`: exactly 7 letters or digits (seed-spec §5). */
export const TOKEN_PATTERN = /^[A-Za-z0-9]{7}$/;

export function isValidToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}
