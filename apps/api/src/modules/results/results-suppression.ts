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

import { auditWithhold, AUDIT_MAX_SMALL, AUDIT_MAX_UNKNOWNS, type AuditRow } from './results-audit.ts';
import {
  categoriesOfKey,
  chooseCells,
  chooseViews,
  keysOfCategory,
  VIEW_WEIGHT,
  type ViewDef,
} from './results-atom-rule.ts';
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

export { categoriesOfKey };

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

export interface Group {
  region: string | null;
  level: string | null;
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
    // The view's pairs, ascending: each figure's columns are some of them, in the same order.
    const viewCols = pairs.map((p, j) => (inView.has(p.g) ? j : -1)).filter((j) => j >= 0);
    rows.push({
      cols: viewCols,
      withholdable: false,
      weight: 0,
      size: views[v]!.n,
    });
    keys.push(null);
    for (const c of item.published) {
      const summed = new Set(categoriesOfKey(item, c));
      const cols = viewCols.filter((j) => summed.has(pairs[j]!.c));
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
export function withViews(results: Map<string, ViewResult>): SuppressedResults {
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
export const OFF_THREAD_ABOVE = 500;

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
