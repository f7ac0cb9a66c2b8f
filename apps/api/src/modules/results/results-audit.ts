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
export const AUDIT_MAX_UNKNOWNS = 1500;
export const AUDIT_MAX_SMALL = 160;

const EPS = 1e-7;

interface Reduced {
  /** Pivot column of each reduced row. */
  pivots: number[];
  /** Reduced rows (over the unknowns). */
  rref: Float64Array[];
  /** For each reduced row, its combination of the input rows. */
  combos: Float64Array[];
  free: number[];
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
    for (let j = 0; j < width; j++) ar[j]! /= pv;
    for (let j = 0; j < m; j++) er[j]! /= pv;
    for (let i = 0; i < m; i++) {
      if (i === rank) continue;
      const f = a[i]![c]!;
      if (Math.abs(f) < 1e-12) continue;
      const ai = a[i]!;
      const ei = e[i]!;
      for (let j = 0; j < width; j++) ai[j]! -= f * ar[j]!;
      for (let j = 0; j < m; j++) ei[j]! -= f * er[j]!;
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
function findLeak(counts: number[], red: Reduced, minGroup: number): number[] | undefined {
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
  if (small.length === 0) return undefined;
  const kernels = new Map(small.map((j) => [j, kernelOf(j)]));
  const r1 = weights(free.length, 12345);
  const r2 = weights(free.length, 67890);
  const fp = new Map(
    small.map((j) => [
      j,
      [
        kernels.get(j)!.reduce((s, x, k) => s + x * r1[k]!, 0),
        kernels.get(j)!.reduce((s, x, k) => s + x * r2[k]!, 0),
      ] as const,
    ]),
  );
  const isZero = (set: number[]) => {
    const sum = new Float64Array(free.length);
    for (const j of set) kernels.get(j)!.forEach((x, k) => (sum[k]! += x));
    return sum.every((x) => Math.abs(x) < 1e-6);
  };
  // Sets by size, smallest first: Σ counts < minGroup bounds both the size and the members.
  const chosen: number[] = [];
  const search = (
    start: number,
    size: number,
    total: number,
    f1: number,
    f2: number,
  ): number[] | undefined => {
    if (chosen.length === size)
      return Math.abs(f1) < 1e-6 && Math.abs(f2) < 1e-6 && isZero(chosen) ? [...chosen] : undefined;
    for (let i = start; i < small.length; i++) {
      const j = small[i]!;
      const n = counts[j]!;
      if (total + n >= minGroup) continue;
      chosen.push(j);
      const [a, b] = fp.get(j)!;
      const found = search(i + 1, size, total + n, f1 + a, f2 + b);
      chosen.pop();
      if (found) return found;
    }
    return undefined;
  };
  for (let size = 1; size < minGroup; size++) {
    const found = search(0, size, 0, 0, 0);
    if (found) return found;
  }
  return undefined;
}

/**
 * The rows to withhold so that no group of 1…minGroup−1 is derivable from the others: first every
 * withholdable row under minGroup, then, while a leak remains, the cheapest withholdable row of one
 * way of deriving it. Returns undefined when even withholding everything withholdable leaves a leak
 * (the fixed rows leak by themselves).
 */
export function auditWithhold(counts: number[], rows: AuditRow[], minGroup: number): Set<number> | undefined {
  const withheld = new Set<number>();
  rows.forEach((r, i) => {
    if (r.withholdable && r.size > 0 && r.size < minGroup) withheld.add(i);
  });
  for (;;) {
    const active = rows.map((_, i) => i).filter((i) => !withheld.has(i));
    const red = reduce(
      active.map((i) => rows[i]!.cols),
      counts.length,
    );
    const leak = findLeak(counts, red, minGroup);
    if (!leak) return withheld;
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
    withheld.add(best);
  }
}
