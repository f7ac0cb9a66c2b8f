/**
 * The user's `scope` as the seed allows it: a list or a keyed object (seed-spec §3).
 * A string is read as a space-separated list, never as "every scope" (seed-behaviour §5.8).
 */
export type Scope = readonly string[] | Record<string, unknown> | string | null | undefined;

function readPath(obj: Record<string, unknown>, name: string): unknown {
  // Own properties only: inherited names such as 'constructor' or 'toString' never grant a scope.
  if (Object.hasOwn(obj, name)) return obj[name];
  return name.split('.').reduce<unknown>((acc, key) => {
    if (acc && typeof acc === 'object' && Object.hasOwn(acc, key)) {
      return (acc as Record<string, unknown>)[key];
    }
    return undefined;
  }, obj);
}

/** True when the scope grants `name`. */
export function hasScope(scope: Scope, name: string): boolean {
  if (!scope) return false;
  if (typeof scope === 'string') return scope.split(/\s+/).includes(name);
  if (Array.isArray(scope)) return scope.includes(name);
  if (typeof scope === 'object') return Boolean(readPath(scope as Record<string, unknown>, name));
  return false;
}
