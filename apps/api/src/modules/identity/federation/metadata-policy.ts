/**
 * Metadata policy of the OpenID Federation 1.0 (section 6.1), as the SPID/CIE federation uses it:
 * the operators `value`, `add`, `default`, `one_of`, `subset_of`, `superset_of` and `essential`.
 * The policies of a chain are merged from the trust anchor down, then applied to the leaf's metadata.
 */
export type ParameterPolicy = {
  value?: unknown;
  add?: unknown[];
  default?: unknown;
  one_of?: unknown[];
  subset_of?: unknown[];
  superset_of?: unknown[];
  essential?: boolean;
};
export type MetadataPolicy = Record<string, ParameterPolicy>;
export type Metadata = Record<string, unknown>;

/** A policy that cannot be merged, or metadata that does not comply with it. */
export class MetadataPolicyError extends Error {}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);
const includes = (list: unknown[], item: unknown) => list.some((x) => same(x, item));
const intersect = (a: unknown[], b: unknown[]) => a.filter((x) => includes(b, x));
const union = (a: unknown[], b: unknown[]) => [...a, ...b.filter((x) => !includes(a, x))];

/** Merges a subordinate's policy of one parameter under its superior's (the superior's wins or both hold). */
function mergeParameter(name: string, upper: ParameterPolicy, lower: ParameterPolicy): ParameterPolicy {
  const merged: ParameterPolicy = { ...upper };
  for (const [op, value] of Object.entries(lower) as [keyof ParameterPolicy, unknown][]) {
    const current = merged[op];
    if (current === undefined) {
      (merged as Record<string, unknown>)[op] = value;
      continue;
    }
    switch (op) {
      case 'value':
      case 'default':
        if (!same(current, value)) throw new MetadataPolicyError(`${name}: conflicting ${op}`);
        break;
      case 'add':
      case 'superset_of':
        merged[op] = union(current as unknown[], value as unknown[]);
        break;
      case 'one_of':
      case 'subset_of':
        merged[op] = intersect(current as unknown[], value as unknown[]);
        if ((merged[op] as unknown[]).length === 0) throw new MetadataPolicyError(`${name}: empty ${op}`);
        break;
      case 'essential':
        merged.essential = Boolean(current) || Boolean(value);
        break;
      default:
        throw new MetadataPolicyError(`${name}: unknown operator ${String(op)}`);
    }
  }
  return merged;
}

/** The policies of a chain, superior first, merged into one. */
export function mergePolicies(policies: MetadataPolicy[]): MetadataPolicy {
  const merged: MetadataPolicy = {};
  for (const policy of policies)
    for (const [name, parameter] of Object.entries(policy))
      merged[name] = merged[name] ? mergeParameter(name, merged[name], parameter) : { ...parameter };
  for (const [name, p] of Object.entries(merged)) {
    const fixed = p.value ?? p.default;
    if (fixed != null && p.one_of && !includes(p.one_of, fixed))
      throw new MetadataPolicyError(`${name}: value outside one_of`);
    if (fixed != null && p.subset_of && !asList(fixed).every((x) => includes(p.subset_of!, x)))
      throw new MetadataPolicyError(`${name}: value outside subset_of`);
  }
  return merged;
}

/** The leaf's metadata with the policy applied; throws when it does not comply. */
export function applyPolicy(metadata: Metadata, policy: MetadataPolicy): Metadata {
  const out: Metadata = { ...metadata };
  for (const [name, p] of Object.entries(policy)) {
    if (p.value !== undefined) {
      if (p.value === null) delete out[name];
      else out[name] = p.value;
    }
    if (p.add && out[name] !== undefined) out[name] = union(asList(out[name]), p.add);
    else if (p.add) out[name] = [...p.add];
    if (p.default !== undefined && out[name] === undefined) out[name] = p.default;
    const present = out[name];
    if (present !== undefined) {
      if (p.one_of && !includes(p.one_of, present))
        throw new MetadataPolicyError(`${name}: ${JSON.stringify(present)} is not one of the allowed values`);
      if (p.subset_of) {
        const kept = intersect(asList(present), p.subset_of);
        if (kept.length === 0) delete out[name];
        else out[name] = kept;
      }
      if (p.superset_of && !p.superset_of.every((x) => includes(asList(present), x)))
        throw new MetadataPolicyError(`${name}: misses values the federation requires`);
    }
    if (p.essential && out[name] === undefined)
      throw new MetadataPolicyError(`${name}: essential and missing`);
  }
  return out;
}
