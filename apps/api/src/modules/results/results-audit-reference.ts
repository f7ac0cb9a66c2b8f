// The exact audit as it was before decision 050's amendment (issue 40): a full Gauss–Jordan elimination
// of every published row, redone from scratch in every withholding round. Kept unchanged as the
// reference that results-audit.ts must match figure for figure (results-audit.test.ts, the property
// test, and bench/results-audit.ts on the national survey's tallies). Not used by the API.
import type { AuditRow } from './results-audit.ts';

const EPS = 1e-7;
const MAX_ROUNDS = 300;
/** Disjoint leaks fixed per round (each round recomputes the reduction). */
const LEAKS_PER_ROUND = 25;

interface Reduced {
  /** Pivot column of each reduced row. */
  pivots: number[];
  /** Reduced rows (over the unknowns). */
  rref: Float64Array[];
  /** For each reduced row, its combination of the input rows. */
  combos: Float64Array[];
  free: number[];
}

/** The indexes of a row's non-zero entries. */
function nonZeros(row: Float64Array): Int32Array {
  let n = 0;
  for (let j = 0; j < row.length; j++) if (row[j] !== 0) n++;
  const out = new Int32Array(n);
  n = 0;
  for (let j = 0; j < row.length; j++) if (row[j] !== 0) out[n++] = j;
  return out;
}

/** Gauss–Jordan with partial pivoting, remembering each reduced row as a combination of the input rows. */
function reduce(rows: number[][], width: number): Reduced {
  const m = rows.length;
  const a = rows.map((cols) => {
    const r = new Float64Array(width);
    for (const c of cols) r[c] = 1;
    return r;
  });
  const e = rows.map((_, i) => {
    const r = new Float64Array(m);
    r[i] = 1;
    return r;
  });
  const pivots: number[] = [];
  let rank = 0;
  for (let c = 0; c < width && rank < m; c++) {
    let p = -1;
    let best = EPS;
    for (let i = rank; i < m; i++) {
      const v = Math.abs(a[i]![c]!);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (p < 0) continue;
    [a[rank], a[p]] = [a[p]!, a[rank]!];
    [e[rank], e[p]] = [e[p]!, e[rank]!];
    const ar = a[rank]!;
    const er = e[rank]!;
    const pv = ar[c]!;
    // Only the non-zero entries of the pivot row are divided and subtracted (decision 033): the rows
    // are sparse 0/1 incidences, and dividing 0 or subtracting f × 0 leaves an entry as it was, but
    // for the sign of a zero, which nothing reads (every test is on an absolute value). The same
    // values as the dense loops, at national volume in a fraction of the time.
    const nonZeroA = nonZeros(ar);
    const nonZeroE = nonZeros(er);
    for (const j of nonZeroA) ar[j]! /= pv;
    for (const j of nonZeroE) er[j]! /= pv;
    for (let i = 0; i < m; i++) {
      if (i === rank) continue;
      const f = a[i]![c]!;
      if (Math.abs(f) < 1e-12) continue;
      const ai = a[i]!;
      const ei = e[i]!;
      for (const j of nonZeroA) ai[j]! -= f * ar[j]!;
      for (const j of nonZeroE) ei[j]! -= f * er[j]!;
    }
    pivots.push(c);
    rank++;
  }
  const isPivot = new Set(pivots);
  const free = [...Array(width).keys()].filter((c) => !isPivot.has(c));
  return { pivots, rref: a.slice(0, rank), combos: e.slice(0, rank), free };
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
  const { pivots, rref, free } = red;
  const freeIndex = new Map(free.map((f, t) => [f, t]));
  const pivotRow = new Map(pivots.map((p, i) => [p, i]));
  const kernelOf = (j: number): Float64Array => {
    const v = new Float64Array(free.length);
    const t = freeIndex.get(j);
    if (t !== undefined) v[t] = 1;
    else {
      const row = rref[pivotRow.get(j)!]!;
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
 * (the fixed rows leak by themselves) or when it takes more than MAX_ROUNDS rounds.
 */
export function auditWithholdReference(
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
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const active = rows.map((_, i) => i).filter((i) => !withheld.has(i));
    const red = reduce(
      active.map((i) => rows[i]!.cols),
      counts.length,
    );
    const leaks = findLeaks(counts, red, minGroup, LEAKS_PER_ROUND, accept);
    if (leaks.length === 0) return withheld;
    let progress = false;
    for (const leak of leaks) {
      // One way of deriving it: 1_T = Σ over reduced rows of (1_T at the pivot) × that row, each a combination of the active rows.
      const inT = new Set(leak);
      const alpha = new Float64Array(active.length);
      red.pivots.forEach((p, i) => {
        if (!inT.has(p)) return;
        const combo = red.combos[i]!;
        for (let k = 0; k < active.length; k++) alpha[k]! += combo[k]!;
      });
      let best = -1;
      active.forEach((rowIndex, k) => {
        const r = rows[rowIndex]!;
        if (!r.withholdable || Math.abs(alpha[k]!) < EPS) return;
        const b = best < 0 ? undefined : rows[best]!;
        if (
          !b ||
          r.weight < b.weight ||
          (r.weight === b.weight && (r.size < b.size || (r.size === b.size && rowIndex < best)))
        )
          best = rowIndex;
      });
      if (best < 0) return undefined;
      if (!withheld.has(best)) progress = true;
      withheld.add(best);
    }
    if (!progress) return undefined;
  }
  return undefined;
}
