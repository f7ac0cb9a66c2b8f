// The integer attacker of the public results' tests (decision 035): the hidden counts are non-negative
// whole numbers, and every published figure is a sum of some of them. A sum over a set of hidden counts
// is recovered when every table of non-negative whole numbers that gives the published figures gives it
// the same value. Exact, by search: bounds propagation over the published equalities, then branching
// (small tables only: the tests' made-up surveys).

export interface Equation {
  /** The hidden counts the published figure adds up. */
  cols: number[];
  value: number;
}

/** Searched nodes before the attacker gives up (a test that reaches it is too large, not safe). */
const NODE_LIMIT = 400_000;
/** A hidden count that no published figure bounds can be anything: this is enough to show it. */
const UNBOUNDED = 60;

export class IntegerAttacker {
  private readonly byCol: number[][];
  constructor(
    private readonly width: number,
    private readonly equations: Equation[],
  ) {
    this.byCol = Array.from({ length: width }, () => []);
    equations.forEach((e, r) => e.cols.forEach((j) => this.byCol[j]!.push(r)));
  }

  /** Tightens [lo, hi] until every equation is bounds-consistent; false when infeasible. */
  private propagate(lo: number[], hi: number[]): boolean {
    let changed = true;
    while (changed) {
      changed = false;
      for (const e of this.equations) {
        let sumLo = 0;
        let sumHi = 0;
        for (const j of e.cols) {
          sumLo += lo[j]!;
          sumHi += hi[j]!;
        }
        if (sumLo > e.value || sumHi < e.value) return false;
        for (const j of e.cols) {
          const newHi = Math.min(hi[j]!, e.value - (sumLo - lo[j]!));
          const newLo = Math.max(lo[j]!, e.value - (sumHi - hi[j]!));
          if (newLo > newHi) return false;
          if (newHi !== hi[j] || newLo !== lo[j]) {
            sumLo += newLo - lo[j]!;
            sumHi += newHi - hi[j]!;
            lo[j] = newLo;
            hi[j] = newHi;
            changed = true;
          }
        }
      }
    }
    return true;
  }

  /** Whether some non-negative whole solution gives Σ over `target` a value other than `value`. */
  canDiffer(target: number[], value: number): boolean {
    const lo = new Array<number>(this.width).fill(0);
    const hi = new Array<number>(this.width).fill(UNBOUNDED);
    if (!this.propagate(lo, hi)) throw new Error('the published figures have no solution');
    const inTarget = new Set(target);
    let nodes = 0;
    const search = (lo: number[], hi: number[]): boolean => {
      if (++nodes > NODE_LIMIT) throw new Error('integer attacker: search too large for this test');
      let tLo = 0;
      let tHi = 0;
      for (const j of target) {
        tLo += lo[j]!;
        tHi += hi[j]!;
      }
      if (tLo === value && tHi === value) return false;
      // The target can still differ: find a full solution in which it does (target columns first).
      let pick = -1;
      for (let j = 0; j < this.width; j++) {
        if (lo[j] === hi[j]) continue;
        if (
          pick < 0 ||
          (inTarget.has(j) && !inTarget.has(pick)) ||
          (inTarget.has(j) === inTarget.has(pick) && hi[j]! - lo[j]! < hi[pick]! - lo[pick]!)
        )
          pick = j;
      }
      if (pick < 0) return tLo !== value;
      for (let v = lo[pick]!; v <= hi[pick]!; v++) {
        const l = [...lo];
        const h = [...hi];
        l[pick] = v;
        h[pick] = v;
        if (this.propagate(l, h) && search(l, h)) return true;
      }
      return false;
    };
    return search(lo, hi);
  }

  /** Whether Σ over `target` (whose true value is `value`) is recovered exactly. */
  recovers(target: number[], value: number): boolean {
    return !this.canDiffer(target, value);
  }
}

/** Every subset of `items` (the empty one excluded), for small lists. */
export function subsets<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let mask = 1; mask < 1 << items.length; mask++) out.push(items.filter((_, i) => mask & (1 << i)));
  return out;
}
