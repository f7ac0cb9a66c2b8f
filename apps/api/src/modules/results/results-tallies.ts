import type { Group, ItemDef, RespondentCategories } from './results-suppression.ts';

/** The key of an unknown region or level in a group's key (never a real name). */
const UNKNOWN = '\u0000';

/** One (atomic group, category) pair of an item and how many respondents fall in it. */
export interface CategoryCount {
  /** Index in `ResultTallies.groups`. */
  g: number;
  c: string;
  n: number;
}

/**
 * All the suppression reads of the respondents: their atomic groups with their sizes, and per item
 * the respondents per (group, category). Both in order of first appearance in the responses (the
 * order in which the tallies would be built one response at a time), so that the outcome does not
 * depend on where the counts were made: here from the respondents, or in SQL (results.repository.ts).
 */
export interface ResultTallies {
  groups: Group[];
  /** item id → its pairs with n > 0. */
  pairs: Map<string, CategoryCount[]>;
}

/** The tallies of respondents given one by one. */
export function tallyRespondents(items: ItemDef[], respondents: RespondentCategories[]): ResultTallies {
  const groupIndex = new Map<string, number>();
  const groups: Group[] = [];
  const groupOf = respondents.map((r) => {
    const key = `${r.region ?? UNKNOWN}|${r.level ?? UNKNOWN}`;
    let g = groupIndex.get(key);
    if (g === undefined) {
      g = groups.length;
      groupIndex.set(key, g);
      groups.push({ region: r.region, level: r.level, n: 0 });
    }
    groups[g]!.n += 1;
    return g;
  });
  const pairs = new Map<string, CategoryCount[]>();
  for (const item of items) {
    const tally = new Map<string, number>();
    respondents.forEach((r, i) => {
      const c = r.categories[item.id];
      if (c === undefined) return;
      const key = `${groupOf[i]}\u0001${c}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
    });
    pairs.set(
      item.id,
      [...tally.entries()].map(([k, n]) => {
        const [g, c] = k.split('\u0001') as [string, string];
        return { g: Number(g), c, n };
      }),
    );
  }
  return { groups, pairs };
}
