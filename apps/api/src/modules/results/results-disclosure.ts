// The public results' protections beyond small groups (decision 035): dominance (a group that all, or
// all but fewer than the threshold, gave one answer) and the comparison of two waves of the same
// question. Both run after the small-group suppression of decision 018 and only withhold more, so that
// what the earlier steps guarantee still holds. Pure: no database, no HTTP.

import { auditWithhold, AUDIT_MAX_SMALL, AUDIT_MAX_UNKNOWNS, type AuditRow } from './results-audit.ts';

export interface DisclosureView {
  kind: 'national' | 'region' | 'level' | 'regionLevel';
  region: string | null;
  level: string | null;
  /** Indexes of the atomic groups in the view. */
  groups: number[];
}

export interface DisclosureItem {
  published: string[];
  categories: string[];
  sums?: Record<string, string[]>;
  /** Categories the public knows nobody is in (a required question's "no answer"). */
  impossible?: string[];
}

export interface Pair {
  g: number;
  c: string;
  n: number;
}

const WEIGHT = { national: 100, region: 5, level: 4, regionLevel: 1 } as const;
const cellKey = (v: number, k: string) => `${v}\u0001${k}`;
const keyCategories = (item: DisclosureItem, k: string) => item.sums?.[k] ?? [k];

/**
 * The answer sets a group may share: each category (an option, a scale value, "no answer", or a
 * multiple choice's combination of options) and, for a multiple choice, each option (the combinations
 * that hold it).
 */
function answerSets(item: DisclosureItem, present: Iterable<string>): Set<string>[] {
  const sets = new Map<string, Set<string>>();
  for (const c of present) sets.set(`c:${c}`, new Set([c]));
  if (item.sums) for (const k of item.published) sets.set(`k:${k}`, new Set(keyCategories(item, k)));
  return [...sets.values()];
}

/**
 * Dominance (decision 035). 1. In a shown view where all respondents but fewer than `minGroup` share
 * one answer set, the question's whole row is withheld (its counts and so its zeros). 2. No atomic
 * group whose respondents all gave one answer may be shown to be unanimous by combining what is
 * published (sums, differences, non-negativity, whole numbers): for each such group there must be
 * another table of whole, non-negative counts that gives every published figure and in which one of
 * its respondents answered otherwise — a witness: one respondent moved out of the answer set, alone
 * (no published figure tells the two answers apart in any view of the group) or swapped with a
 * respondent of another group who gave the other answer. Where no witness exists, the published
 * figures that tell the cheapest swap apart are withheld, and the check starts again.
 */
export function protectDominance(
  item: DisclosureItem,
  views: DisclosureView[],
  shownViews: number[],
  groupCount: number,
  pairs: Pair[],
  published: Set<string>,
  minGroup: number,
  options: { rows?: boolean } = {},
): void {
  const x: Map<string, number>[] = Array.from({ length: groupCount }, () => new Map());
  const size = new Array<number>(groupCount).fill(0);
  for (const p of pairs) {
    x[p.g]!.set(p.c, (x[p.g]!.get(p.c) ?? 0) + p.n);
    size[p.g]! += p.n;
  }
  const present = new Set(pairs.map((p) => p.c));
  const sets = answerSets(item, present);

  // 1. The views' rows.
  for (const v of options.rows === false ? [] : shownViews) {
    const inView = new Map<string, number>();
    let n = 0;
    for (const g of views[v]!.groups)
      for (const [c, k] of x[g]!) {
        inView.set(c, (inView.get(c) ?? 0) + k);
        n += k;
      }
    if (n === 0) continue;
    const dominant = sets.some((set) => {
      let inSet = 0;
      for (const c of set) inSet += inView.get(c) ?? 0;
      return n - inSet < minGroup;
    });
    if (dominant) for (const k of item.published) published.delete(cellKey(v, k));
  }

  // 2. The atomic groups, against every combination of what is left.
  const groupViews: number[][] = Array.from({ length: groupCount }, () => []);
  for (const v of shownViews) for (const g of views[v]!.groups) groupViews[g]!.push(v);
  const impossible = new Set(item.impossible ?? []);
  const possible = [
    ...new Set([...present, ...(item.categories.length <= 64 ? item.categories : [])]),
  ].filter((c) => !impossible.has(c));
  const keysOf = new Map<string, Set<string>>();
  for (const k of item.published)
    for (const c of keyCategories(item, k)) keysOf.set(c, (keysOf.get(c) ?? new Set()).add(k));
  /** The published cells that tell apart "one respondent of g in `from`" and "in `to`" (and the reverse for h). */
  const telling = (g: number, h: number | null, from: string, to: string): string[] => {
    const kf = keysOf.get(from) ?? new Set<string>();
    const kt = keysOf.get(to) ?? new Set<string>();
    const out: string[] = [];
    const inH = new Set(h === null ? [] : groupViews[h]!);
    const inG = new Set(groupViews[g]!);
    for (const v of new Set([...inG, ...inH])) {
      if (inG.has(v) && inH.has(v)) continue;
      for (const k of item.published)
        if (kf.has(k) !== kt.has(k) && published.has(cellKey(v, k))) out.push(cellKey(v, k));
    }
    return out;
  };
  const cost = (cells: string[]) =>
    cells.reduce((s, k) => s + WEIGHT[views[Number(k.split('\u0001')[0])]!.kind], 0);

  for (let round = 0; round < 10_000; round++) {
    let fix: string[] | undefined;
    for (let g = 0; g < groupCount && !fix; g++) {
      if (size[g] === 0) continue;
      for (const set of sets) {
        let inSet = 0;
        for (const c of set) inSet += x[g]!.get(c) ?? 0;
        if (inSet !== size[g]) continue;
        const from = [...set].find((c) => (x[g]!.get(c) ?? 0) > 0)!;
        let best: string[] | undefined;
        for (const to of possible) {
          if (set.has(to)) continue;
          const alone = telling(g, null, from, to);
          if (!best || cost(alone) < cost(best)) best = alone;
          if (best.length === 0) break;
          for (let h = 0; h < groupCount; h++) {
            if (h === g || (x[h]!.get(to) ?? 0) === 0) continue;
            const swap = telling(g, h, from, to);
            if (cost(swap) < cost(best)) best = swap;
            if (best.length === 0) break;
          }
          if (best.length === 0) break;
        }
        // No other answer is possible at all (a required question with one option): nothing to hide.
        if (best && best.length > 0) {
          fix = best;
          break;
        }
      }
    }
    if (!fix) return;
    for (const k of fix) published.delete(k);
  }
  // Not reached in practice; if it were, withhold the question everywhere.
  for (const v of shownViews) for (const k of item.published) published.delete(cellKey(v, k));
}

export interface PreviousWave {
  groups: { region: string | null; level: string | null }[];
  /** The item's pairs in the earlier wave (its categories keyed as in this wave). */
  pairs: Pair[];
}

/**
 * Waves (decision 035): suppression across releases. The unknowns are the changes of each (atomic
 * group × category) from an earlier wave of the same question to this one; each figure published now,
 * minus the same figure of the earlier wave (taken as known, whether or not it was shown), is the
 * change of its cells. The exact audit of decision 018 runs on the sizes of the changes: a cell that
 * changed by 1…minGroup−1 is withheld, and so is whatever would let such a change of some answers be
 * derived. A change of a whole group (every answer of some atomic groups together: someone answered
 * this time, no answer is told) is not a leak; the views' respondents stay shown.
 */
export function protectAcrossWaves(
  item: DisclosureItem,
  views: DisclosureView[],
  shownViews: number[],
  groups: { region: string | null; level: string | null }[],
  pairs: Pair[],
  previous: PreviousWave,
  published: Set<string>,
  minGroup: number,
): void {
  const groupKey = (r: string | null, l: string | null) => `${r ?? '\u0000'}|${l ?? '\u0000'}`;
  const all = new Map<string, { region: string | null; level: string | null }>();
  for (const g of [...groups, ...previous.groups]) all.set(groupKey(g.region, g.level), g);
  const groupList = [...all.values()];
  const groupIndex = new Map(groupList.map((g, i) => [groupKey(g.region, g.level), i]));
  // The unknowns: the (group, category) pairs someone is in, in either wave. The others are zero in
  // both, and the attacker is told so (more than they know: it only makes more derivable).
  const columns: { g: number; c: string }[] = [];
  const column = new Map<string, number>();
  const delta: number[] = [];
  const add = (group: { region: string | null; level: string | null }, c: string, n: number) => {
    const g = groupIndex.get(groupKey(group.region, group.level))!;
    const key = `${g}\u0001${c}`;
    let j = column.get(key);
    if (j === undefined) {
      j = columns.length;
      column.set(key, j);
      columns.push({ g, c });
      delta.push(0);
    }
    delta[j]! += n;
  };
  for (const p of pairs) add(groups[p.g]!, p.c, p.n);
  for (const p of previous.pairs) add(previous.groups[p.g]!, p.c, -p.n);
  const columnsOfGroup = new Map<number, number>();
  for (const col of columns) columnsOfGroup.set(col.g, (columnsOfGroup.get(col.g) ?? 0) + 1);
  const inView = (v: number, g: number) => {
    const view = views[v]!;
    const group = groupList[g]!;
    return (
      (view.region === null || group.region === view.region) &&
      (view.level === null || group.level === view.level)
    );
  };
  const rows: AuditRow[] = [];
  const keys: (string | null)[] = [];
  for (const v of shownViews) {
    const cols = columns.map((col, j) => (inView(v, col.g) ? j : -1)).filter((j) => j >= 0);
    rows.push({
      cols,
      withholdable: false,
      weight: 0,
      size: Math.abs(cols.reduce((s, j) => s + delta[j]!, 0)),
    });
    keys.push(null);
    for (const k of item.published) {
      if (!published.has(cellKey(v, k))) continue;
      const summed = new Set(keyCategories(item, k));
      const cellCols = cols.filter((j) => summed.has(columns[j]!.c));
      rows.push({
        cols: cellCols,
        withholdable: true,
        weight: WEIGHT[views[v]!.kind],
        size: Math.abs(cellCols.reduce((s, j) => s + delta[j]!, 0)),
      });
      keys.push(cellKey(v, k));
    }
  }
  const sizes = delta.map(Math.abs);
  // A set that holds every category of each of its groups is a change of whole groups: no answer in it.
  const accept = (set: number[]) => {
    const byGroup = new Map<number, number>();
    for (const j of set) byGroup.set(columns[j]!.g, (byGroup.get(columns[j]!.g) ?? 0) + 1);
    return [...byGroup].some(([g, n]) => n < columnsOfGroup.get(g)!);
  };
  const tooLarge =
    columns.length > AUDIT_MAX_UNKNOWNS ||
    sizes.filter((n) => n > 0 && n < minGroup).length > AUDIT_MAX_SMALL;
  const withheld = tooLarge ? undefined : auditWithhold(sizes, rows, minGroup, accept);
  if (!withheld) {
    // Too large to audit, or the views' respondents alone would tell: the question is not compared, it is withheld.
    for (const v of shownViews) for (const k of item.published) published.delete(cellKey(v, k));
    return;
  }
  for (const i of withheld) if (keys[i]) published.delete(keys[i]!);
  // The newcomers of an atomic group must not be shown to have all given one answer either (the
  // witnesses of dominance, over the increases).
  const currentIndex = new Map(groups.map((g, i) => [groupKey(g.region, g.level), i]));
  const increases: Pair[] = [];
  columns.forEach((col, j) => {
    const g = currentIndex.get(groupKey(groupList[col.g]!.region, groupList[col.g]!.level));
    if (delta[j]! > 0 && g !== undefined) increases.push({ g, c: col.c, n: delta[j]! });
  });
  protectDominance(item, views, shownViews, groups.length, increases, published, minGroup, { rows: false });
}
