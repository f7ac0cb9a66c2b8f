// The exact audit of the public results (decision 018): which groups of 1…minGroup−1 respondents can be
// derived, by any sums and differences, from a set of published counts, and which figures to withhold
// until none can. Pure: no database, no HTTP.
//
// The unknowns are the counts of the finest groups (atomic group, or atomic group × answer); each
// published figure is the sum of some of them. The attacker is given more than they have: they know
// which finest groups are empty, so only the non-empty ones are unknowns. A set T of them is derivable
// exactly when its indicator is in the row space of the published figures, i.e. orthogonal to the
// kernel; a leak is such a T with 1 ≤ Σ counts < minGroup, so it has at most minGroup−1 members, each
// under minGroup: few enough to enumerate.

import { IncrementalElimination } from './results-audit-elimination.ts';

export interface AuditRow {
  /** The unknowns the figure adds up. */
  cols: number[];
  /** False for figures that are published whatever happens (the respondents of a shown view, in the cell step). */
  withholdable: boolean;
  /** What it costs to withhold it (national ≫ region > level > region × level). */
  weight: number;
  /** Its value: the smaller is withheld first among equal weights ("the next smallest cell"). */
  size: number;
}

/** Beyond these sizes the enumeration could be slow: the caller falls back to the (stricter) atom rule. */
export const AUDIT_MAX_UNKNOWNS = 800;
export const AUDIT_MAX_SMALL = 600;
/** Withholding rounds before giving up on the exact audit (the caller then uses the atom rule). */
export const AUDIT_MAX_ROUNDS = 300;

const EPS = 1e-7;
/** Disjoint leaks fixed per round (each round brings the elimination up to date). */
const LEAKS_PER_ROUND = 25;

/** What the leak search reads of a round's elimination. */
interface Reduced {
  /** Pivot columns, in the elimination's order. */
  pivots: number[];
  free: number[];
  /** The Gauss–Jordan reduced row of a pivot column. */
  reducedRow(col: number): Float64Array;
}

/** A small deterministic pseudo-random sequence (the fingerprints must not depend on Math.random). */
function weights(n: number, seed: number): Float64Array {
  const out = new Float64Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 32 + 0.5;
  }
  return out;
}

/**
 * A derivable set of unknowns with 1 ≤ Σ counts < minGroup, or undefined. `kernelOf(j)` is the kernel
 * coordinates of unknown j; T is derivable when they add up to zero over T.
 */
function findLeaks(
  counts: number[],
  red: Reduced,
  minGroup: number,
  max: number,
  accept: (set: number[]) => boolean,
): number[][] {
  const { free } = red;
  const freeIndex = new Map(free.map((f, t) => [f, t]));
  const kernelOf = (j: number): Float64Array => {
    const v = new Float64Array(free.length);
    const t = freeIndex.get(j);
    if (t !== undefined) v[t] = 1;
    else {
      const row = red.reducedRow(j);
      free.forEach((f, k) => (v[k] = -row[f]!));
    }
    return v;
  };
  const small = counts.map((n, j) => (n > 0 && n < minGroup ? j : -1)).filter((j) => j >= 0);
  if (small.length === 0) return [];
  const kernels = new Map(small.map((j) => [j, kernelOf(j)]));
  const r1 = weights(free.length, 12345);
  const fp = new Map(small.map((j) => [j, kernels.get(j)!.reduce((s, x, k) => s + x * r1[k]!, 0)]));
  const isZero = (set: number[]) => {
    const sum = new Float64Array(free.length);
    for (const j of set) kernels.get(j)!.forEach((x, k) => (sum[k]! += x));
    return sum.every((x) => Math.abs(x) < 1e-6) && accept(set);
  };
  // Candidates are matched by a random projection of their kernel coordinates (buckets of 1e-4, and
  // the neighbouring buckets), then checked exactly: meet in the middle, O(k²) for sets of up to 4.
  const bucket = (f: number) => Math.round(f * 1e4);
  const near = <T>(map: Map<number, T[]>, f: number): T[] => [
    ...(map.get(bucket(f) - 1) ?? []),
    ...(map.get(bucket(f)) ?? []),
    ...(map.get(bucket(f) + 1) ?? []),
  ];
  const taken = new Set<number>();
  const c = (j: number) => counts[j]!;
  const findOne = (): number[] | undefined => {
    const live = small.filter((j) => !taken.has(j));
    for (const j of live) if (Math.abs(fp.get(j)!) < 1e-4 && isZero([j])) return [j];
    const singles = new Map<number, number[]>();
    for (const j of live) singles.set(bucket(fp.get(j)!), [...(singles.get(bucket(fp.get(j)!)) ?? []), j]);
    for (const j of live)
      for (const k of near(singles, -fp.get(j)!))
        if (k > j && c(j) + c(k) < minGroup && isZero([j, k])) return [j, k];
    const pairs: [number, number][] = [];
    for (let a = 0; a < live.length; a++)
      for (let b = a + 1; b < live.length; b++)
        if (c(live[a]!) + c(live[b]!) <= minGroup - 2) pairs.push([live[a]!, live[b]!]);
    for (const [i, j] of pairs)
      for (const k of near(singles, -(fp.get(i)! + fp.get(j)!)))
        if (k > j && c(i) + c(j) + c(k) < minGroup && isZero([i, j, k])) return [i, j, k];
    if (minGroup - 1 < 4) return undefined;
    const pairMap = new Map<number, [number, number][]>();
    for (const pr of pairs) {
      const key = bucket(fp.get(pr[0])! + fp.get(pr[1])!);
      pairMap.set(key, [...(pairMap.get(key) ?? []), pr]);
    }
    for (const [i, j] of pairs) {
      for (const [k, l] of near(pairMap, -(fp.get(i)! + fp.get(j)!))) {
        if (k > j && c(i) + c(j) + c(k) + c(l) < minGroup && isZero([i, j, k, l])) return [i, j, k, l];
      }
    }
    return undefined;
  };
  // Disjoint leaks, smallest sets first, up to `max`: one round of withholding fixes them all.
  const leaks: number[][] = [];
  for (
    let found = findOne();
    found && leaks.length < max;
    found = leaks.length < max ? findOne() : undefined
  ) {
    leaks.push(found);
    for (const j of found) taken.add(j);
  }
  return leaks;
}

/**
 * The rows to withhold so that no group of 1…minGroup−1 is derivable from the others: first every
 * withholdable row under minGroup, then, while a leak remains, the cheapest withholdable row of one
 * way of deriving it. Returns undefined when even withholding everything withholdable leaves a leak
 * (the fixed rows leak by themselves) or when it takes more than AUDIT_MAX_ROUNDS rounds.
 */
export function auditWithhold(
  counts: number[],
  rows: AuditRow[],
  minGroup: number,
  /** Which derivable small sets are leaks (decision 035: a wave's change of a whole group says no answer); default all. */
  accept: (set: number[]) => boolean = () => true,
): Set<number> | undefined {
  // The leak search enumerates sets of up to 4 unknowns: enough for groups under 5.
  if (minGroup > 5) return undefined;
  const withheld = new Set<number>();
  rows.forEach((r, i) => {
    if (r.withholdable && r.size > 0 && r.size < minGroup) withheld.add(i);
  });
  const elimination = new IncrementalElimination(
    rows.map((r) => r.cols),
    counts.length,
  );
  // The withholdable rows, cheapest first: a leak withholds the first whose combination is non-zero.
  const cheapestFirst = rows
    .map((_, i) => i)
    .filter((i) => rows[i]!.withholdable)
    .sort((i, k) => {
      const a = rows[i]!;
      const b = rows[k]!;
      return a.weight - b.weight || a.size - b.size || i - k;
    });
  for (let round = 0; round < AUDIT_MAX_ROUNDS; round++) {
    const active = rows.map((_, i) => i).filter((i) => !withheld.has(i));
    elimination.reduce(active);
    const free = elimination.free;
    const red: Reduced = {
      pivots: elimination.pivots,
      free,
      reducedRow: (col) => elimination.reducedRow(col),
    };
    const leaks = findLeaks(counts, red, minGroup, LEAKS_PER_ROUND, accept);
    if (leaks.length === 0) return withheld;
    const pivotRows = elimination.pivotRows;
    let progress = false;
    for (const leak of leaks) {
      // One way of deriving it: 1_T = Σ over reduced rows of (1_T at the pivot) × that row, each a
      // combination of the pivot rows; the cheapest row with a non-zero coefficient is withheld.
      const inT = new Set(leak);
      const reaching = elimination.reaching(inT);
      const combination = elimination.combinations(inT);
      const best = cheapestFirst.find(
        (i) => pivotRows.has(i) && reaching.has(i) && Math.abs(combination(i)) >= EPS,
      );
      if (best === undefined) return undefined;
      if (!withheld.has(best)) progress = true;
      withheld.add(best);
    }
    if (!progress) return undefined;
  }
  return undefined;
}
