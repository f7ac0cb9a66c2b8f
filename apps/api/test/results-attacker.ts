// The attacker of the public results' tests (decision 018): every published figure, combined by any
// sums and differences, exactly (linear algebra over the rationals).

/**
 * Kernel of a 0/1 matrix (rows = published figures, columns = unknowns), by Gauss–Jordan over the
 * rationals (floats with a tolerance: the entries stay small). `1_S` is derivable from the published
 * figures exactly when it is orthogonal to every kernel vector.
 */
export function kernel(rows: number[][], width: number): number[][] {
  const m = rows.map((r) => [...r]);
  const pivots: number[] = [];
  let r = 0;
  for (let c = 0; c < width && r < m.length; c++) {
    let p = -1;
    for (let i = r; i < m.length; i++)
      if (Math.abs(m[i]![c]!) > 1e-9) p = p < 0 || Math.abs(m[i]![c]!) > Math.abs(m[p]![c]!) ? i : p;
    if (p < 0) continue;
    [m[r], m[p]] = [m[p]!, m[r]!];
    const pv = m[r]![c]!;
    for (let j = 0; j < width; j++) m[r]![j]! /= pv;
    for (let i = 0; i < m.length; i++) {
      if (i === r || Math.abs(m[i]![c]!) < 1e-12) continue;
      const f = m[i]![c]!;
      for (let j = 0; j < width; j++) m[i]![j]! -= f * m[r]![j]!;
    }
    pivots.push(c);
    r++;
  }
  const free = [...Array(width).keys()].filter((c) => !pivots.includes(c));
  return free.map((f) => {
    const v = new Array<number>(width).fill(0);
    v[f] = 1;
    pivots.forEach((pc, i) => (v[pc] = -m[i]![f]!));
    return v;
  });
}

/** Every subset of the unknowns whose count the published figures give exactly, with that count (Gray code walk). */
export function derivableCounts(rows: number[][], values: number[]): { subset: number; count: number }[] {
  const width = values.length;
  if (width > 20) throw new Error('universe too large for the exhaustive attacker');
  const ker = kernel(rows, width);
  const dot = new Array<number>(ker.length).fill(0);
  let count = 0;
  let subset = 0;
  const out: { subset: number; count: number }[] = [];
  for (let i = 1; i < 1 << width; i++) {
    const bit = 31 - Math.clz32(i & -i);
    const adding = (subset & (1 << bit)) === 0;
    subset ^= 1 << bit;
    const sign = adding ? 1 : -1;
    count += sign * values[bit]!;
    for (let k = 0; k < ker.length; k++) dot[k]! += sign * ker[k]![bit]!;
    if (dot.every((d) => Math.abs(d) < 1e-7)) out.push({ subset, count });
  }
  return out;
}
