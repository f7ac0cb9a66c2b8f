/** Guard names of seed-spec §6, in the order they are applied when a page lists several. */
export const GUARD_NAMES = [
  'auth',
  'unauth',
  'update-password',
  'has-verified-all-contacts',
  'must-have-verified-phone-on-query-param',
  'sign-principal-document',
  'has-role-or-permission',
] as const;
export type GuardName = (typeof GUARD_NAMES)[number];

/** Resolves a guard name; an unknown name throws, as the seed's unknown route middleware does. */
export function assertGuardName(name: string): GuardName {
  if ((GUARD_NAMES as readonly string[]).includes(name)) return name as GuardName;
  throw new Error(`Unknown route middleware: '${name}'`);
}
