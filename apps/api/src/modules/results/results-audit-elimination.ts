// The exact audit's elimination (results-audit.ts), kept from one withholding round to the next.
//
// The audit used to run a full Gauss–Jordan elimination with partial pivoting over the published rows
// in every round (results-audit-reference.ts). Its floating-point path decides which figures are
// withheld (the pivot picked among near-equal values, the reduced rows' fingerprints, the
// combinations' supports), so this file performs the very same arithmetic, operation for operation,
// and only skips what it can prove to be unchanged or unread:
//
// 1. Forward only. A row that is not yet a pivot row is changed only by the pivot rows chosen before
//    it, and the pivot is chosen among those rows: the elimination *below* the pivots decides
//    everything. Eliminating *above* (Gauss–Jordan's backward part) and the combination matrix are
//    only read for the pivot columns that are small unknowns (a dozen of several hundreds): they are
//    replayed for those alone from a log of the steps, each entry by the same operations in the same
//    order (an entry of a row depends only on that entry of the rows subtracted from it).
// 2. Resumed. Withholding figures removes rows. Until the first step whose pivot row or whose front
//    row (the one the pivot is swapped with) is a removed row, the elimination of the remaining rows
//    is the previous one with those rows deleted: same values, same pivots, same order of the other
//    rows. The state is saved every few steps; a round restarts from the last save before that step.

const EPS = 1e-7;
/** Steps between two saved states (memory: the rows not yet pivots, at each save). */
const SAVE_EVERY = 16;

interface Step {
  col: number;
  /** The pivot row's id and the rows below tied with it for the largest value. */
  pivot: number;
  ties: Int32Array;
  pv: number;
  /**
   * The pivot row divided by pv (the reference's row, every entry but the +0s that were never written:
   * `uCols`, `uVals`), its non-zero columns (taken before the division, as the reference does) and
   * their values.
   */
  uCols: Int32Array;
  uVals: Float64Array;
  nz: Int32Array;
  uv: Float64Array;
  /** The rows below updated at this step and their factors. */
  touched: Int32Array;
  factors: Float64Array;
}

interface Saved {
  /** Steps done (the rank), and the next column. */
  rank: number;
  col: number;
  ids: number[];
  /** Their rows, sparse: row k's entries are idx/val[start[k] … start[k + 1]) (a −0 is kept as such). */
  start: Int32Array;
  idx: Int32Array;
  val: Float64Array;
}

/** Not +0 (a −0 is stored: the restored rows are the saved ones bit for bit). */
const stored = (x: number) => x !== 0 || 1 / x < 0;

/** The rows of the slots `slots` (in position order): their entries other than +0, from their columns. */
function save(
  rank: number,
  col: number,
  slots: Int32Array,
  ids: number[],
  rows: Float64Array[],
  rowCols: number[][],
): Saved {
  const start = new Int32Array(slots.length + 1);
  let n = 0;
  slots.forEach((k, i) => {
    start[i] = n;
    const r = rows[k]!;
    for (const j of rowCols[k]!) if (stored(r[j]!)) n++;
  });
  start[slots.length] = n;
  const idx = new Int32Array(n);
  const val = new Float64Array(n);
  n = 0;
  for (const k of slots) {
    const r = rows[k]!;
    for (const j of rowCols[k]!)
      if (stored(r[j]!)) {
        idx[n] = j;
        val[n++] = r[j]!;
      }
  }
  return { rank, col, ids: Array.from(slots, (k) => ids[k]!), start, idx, val };
}

export class IncrementalElimination {
  private steps: Step[] = [];
  private saved: Saved[] = [];
  private active: number[] = [];
  private stepOfCol = new Map<number, number>();
  private stepOfRow = new Map<number, number>();
  /** Per pivot step, its reduced row and the backward factors (step, f), when asked for. */
  /** The rows' dense storage, reused from one round to the next (nothing keeps a view of it). */
  private buffer = new Float64Array(0);
  private backward = new Map<number, { row: Float64Array; ups: [number, number][] }>();
  /** Statistics: steps recomputed in all, steps reused. */
  readonly stats = { computed: 0, reused: 0 };

  constructor(
    private readonly cols: number[][],
    private readonly width: number,
    /** Steps between two saved states (smaller in tests, to resume from many places). */
    private readonly saveEvery = SAVE_EVERY,
    /**
     * A save also waits until the elimination since the last one has done at least this many times
     * the save's own cost (the listed entries of the rows not yet pivots): a sparse elimination is then not slowed down by
     * its saves. 0 in tests.
     */
    private readonly saveWork = 1,
  ) {}

  get pivots(): number[] {
    return this.steps.map((s) => s.col);
  }

  /** The ids of the pivot rows (the only ones with a non-zero coefficient in a combination). */
  get pivotRows(): Set<number> {
    return new Set(this.steps.map((s) => s.pivot));
  }

  /** The non-pivot columns. */
  get free(): number[] {
    return [...Array(this.width).keys()].filter((c) => !this.stepOfCol.has(c));
  }

  /**
   * Eliminates the rows `active` (ids, in order). When they are the previous call's rows with some
   * removed, the previous elimination is reused up to the first step where a removed row mattered.
   */
  reduce(active: number[]): void {
    const now = new Set(active);
    const removed = this.active.filter((id) => !now.has(id));
    const kept = this.active.filter((id) => now.has(id));
    // (Reused below only when the rows are the previous ones with some removed, in the same order.)
    const sameOrder = kept.length === active.length && kept.every((id, i) => id === active[i]);
    let from: Saved | undefined;
    let order: number[] = [];
    if (sameOrder && this.steps.length > 0) {
      const { at, orders } = this.divergence(active, new Set(removed));
      // A save after `rank` steps is still valid when those steps are all before the divergence.
      this.saved = this.saved.filter((s) => s.rank <= at);
      from = this.saved.at(-1);
      if (from) order = orders.get(from.rank)!;
    } else this.saved = [];
    this.active = [...active];
    this.backward.clear();
    const w = this.width;
    let ids: number[];
    let col: number;
    /** Each row's columns that may hold a value other than +0 (so the others need not be read). */
    const rowCols: number[][] = [];
    const n = active.length;
    if (this.buffer.length < n * w) this.buffer = new Float64Array(n * w);
    else this.buffer.fill(0, 0, n * w);
    const work = this.buffer;
    if (from) {
      this.stats.reused += from.rank;
      this.steps.length = from.rank;
      const offset = new Map(from.ids.map((id, i) => [id, i]));
      ids = order;
      ids.forEach((id, k) => {
        const i = offset.get(id)!;
        const cols: number[] = [];
        for (let t = from.start[i]!; t < from.start[i + 1]!; t++) {
          work[k * w + from.idx[t]!] = from.val[t]!;
          cols.push(from.idx[t]!);
        }
        rowCols.push(cols);
      });
      col = from.col;
    } else {
      this.steps = [];
      ids = [...active];
      ids.forEach((id, k) => {
        const cols = [...new Set(this.cols[id]!)];
        for (const c of cols) work[k * w + c] = 1;
        rowCols.push(cols);
      });
      col = 0;
    }
    const rows = ids.map((_, k) => work.subarray(k * w, (k + 1) * w));
    this.forward(ids, rows, rowCols, col);
    this.stepOfCol = new Map(this.steps.map((s, i) => [s.col, i]));
    // Before its own step a row's column of the combinations holds only its own 1: nothing to replay.
    this.stepOfRow = new Map(this.steps.map((s, i) => [s.pivot, i]));
  }

  /**
   * The first step of the previous elimination that the rows `active` (the previous ones without
   * `gone`) would not repeat, and the order of the rows not yet pivots at each save before it. The
   * rows' values do not depend on their order, only on the pivots; the order decides only among
   * rows tied for the largest value. So a step is repeated unless its pivot is gone or a row tied
   * with it now comes first.
   */
  private divergence(active: number[], gone: Set<number>): { at: number; orders: Map<number, number[]> } {
    const order = [...active];
    let head = 0;
    const index = new Map(order.map((id, i) => [id, i]));
    const ranks = new Set(this.saved.map((s) => s.rank));
    const orders = new Map<number, number[]>();
    let s = 0;
    for (; s < this.steps.length; s++) {
      if (ranks.has(s)) orders.set(s, order.slice(head));
      const step = this.steps[s]!;
      if (gone.has(step.pivot)) break;
      const at = index.get(step.pivot)!;
      let tieBefore = false;
      for (const t of step.ties) {
        const i = index.get(t);
        if (i !== undefined && i < at) tieBefore = true;
      }
      if (tieBefore) break;
      // The front row takes the pivot's place.
      const front = order[head]!;
      order[at] = front;
      index.set(front, at);
      index.delete(step.pivot);
      head++;
    }
    if (ranks.has(s) && !orders.has(s)) orders.set(s, order.slice(head));
    return { at: s, orders };
  }

  /**
   * The forward elimination of the rows not yet pivots, `ids` in position order, from column `start`.
   * The reference reads every row at every column (for the pivot, then for the factors) and every
   * entry of each pivot row; the rows are sparse, so each column keeps the rows that may be non-zero
   * there and each row the columns it may be non-zero in (its own entries, then each fill-in): what
   * is left out holds ±0, which neither the pivot search (> EPS), the update (≥ 1e-12) nor the pivot
   * row's non-zeros read. Rows keep their slot; `order` holds the slots in position order, so the
   * pivot is the first of the largest by position, as in the reference.
   */
  private forward(ids: number[], rows: Float64Array[], rowCols: number[][], start: number): void {
    const w = this.width;
    const n = ids.length;
    const order = Int32Array.from({ length: n }, (_, k) => k);
    /** Each slot's position in `order`, −1 once it is a pivot row. */
    const where = Int32Array.from({ length: n }, (_, k) => k);
    let head = 0;
    const listed = new Uint8Array(n * w);
    const colRows: number[][] = Array.from({ length: w }, () => []);
    /** The entries listed in the rows not yet pivots: what a save reads. */
    let entries = 0;
    for (let k = 0; k < n; k++)
      for (const j of rowCols[k]!) {
        listed[k * w + j] = 1;
        entries++;
        if (j >= start) colRows[j]!.push(k);
      }
    let work = 0;
    for (let c = start; c < w && head < n; c++) {
      const last = this.saved.at(-1)?.rank ?? 0;
      if (this.steps.length - last >= this.saveEvery && work >= this.saveWork * entries) {
        this.saved.push(save(this.steps.length, c, order.subarray(head), ids, rows, rowCols));
        work = 0;
      }
      const list = colRows[c]!;
      let p = -1;
      let best = EPS;
      for (const k of list) {
        if (where[k]! < 0) continue;
        const v = Math.abs(rows[k]![c]!);
        if (v > best || (v === best && p >= 0 && where[k]! < where[p]!)) {
          best = v;
          p = k;
        }
      }
      if (p < 0) continue;
      // The rows after the pivot with the same value: another order of the rows could pick them.
      const ties: number[] = [];
      for (const k of list) if (k !== p && where[k]! >= 0 && Math.abs(rows[k]![c]!) === best) ties.push(k);
      ties.sort((a, b) => where[a]! - where[b]!);
      const row = rows[p]!;
      // The reference swaps the pivot row with the row at the pivot position: the front row takes the
      // pivot's place among the rows below.
      const front = order[head]!;
      order[where[p]!] = front;
      where[front] = where[p]!;
      where[p] = -1;
      head++;
      const pv = row[c]!;
      const pcols = rowCols[p]!;
      entries -= pcols.length;
      let m = 0;
      for (const j of pcols) if (row[j] !== 0) m++;
      const nz = new Int32Array(m);
      m = 0;
      for (const j of pcols) if (row[j] !== 0) nz[m++] = j;
      for (const j of nz) row[j]! /= pv;
      // The reference keeps the whole row; the entries left out here are +0 (never written, or
      // eliminated to exactly +0), which the replay restores as the zeros of a new row.
      m = 0;
      for (const j of pcols) if (stored(row[j]!)) m++;
      const uCols = new Int32Array(m);
      const uVals = new Float64Array(m);
      m = 0;
      for (const j of pcols)
        if (stored(row[j]!)) {
          uCols[m] = j;
          uVals[m++] = row[j]!;
        }
      const uv = new Float64Array(nz.length);
      for (let t = 0; t < nz.length; t++) uv[t] = row[nz[t]!]!;
      const touched: number[] = [];
      const factors: number[] = [];
      for (const k of list) {
        if (where[k]! < 0) continue;
        const ai = rows[k]!;
        const f = ai[c]!;
        if (Math.abs(f) < 1e-12) continue;
        const base = k * w;
        const kcols = rowCols[k]!;
        for (let t = 0; t < nz.length; t++) {
          const j = nz[t]!;
          ai[j]! -= f * uv[t]!;
          if (listed[base + j] === 0) {
            listed[base + j] = 1;
            kcols.push(j);
            entries++;
            if (j > c) colRows[j]!.push(k);
          }
        }
        touched.push(ids[k]!);
        factors.push(f);
      }
      work += nz.length * touched.length;
      this.steps.push({
        col: c,
        pivot: ids[p]!,
        ties: Int32Array.from(ties.map((k) => ids[k]!)),
        pv,
        uCols,
        uVals,
        nz,
        uv,
        touched: Int32Array.from(touched),
        factors: Float64Array.from(factors),
      });
      this.stats.computed++;
    }
  }

  /** The Gauss–Jordan reduced row of pivot column `col` (what the reference's `rref` holds), replayed. */
  reducedRow(col: number): Float64Array {
    return this.replayBackward(this.stepOfCol.get(col)!).row;
  }

  private replayBackward(k: number) {
    let done = this.backward.get(k);
    if (done) return done;
    const step = this.steps[k]!;
    const row = new Float64Array(this.width);
    for (let t = 0; t < step.uCols.length; t++) row[step.uCols[t]!] = step.uVals[t]!;
    const ups: [number, number][] = [];
    for (let l = k + 1; l < this.steps.length; l++) {
      const s = this.steps[l]!;
      const f = row[s.col]!;
      if (Math.abs(f) < 1e-12) continue;
      for (let t = 0; t < s.nz.length; t++) row[s.nz[t]!]! -= f * s.uv[t]!;
      ups.push([l, f]);
    }
    done = { row, ups };
    this.backward.set(k, done);
    return done;
  }

  /**
   * The rows whose combination column can reach the reduced rows of the pivot columns `cols`: the
   * others' coefficient there is never changed from +0 (a column's entries spread only from a pivot
   * row to the rows it updates), so `combination` would return 0 for them.
   */
  reaching(cols: Set<number>): { has(id: number): boolean } {
    // By row id (a byte per row: this runs for every leak, over every step).
    const reach = new Uint8Array(this.cols.length);
    const upped = new Uint8Array(this.steps.length);
    for (const c of cols) {
      const k = this.stepOfCol.get(c);
      if (k === undefined) continue;
      reach[this.steps[k]!.pivot] = 1;
      for (const [l] of this.replayBackward(k).ups) upped[l] = 1;
    }
    for (let l = this.steps.length - 1; l >= 0; l--) {
      const s = this.steps[l]!;
      if (reach[s.pivot] === 1) continue;
      let hit = upped[l] === 1;
      for (let t = 0; !hit && t < s.touched.length; t++) hit = reach[s.touched[t]!] === 1;
      if (hit) reach[s.pivot] = 1;
    }
    return { has: (id) => reach[id] === 1 };
  }

  /**
   * Σ over the pivot columns `cols` (added in pivot order, from 0) of the coefficient of input row
   * `id` in their reduced rows: the reference's `alpha[id]`. The combination matrix's column `id`,
   * replayed alone: each entry changes only through the same entry of the rows subtracted from it.
   */
  combination(id: number, cols: Set<number>): number {
    return this.combinations(cols)(id);
  }

  /**
   * `combination` for one set of pivot columns and many rows: the steps asked and the backward
   * updates they received are gathered once (the same for every row), then each row's column is
   * replayed as `combination` does.
   */
  combinations(cols: Set<number>): (id: number) => number {
    const ks = [...cols]
      .map((c) => this.stepOfCol.get(c))
      .filter((k): k is number => k !== undefined)
      .sort((a, b) => a - b);
    if (ks.length === 0) return () => 0;
    // Backward updates received by the rows asked, by step.
    const ups = new Map<number, [number, number][]>();
    for (const k of ks) {
      for (const [l, f] of this.replayBackward(k).ups) {
        const list = ups.get(l) ?? [];
        list.push([this.steps[k]!.pivot, f]);
        ups.set(l, list);
      }
    }
    // The column, by row id (every entry starts at +0, as the reference's identity matrix).
    const val = new Float64Array(this.cols.length);
    return (id) => {
      val.fill(0);
      val[id] = 1;
      for (let l = this.stepOfRow.get(id) ?? this.steps.length; l < this.steps.length; l++) {
        const s = this.steps[l]!;
        let er = val[s.pivot]!;
        if (er === 0) continue;
        er /= s.pv;
        val[s.pivot] = er;
        for (let t = 0; t < s.touched.length; t++) val[s.touched[t]!]! -= s.factors[t]! * er;
        for (const [row, f] of ups.get(l) ?? []) val[row]! -= f * er;
      }
      let alpha = 0;
      for (const k of ks) alpha += val[this.steps[k]!.pivot]!;
      return alpha;
    };
  }
}
