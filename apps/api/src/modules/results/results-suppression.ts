// The public results' small-group protection (decision 018). Pure: no database, no HTTP.
//
// The respondents of a survey fall into atomic groups (region × school level; "unknown" for a response
// without a plesso). A view is the national group, a region, a level or a region × level: a union of
// atomic groups. Step 1 chooses the views whose respondents are published; step 2, per "item" (a
// single-choice or scale question with its "no answer" category, or one option of a multiple-choice
// question as chosen / not chosen), chooses the published cells (view × category).
//
// Each step is the exact audit of `results-audit.ts`: withhold what is under `minGroup`, then, while
// sums and differences of what is left give a group of 1…minGroup−1, withhold the cheapest figure of
// that derivation (a region × level before a level or a region, never the national view; the smallest
// first). Beyond the audit's sizes the stricter "atom" rule below is used instead: everything
// published is a count of a union of atoms (classes of the universe by which published figures they
// enter), and every atom holds 0 or at least `minGroup`, so no combination can isolate fewer.
//
// Decision 035 adds, per item and after the above (each only withholds more): the comparison with
// earlier waves of the same question, and dominance (unanimous groups); a multiple-choice question is
// one item whose categories are the combinations of options (`ItemDef.sums`).

import { Worker } from 'node:worker_threads';
import { auditWithhold, AUDIT_MAX_SMALL, AUDIT_MAX_UNKNOWNS, type AuditRow } from './results-audit.ts';
import { tallyRespondents, type CategoryCount, type ResultTallies } from './results-tallies.ts';
import { protectAcrossWaves, protectDominance, type PreviousWave } from './results-disclosure.ts';

export type ViewKind = 'national' | 'region' | 'level' | 'regionLevel';

export interface View {
  key: string;
  kind: ViewKind;
  region: string | null;
  level: string | null;
}

/** One respondent, reduced to its atomic group and the category it falls in for each item. */
export interface RespondentCategories {
  region: string | null;
  level: string | null;
  /** item id → category key. */
  categories: Record<string, string>;
}

export interface ItemDef {
  id: string;
  /** Every category a respondent may fall in (the universe of the item). */
  categories: string[];
  /** The published figures' keys: a category, or a key of `sums`. */
  published: string[];
  /**
   * A published key that adds up several categories (decision 035): a multiple-choice question is one
   * item whose categories are the combinations of options ticked, and each option's count is the sum of
   * the combinations holding it. Absent: each published key is the category of the same name.
   */
  sums?: Record<string, string[]>;
  /** Categories the public knows nobody is in (a required question's "no answer", no option of a required multiple choice). */
  impossible?: string[];
}

/** The categories a published key of an item adds up. */
export function categoriesOfKey(item: ItemDef, key: string): string[] {
  return item.sums?.[key] ?? [key];
}

/** For each category, the published keys whose figure includes it. */
function keysOfCategory(item: ItemDef): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const key of item.published)
    for (const c of categoriesOfKey(item, key)) out.set(c, [...(out.get(c) ?? []), key]);
  return out;
}

export interface ViewResult {
  view: View;
  /** `null` when the view is not shown (too small, or it would make a small group derivable). */
  respondents: number | null;
  /** item id → category → count, `null` when protected. Only for shown views. */
  cells: Record<string, Record<string, number | null>>;
}

export interface SuppressedResults {
  views: Map<string, ViewResult>;
  /** The result of one view (region and/or level, or neither); a view nobody is in shows 0. */
  view(region: string | null, level: string | null): ViewResult;
}

export const viewKey = (region: string | null, level: string | null) => `${region ?? '*'}|${level ?? '*'}`;

/** How much a view (or its cell) is worth keeping: withholding prefers the cheapest. */
const VIEW_WEIGHT: Record<ViewKind, number> = { national: 100, region: 5, level: 4, regionLevel: 1 };
const UNREACHED = 1000;

export interface Group {
  region: string | null;
  level: string | null;
  n: number;
}

interface ViewDef extends View {
  groups: number[];
  n: number;
}

function buildViews(groups: Group[]): ViewDef[] {
  const views = new Map<string, ViewDef>();
  const add = (kind: ViewKind, region: string | null, level: string | null, g: number) => {
    const key = viewKey(region, level);
    let v = views.get(key);
    if (!v) views.set(key, (v = { key, kind, region, level, groups: [], n: 0 }));
    v.groups.push(g);
    v.n += groups[g]!.n;
  };
  groups.forEach((group, g) => {
    add('national', null, null, g);
    if (group.region !== null) add('region', group.region, null, g);
    if (group.level !== null) add('level', null, group.level, g);
    if (group.region !== null && group.level !== null) add('regionLevel', group.region, group.level, g);
  });
  // Deterministic order: national, regions, levels, crosses, each by key.
  const order: ViewKind[] = ['national', 'region', 'level', 'regionLevel'];
  return [...views.values()].sort(
    (a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
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
function chooseViews(views: ViewDef[], groupCount: number, groupN: number[], minGroup: number): Set<number> {
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
function chooseCells(
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
  for (;;) {
    // Atoms: pairs with the same published views (the group's signature) and the same published cells.
    const atoms = new Map<string, Atom & { groupSig: string; cells: string[] }>();
    for (const p of pairs) {
      const gv = groupViews[p.g]!;
      const groupSig = gv.join(',');
      const cells = gv
        .flatMap((v) => (keysOf.get(p.c) ?? []).map((k) => cellKey(v, k)))
        .filter((k) => published.has(k))
        .sort();
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

/** Step 1 by the exact audit: the views whose totals are published (undefined when too large to audit). */
function exactViews(
  views: ViewDef[],
  groups: Group[],
  minGroup: number,
  audit: typeof auditWithhold,
): Set<number> | undefined {
  const national = views.findIndex((v) => v.kind === 'national');
  if (national < 0 || views[national]!.n < minGroup) return new Set();
  const counts = groups.map((g) => g.n);
  if (counts.length > AUDIT_MAX_UNKNOWNS || counts.filter((n) => n < minGroup).length > AUDIT_MAX_SMALL)
    return undefined;
  const rows: AuditRow[] = views.map((v) => ({
    cols: v.groups,
    withholdable: v.kind !== 'national',
    weight: VIEW_WEIGHT[v.kind],
    size: v.n,
  }));
  const withheld = audit(counts, rows, minGroup);
  if (!withheld) return undefined;
  return new Set(views.map((_, i) => i).filter((i) => !withheld.has(i)));
}

/** Step 2 by the exact audit, for one item: the published cells `${view}\u0001${category}` (undefined when too large to audit). */
function exactCells(
  item: ItemDef,
  views: ViewDef[],
  shownViews: number[],
  pairs: { g: number; c: string; n: number }[],
  minGroup: number,
  audit: typeof auditWithhold,
): Set<string> | undefined {
  const counts = pairs.map((p) => p.n);
  if (counts.length > AUDIT_MAX_UNKNOWNS || counts.filter((n) => n < minGroup).length > AUDIT_MAX_SMALL)
    return undefined;
  const rows: AuditRow[] = [];
  const keys: (string | null)[] = [];
  for (const v of shownViews) {
    const inView = new Set(views[v]!.groups);
    rows.push({
      cols: pairs.map((p, j) => (inView.has(p.g) ? j : -1)).filter((j) => j >= 0),
      withholdable: false,
      weight: 0,
      size: views[v]!.n,
    });
    keys.push(null);
    for (const c of item.published) {
      const summed = new Set(categoriesOfKey(item, c));
      const cols = pairs.map((p, j) => (inView.has(p.g) && summed.has(p.c) ? j : -1)).filter((j) => j >= 0);
      rows.push({
        cols,
        withholdable: true,
        weight: VIEW_WEIGHT[views[v]!.kind],
        size: cols.reduce((s, j) => s + counts[j]!, 0),
      });
      keys.push(`${v}\u0001${c}`);
    }
  }
  const withheld = audit(counts, rows, minGroup);
  if (!withheld) return undefined;
  return new Set(keys.filter((k, i): k is string => k !== null && !withheld.has(i)));
}

/**
 * The suppressed results of every view: the respondents of each shown view and, per item, each
 * published cell. Views with nobody show 0; views and cells withheld are `null`.
 */
export function suppressResults(
  items: ItemDef[],
  respondents: RespondentCategories[],
  minGroup: number,
  options: SuppressOptions = {},
): SuppressedResults {
  return suppressTallies(items, tallyRespondents(items, respondents), minGroup, options);
}

// The tallies the suppression reads (from the respondents or from SQL) live in results-tallies.ts.
export { tallyRespondents, type CategoryCount, type ResultTallies };

export interface SuppressOptions {
  /** The exact audit where it is small enough (default); false: the atom rule only. */
  exact?: boolean;
  /**
   * Earlier waves of some of the items (decision 035): their groups and, per item id of this survey,
   * the earlier survey's pairs of the same question. Changes of fewer than `minGroup` are protected.
   */
  previous?: { groups: Group[]; pairs: [string, CategoryCount[]][] }[];
  /** The exact audit of the views and cells (default auditWithhold; the bench and tests pass the reference to compare). */
  audit?: typeof auditWithhold;
}

/** The suppressed results from the tallies (see suppressResults). */
export function suppressTallies(
  items: ItemDef[],
  tallies: ResultTallies,
  minGroup: number,
  options: SuppressOptions = {},
): SuppressedResults {
  const exact = options.exact ?? true;
  const audit = options.audit ?? auditWithhold;
  const { groups } = tallies;
  const views = buildViews(groups);
  const shown =
    (exact ? exactViews(views, groups, minGroup, audit) : undefined) ??
    chooseViews(
      views,
      groups.length,
      groups.map((g) => g.n),
      minGroup,
    );
  const shownViews = [...shown].sort((a, b) => a - b);
  const groupViews: number[][] = groups.map(() => []);
  for (const v of shownViews) for (const g of views[v]!.groups) groupViews[g]!.push(v);

  const results = new Map<string, ViewResult>();
  views.forEach((v, i) =>
    results.set(v.key, {
      view: { key: v.key, kind: v.kind, region: v.region, level: v.level },
      respondents: shown.has(i) ? v.n : null,
      cells: {},
    }),
  );

  for (const item of items) {
    const pairs = tallies.pairs.get(item.id) ?? [];
    const published =
      (exact ? exactCells(item, views, shownViews, pairs, minGroup, audit) : undefined) ??
      chooseCells(item, views, shownViews, groupViews, pairs, minGroup);
    // Decision 035: each earlier wave of the question, then dominance; each only withholds more.
    for (const wave of options.previous ?? []) {
      const earlier: PreviousWave = {
        groups: wave.groups,
        pairs: new Map(wave.pairs).get(item.id) ?? [],
      };
      if (new Map(wave.pairs).has(item.id))
        protectAcrossWaves(item, views, shownViews, groups, pairs, earlier, published, minGroup);
    }
    protectDominance(item, views, shownViews, groups.length, pairs, published, minGroup);
    const keysOf = keysOfCategory(item);
    for (const v of shownViews) {
      const counts: Record<string, number> = Object.fromEntries(item.published.map((c) => [c, 0]));
      const inView = new Set(views[v]!.groups);
      for (const p of pairs) if (inView.has(p.g)) for (const k of keysOf.get(p.c) ?? []) counts[k]! += p.n;
      const cells: Record<string, number | null> = {};
      for (const c of item.published) cells[c] = published.has(`${v}\u0001${c}`) ? counts[c]! : null;
      // Where something is withheld, zeros are withheld too: "protected" then says nothing about its size.
      if (Object.values(cells).some((x) => x === null))
        for (const c of item.published) if (cells[c] === 0) cells[c] = null;
      results.get(views[v]!.key)!.cells[item.id] = cells;
    }
  }

  return withViews(results);
}

/** The results of every view, with the lookup of one (a view nobody is in shows 0). */
function withViews(results: Map<string, ViewResult>): SuppressedResults {
  return {
    views: results,
    view(region, level) {
      const found = results.get(viewKey(region, level));
      if (found) return found;
      const kind: ViewKind =
        region && level ? 'regionLevel' : region ? 'region' : level ? 'level' : 'national';
      // Decision 035: a group nobody is in reads like a small one (telling them apart would narrow the
      // hidden sizes); only a survey nobody answered says so.
      return {
        view: { key: viewKey(region, level), kind, region, level },
        respondents: kind === 'national' ? 0 : null,
        cells: {},
      };
    },
  };
}

/**
 * Above this size the suppression runs in a worker thread (seconds of CPU at national volume). The
 * size is the larger of (group × item) and the published cells (group × answer or combination, this
 * wave's and the earlier waves'): a multiple-choice question is one item with many combinations
 * (decision 035), so counting items alone kept the national survey (99 groups × 4 items, 4,356
 * cells) on the main thread, where it stalled /api/health for 5 s.
 */
const OFF_THREAD_ABOVE = 500;

export function suppressionSize(
  items: ItemDef[],
  tallies: ResultTallies,
  previous: SuppressOptions['previous'] = [],
): number {
  let cells = 0;
  for (const pairs of tallies.pairs.values()) cells += pairs.length;
  for (const wave of previous ?? []) for (const [, pairs] of wave.pairs) cells += pairs.length;
  return Math.max(tallies.groups.length * items.length, cells);
}

/**
 * suppressTallies, in a worker thread when the tallies are large (decision 033), so that the API keeps
 * answering other requests meanwhile; the same function and input, so the same results.
 */
export function suppressTalliesOffThread(
  items: ItemDef[],
  tallies: ResultTallies,
  minGroup: number,
  previous: SuppressOptions['previous'] = [],
): Promise<SuppressedResults> {
  if (suppressionSize(items, tallies, previous) <= OFF_THREAD_ABOVE)
    return Promise.resolve(suppressTallies(items, tallies, minGroup, { previous }));
  return new Promise((resolve, reject) => {
    // The API runs its TypeScript through tsx: the worker registers tsx's loader before importing the module.
    const entry = new URL('./results-suppression-worker.ts', import.meta.url).href;
    const worker = new Worker(
      `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`,
      {
        eval: true,
        workerData: { items, groups: tallies.groups, pairs: [...tallies.pairs], minGroup, previous },
      },
    );
    worker.once('message', (views: [string, ViewResult][]) => resolve(withViews(new Map(views))));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`results suppression worker exited with ${code}`));
    });
  });
}
