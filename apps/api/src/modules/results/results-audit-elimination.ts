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
  /** The pivot row divided by pv, its non-zero columns (taken before the division, as the reference does) and their values. */
  u: Float64Array;
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

function save(rank: number, col: number, ids: number[], rows: Float64Array[]): Saved {
  const start = new Int32Array(rows.length + 1);
  let n = 0;
  rows.forEach((r, k) => {
    start[k] = n;
    for (let j = 0; j < r.length; j++) if (stored(r[j]!)) n++;
  });
  start[rows.length] = n;
  const idx = new Int32Array(n);
  const val = new Float64Array(n);
  n = 0;
  for (const r of rows)
    for (let j = 0; j < r.length; j++)
      if (stored(r[j]!)) {
        idx[n] = j;
        val[n++] = r[j]!;
      }
  return { rank, col, ids: [...ids], start, idx, val };
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

export class IncrementalElimination {
  private steps: Step[] = [];
  private saved: Saved[] = [];
  private active: number[] = [];
  private stepOfCol = new Map<number, number>();
  private stepOfRow = new Map<number, number>();
  /** Per pivot step, its reduced row and the backward factors (step, f), when asked for. */
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
     * the save's own cost (one pass over the rows): a sparse elimination is then not slowed down by
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
    let work: Float64Array;
    let col: number;
    if (from) {
      this.stats.reused += from.rank;
      this.steps.length = from.rank;
      const offset = new Map(from.ids.map((id, i) => [id, i]));
      ids = order;
      work = new Float64Array(ids.length * w);
      ids.forEach((id, k) => {
        const i = offset.get(id)!;
        for (let t = from.start[i]!; t < from.start[i + 1]!; t++) work[k * w + from.idx[t]!] = from.val[t]!;
      });
      col = from.col;
    } else {
      this.steps = [];
      ids = [...active];
      work = new Float64Array(ids.length * w);
      ids.forEach((id, k) => {
        for (const c of this.cols[id]!) work[k * w + c] = 1;
      });
      col = 0;
    }
    const rows = ids.map((_, k) => work.subarray(k * w, (k + 1) * w));
    this.forward(ids, rows, col);
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

  /** The forward elimination of the rows not yet pivots, `ids` in position order, from column `start`. */
  private forward(ids: number[], rows: Float64Array[], start: number): void {
    let work = 0;
    for (let c = start; c < this.width && ids.length > 0; c++) {
      const last = this.saved.at(-1)?.rank ?? 0;
      if (this.steps.length - last >= this.saveEvery && work >= this.saveWork * rows.length * this.width) {
        this.saved.push(save(this.steps.length, c, ids, rows));
        work = 0;
      }
      let p = -1;
      let best = EPS;
      for (let i = 0; i < rows.length; i++) {
        const v = Math.abs(rows[i]![c]!);
        if (v > best) {
          best = v;
          p = i;
        }
      }
      if (p < 0) continue;
      const pivot = ids[p]!;
      const front = ids[0]!;
      // The rows after the pivot with the same value: another order of the rows could pick them.
      const ties: number[] = [];
      for (let i = p + 1; i < rows.length; i++) if (Math.abs(rows[i]![c]!) === best) ties.push(ids[i]!);
      const row = rows[p]!;
      // The reference swaps the pivot row with the row at the pivot position: the front row takes the
      // pivot's place among the rows below.
      ids[p] = front;
      rows[p] = rows[0]!;
      ids.shift();
      rows.shift();
      const pv = row[c]!;
      const nz = nonZeros(row);
      for (const j of nz) row[j]! /= pv;
      const u = row.slice();
      const uv = new Float64Array(nz.length);
      for (let t = 0; t < nz.length; t++) uv[t] = u[nz[t]!]!;
      const touched: number[] = [];
      const factors: number[] = [];
      for (let i = 0; i < rows.length; i++) {
        const ai = rows[i]!;
        const f = ai[c]!;
        if (Math.abs(f) < 1e-12) continue;
        for (let t = 0; t < nz.length; t++) ai[nz[t]!]! -= f * uv[t]!;
        touched.push(ids[i]!);
        factors.push(f);
      }
      work += nz.length * touched.length;
      this.steps.push({
        col: c,
        pivot,
        ties: Int32Array.from(ties),
        pv,
        u,
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
    const row = this.steps[k]!.u.slice();
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
  reaching(cols: Set<number>): Set<number> {
    const reach = new Set<number>();
    const ups = new Map<number, number[]>();
    for (const c of cols) {
      const k = this.stepOfCol.get(c);
      if (k === undefined) continue;
      reach.add(this.steps[k]!.pivot);
      for (const [l] of this.replayBackward(k).ups) ups.set(l, [...(ups.get(l) ?? []), k]);
    }
    for (let l = this.steps.length - 1; l >= 0; l--) {
      const s = this.steps[l]!;
      if (reach.has(s.pivot)) continue;
      let hit = (ups.get(l) ?? []).length > 0;
      for (let t = 0; !hit && t < s.touched.length; t++) hit = reach.has(s.touched[t]!);
      if (hit) reach.add(s.pivot);
    }
    return reach;
  }

  /**
   * Σ over the pivot columns `cols` (added in pivot order, from 0) of the coefficient of input row
   * `id` in their reduced rows: the reference's `alpha[id]`. The combination matrix's column `id`,
   * replayed alone: each entry changes only through the same entry of the rows subtracted from it.
   */
  combination(id: number, cols: Set<number>): number {
    const ks = [...cols]
      .map((c) => this.stepOfCol.get(c))
      .filter((k): k is number => k !== undefined)
      .sort((a, b) => a - b);
    if (ks.length === 0) return 0;
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
  }
}
