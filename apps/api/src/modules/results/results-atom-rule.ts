// The atom rule of the public results (decision 018), used beyond the exact audit's sizes: everything
// published is a count of a union of atoms (classes of the universe by which published figures they
// enter), and every atom holds 0 or at least `minGroup`, so no combination can isolate fewer. Pure.
import type { ItemDef, View, ViewKind } from './results-suppression.ts';

/** The categories a published key of an item adds up. */
export function categoriesOfKey(item: ItemDef, key: string): string[] {
  return item.sums?.[key] ?? [key];
}

/** For each category, the published keys whose figure includes it. */
export function keysOfCategory(item: ItemDef): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const key of item.published)
    for (const c of categoriesOfKey(item, key)) out.set(c, [...(out.get(c) ?? []), key]);
  return out;
}

/** How much a view (or its cell) is worth keeping: withholding prefers the cheapest. */
export const VIEW_WEIGHT: Record<ViewKind, number> = { national: 100, region: 5, level: 4, regionLevel: 1 };
const UNREACHED = 1000;

/** A view with its atomic groups and respondents. */
export interface ViewDef extends View {
  groups: number[];
  n: number;
}

interface Atom {
  key: string;
  count: number;
  /** Sorted indexes of the views (step 1) or cells (step 2) that the atom is inside of. */
  sig: number[];
}

function symmetricDifference(a: number[], b: number[]): number[] {
  const sa = new Set(a);
  const sb = new Set(b);
  return [...a.filter((x) => !sb.has(x)), ...b.filter((x) => !sa.has(x))];
}

function byCountThenKey(a: Atom, b: Atom) {
  return a.count - b.count || (a.key < b.key ? -1 : 1);
}

/**
 * Step 1 by the atom rule: the views whose totals are published. Views under `minGroup` are withheld; then, while two
 * published views leave an atom of 1…minGroup−1 respondents between them (e.g. national minus a region,
 * or a region minus its levels), the cheapest set of views separating that atom from its nearest
 * non-empty atom is withheld too (never the national view: if it is small, nothing is shown).
 */
export function chooseViews(
  views: ViewDef[],
  groupCount: number,
  groupN: number[],
  minGroup: number,
): Set<number> {
  const national = views.findIndex((v) => v.kind === 'national');
  if (national < 0 || views[national]!.n < minGroup) return new Set();
  const shown = new Set(views.map((v, i) => (v.n >= minGroup ? i : -1)).filter((i) => i >= 0));
  const memberOf: number[][] = Array.from({ length: groupCount }, () => []);
  views.forEach((v, i) => v.groups.forEach((g) => memberOf[g]!.push(i)));
  for (;;) {
    const atoms = new Map<string, Atom>();
    for (let g = 0; g < groupCount; g++) {
      const sig = memberOf[g]!.filter((i) => shown.has(i));
      const key = sig.join(',');
      const atom = atoms.get(key) ?? { key, count: 0, sig };
      atom.count += groupN[g]!;
      atoms.set(key, atom);
    }
    const list = [...atoms.values()].filter((a) => a.count > 0).sort(byCountThenKey);
    const bad = list.find((a) => a.count < minGroup);
    if (!bad) return shown;
    let best: { cost: number; count: number; key: string; drop: number[] } | undefined;
    for (const other of list) {
      if (other === bad) continue;
      const drop = symmetricDifference(bad.sig, other.sig);
      const cost =
        (bad.count + other.count < minGroup ? UNREACHED : 0) +
        drop.reduce((s, i) => s + VIEW_WEIGHT[views[i]!.kind], 0);
      if (
        !best ||
        cost < best.cost ||
        (cost === best.cost &&
          (other.count < best.count || (other.count === best.count && other.key < best.key)))
      ) {
        best = { cost, count: other.count, key: other.key, drop };
      }
    }
    // A lone small atom is the whole survey (the national view is then small): nothing is shown.
    if (!best || best.drop.length === 0) return new Set();
    for (const i of best.drop) shown.delete(i);
  }
}

/**
 * Step 2 by the atom rule, for one item: which cells (view × category) are published. Cells of 1…minGroup−1 are
 * withheld; then, while an atom of (atomic group × category) pairs holds 1…minGroup−1 respondents,
 * the cheapest cells that merge it with a neighbouring atom are withheld (the "next smallest cell"
 * of secondary suppression, across views as well as within one).
 */
export function chooseCells(
  item: ItemDef,
  views: ViewDef[],
  shownViews: number[],
  groupViews: number[][],
  pairs: { g: number; c: string; n: number }[],
  minGroup: number,
): Set<string> {
  const cellKey = (v: number, k: string) => `${v}\u0001${k}`;
  const keysOf = keysOfCategory(item);
  const counts = new Map<string, number>();
  for (const p of pairs)
    for (const v of groupViews[p.g]!)
      for (const k of keysOf.get(p.c) ?? [])
        counts.set(cellKey(v, k), (counts.get(cellKey(v, k)) ?? 0) + p.n);
  const published = new Set<string>();
  for (const v of shownViews) {
    for (const k of item.published) {
      const n = counts.get(cellKey(v, k)) ?? 0;
      if (n === 0 || n >= minGroup) published.add(cellKey(v, k));
    }
  }
  // Each pair's group signature and possible cells, sorted once (filtering keeps the order).
  const candidates = pairs.map((p) => {
    const gv = groupViews[p.g]!;
    return {
      groupSig: gv.join(','),
      sorted: gv.flatMap((v) => (keysOf.get(p.c) ?? []).map((k) => cellKey(v, k))).sort(),
    };
  });
  for (;;) {
    // Atoms: pairs with the same published views (the group's signature) and the same published cells.
    const atoms = new Map<string, Atom & { groupSig: string; cells: string[] }>();
    for (const [i, p] of pairs.entries()) {
      const { groupSig, sorted } = candidates[i]!;
      const cells = sorted.filter((k) => published.has(k));
      const key = `${groupSig}#${cells.join(',')}`;
      const atom = atoms.get(key) ?? { key, count: 0, sig: [], groupSig, cells };
      atom.count += p.n;
      atoms.set(key, atom);
    }
    const list = [...atoms.values()].filter((a) => a.count > 0).sort(byCountThenKey);
    const bad = list.find((a) => a.count < minGroup);
    if (!bad) return published;
    let best: { cost: number; count: number; key: string; withhold: string[] } | undefined;
    for (const other of list) {
      if (other === bad || other.groupSig !== bad.groupSig) continue;
      const sb = new Set(bad.cells);
      const so = new Set(other.cells);
      const withhold = [...bad.cells.filter((k) => !so.has(k)), ...other.cells.filter((k) => !sb.has(k))];
      const cost =
        (bad.count + other.count < minGroup ? UNREACHED : 0) +
        withhold.reduce((s, k) => s + VIEW_WEIGHT[views[Number(k.split('\u0001')[0])]!.kind], 0);
      if (
        !best ||
        cost < best.cost ||
        (cost === best.cost &&
          (other.count < best.count || (other.count === best.count && other.key < best.key)))
      ) {
        best = { cost, count: other.count, key: other.key, withhold };
      }
    }
    // Cannot happen once the views are safe (the pairs of one group signature add up to its respondents).
    if (!best || best.withhold.length === 0) {
      for (const v of shownViews) for (const k of item.published) published.delete(cellKey(v, k));
      return published;
    }
    for (const k of best.withhold) published.delete(k);
  }
}
