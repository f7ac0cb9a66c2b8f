import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivableCounts } from '../../../test/results-attacker.ts';
import {
  suppressionSize,
  suppressResults,
  viewKey,
  type ItemDef,
  type RespondentCategories,
  type SuppressedResults,
} from './results-suppression.ts';

const K = 5;

// ---- The attacker: every published figure, combined by any sums and differences ----

interface Cell {
  region: string | null;
  level: string | null;
  /** One category per item. */
  cats: string[];
}

/** The unknowns: (atomic group × one category per item), their true counts, and the published rows over them. */
function attack(respondents: RespondentCategories[], items: ItemDef[], results: SuppressedResults) {
  const universe = new Map<string, Cell & { n: number }>();
  for (const r of respondents) {
    const cats = items.map((it) => r.categories[it.id]!);
    const key = `${r.region}|${r.level}|${cats.join('|')}`;
    const u = universe.get(key) ?? { region: r.region, level: r.level, cats, n: 0 };
    u.n += 1;
    universe.set(key, u);
  }
  // Unknowns with zero respondents matter too: the attacker does not know they are empty.
  const groups = new Map<string, { region: string | null; level: string | null }>();
  for (const r of respondents) groups.set(`${r.region}|${r.level}`, { region: r.region, level: r.level });
  const combos: string[][] = items.reduce<string[][]>(
    (acc, it) => acc.flatMap((a) => it.categories.map((c) => [...a, c])),
    [[]],
  );
  for (const g of groups.values()) {
    for (const cats of combos) {
      const key = `${g.region}|${g.level}|${cats.join('|')}`;
      if (!universe.has(key)) universe.set(key, { ...g, cats, n: 0 });
    }
  }
  const cells = [...universe.values()];
  const inView = (c: Cell, region: string | null, level: string | null) =>
    (region === null || c.region === region) && (level === null || c.level === level);
  const rows: number[][] = [];
  for (const v of results.views.values()) {
    if (v.respondents === null) continue;
    rows.push(cells.map((c) => (inView(c, v.view.region, v.view.level) ? 1 : 0)));
    expect(v.respondents).toBe(
      cells.filter((c) => inView(c, v.view.region, v.view.level)).reduce((s, c) => s + c.n, 0),
    );
    items.forEach((it, i) => {
      for (const [cat, value] of Object.entries(v.cells[it.id] ?? {})) {
        if (value === null) continue;
        const row: number[] = cells.map((c) =>
          inView(c, v.view.region, v.view.level) && c.cats[i] === cat ? 1 : 0,
        );
        expect(value).toBe(row.reduce<number>((s, x, j) => s + x * cells[j]!.n, 0));
        rows.push(row);
      }
    });
  }
  return { rows, values: cells.map((c) => c.n), cells };
}

function assertNoSmallGroup(
  respondents: RespondentCategories[],
  items: ItemDef[],
  results: SuppressedResults,
) {
  const { rows, values } = attack(respondents, items, results);
  const leaks = derivableCounts(rows, values).filter((d) => d.count > 0 && d.count < K);
  expect(leaks, `derivable small groups: ${JSON.stringify(leaks.slice(0, 3))}`).toEqual([]);
}

// ---- Generators ----

const REGIONS = ['Lazio', 'Lombardia', 'Puglia'];
const LEVELS = ['primaria', 'infanzia', 'secondaria_primo_grado'];

/** Counts per atomic group (many small ones) and, for each respondent, a category per item. */
function population(regions: number, levels: number, items: ItemDef[]) {
  const groupKeys: { region: string | null; level: string | null }[] = [{ region: null, level: null }];
  for (const r of REGIONS.slice(0, regions))
    for (const l of LEVELS.slice(0, levels)) groupKeys.push({ region: r, level: l });
  return fc
    .tuple(
      fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 5, max: 12 })), {
        minLength: groupKeys.length,
        maxLength: groupKeys.length,
      }),
      fc.boolean(),
      fc.infiniteStream(fc.nat()),
    )
    .map(([counts, withUnknown, stream]) => {
      const it = stream[Symbol.iterator]();
      const out: RespondentCategories[] = [];
      groupKeys.forEach((g, i) => {
        const n = i === 0 ? (withUnknown ? Math.min(counts[i]!, 3) : 0) : counts[i]!;
        for (let k = 0; k < n; k++) {
          const categories: Record<string, string> = {};
          for (const item of items)
            categories[item.id] = item.categories[it.next().value % item.categories.length]!;
          out.push({ region: g.region, level: g.level, categories });
        }
      });
      return out;
    });
}

const SINGLE: ItemDef = { id: 'q1', categories: ['A', 'B', 'none'], published: ['A', 'B', 'none'] };
const OPTION_1: ItemDef = { id: 'q2:Laboratorio', categories: ['chosen', 'not'], published: ['chosen'] };
const OPTION_2: ItemDef = { id: 'q2:Palestra', categories: ['chosen', 'not'], published: ['chosen'] };

describe('views: no group of 1–4 respondents is shown or derivable', () => {
  it('any population over 3 regions × 3 levels (+ responses without a plesso): every allowed view combined', () => {
    fc.assert(
      fc.property(population(3, 3, []), (respondents) => {
        const results = suppressResults([], respondents, K);
        assertNoSmallGroup(respondents, [], results);
        for (const v of results.views.values())
          if (v.respondents !== null) expect(v.respondents === 0 || v.respondents >= K).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('cells: no count of 1–4 is shown or derivable, within a view or across views', () => {
  it('a single-choice question with "no answer" over 2 regions × 2 levels', () => {
    fc.assert(
      fc.property(population(2, 2, [SINGLE]), (respondents) => {
        const results = suppressResults([SINGLE], respondents, K);
        assertNoSmallGroup(respondents, [SINGLE], results);
      }),
      { numRuns: 150 },
    );
  });

  it('two options of a multiple-choice question together (chosen / not chosen) over 2 regions × 2 levels', () => {
    fc.assert(
      fc.property(population(2, 2, [OPTION_1, OPTION_2]), (respondents) => {
        const results = suppressResults([OPTION_1, OPTION_2], respondents, K);
        assertNoSmallGroup(respondents, [OPTION_1, OPTION_2], results);
      }),
      { numRuns: 40 },
    );
  });

  it('a scale question (values 1–5 and "no answer") over 2 regions × 1 level', () => {
    const scale: ItemDef = {
      id: 'q3',
      categories: ['1', '2', '3', '4', '5', 'none'],
      published: ['1', '2', '3', '4', '5', 'none'],
    };
    fc.assert(
      fc.property(population(2, 1, [scale]), (respondents) => {
        assertNoSmallGroup(respondents, [scale], suppressResults([scale], respondents, K));
      }),
      { numRuns: 60 },
    );
  });

  it("the stricter atom rule (used beyond the exact audit's sizes) is safe too", () => {
    fc.assert(
      fc.property(population(2, 2, [SINGLE]), (respondents) => {
        assertNoSmallGroup(
          respondents,
          [SINGLE],
          suppressResults([SINGLE], respondents, K, { exact: false }),
        );
      }),
      { numRuns: 80 },
    );
  });

  it('a single-choice question over 3 regions × 1 level (national minus regions)', () => {
    fc.assert(
      fc.property(population(3, 1, [SINGLE]), (respondents) => {
        assertNoSmallGroup(respondents, [SINGLE], suppressResults([SINGLE], respondents, K));
      }),
      { numRuns: 150 },
    );
  });
});

describe('worked examples', () => {
  const people = (
    region: string | null,
    level: string | null,
    n: number,
    cat = 'A',
  ): RespondentCategories[] => Array.from({ length: n }, () => ({ region, level, categories: { q1: cat } }));

  it('national minus a region: a region of 3 is refused and so is the next smallest region', () => {
    const respondents = [
      ...people('Lazio', 'primaria', 20),
      ...people('Lombardia', 'primaria', 7),
      ...people('Puglia', 'primaria', 3),
    ];
    const r = suppressResults([], respondents, K);
    expect(r.view(null, null).respondents).toBe(30);
    expect(r.view('Puglia', null).respondents).toBeNull();
    // Lazio + Lombardia shown would give Puglia = 30 − 20 − 7.
    expect(
      [r.view('Lazio', null).respondents, r.view('Lombardia', null).respondents].filter((x) => x === null),
    ).toHaveLength(1);
    assertNoSmallGroup(respondents, [], r);
  });

  it('a region minus its region × level: the cross of 2 is refused with a sibling, or the region itself', () => {
    const respondents = [
      ...people('Lazio', 'primaria', 12),
      ...people('Lazio', 'infanzia', 2),
      ...people('Lazio', 'secondaria_primo_grado', 9),
      ...people('Lombardia', 'primaria', 8),
    ];
    const r = suppressResults([], respondents, K);
    expect(r.view('Lazio', 'infanzia').respondents).toBeNull();
    expect(r.view(null, 'infanzia').respondents).toBeNull();
    assertNoSmallGroup(respondents, [], r);
  });

  it('within a view: one small option is protected with the next smallest, zeros too', () => {
    const respondents = [
      ...people('Lazio', 'primaria', 10, 'A'),
      ...people('Lazio', 'primaria', 3, 'B'),
      ...people('Lazio', 'primaria', 6, 'none'),
    ];
    const item: ItemDef = {
      id: 'q1',
      categories: ['A', 'B', 'C', 'none'],
      published: ['A', 'B', 'C', 'none'],
    };
    const r = suppressResults([item], respondents, K);
    const cells = r.view(null, null).cells.q1!;
    expect(cells.B).toBeNull();
    expect(cells.C).toBeNull();
    expect([cells.A, cells.none].filter((x) => x === null)).toHaveLength(1);
    assertNoSmallGroup(respondents, [item], r);
  });

  it('a survey with fewer than 5 respondents shows nothing; one nobody answered shows 0; an empty group reads as small', () => {
    const small = suppressResults([], people('Lazio', 'primaria', 4), K);
    expect(small.view(null, null).respondents).toBeNull();
    expect(suppressResults([], [], K).view(null, null).respondents).toBe(0);
    expect(small.view('Puglia', null).respondents).toBeNull();
    expect(small.view('Lazio', null).view.key).toBe(viewKey('Lazio', null));
  });
});

describe('the attacker itself', () => {
  it('finds the region that only a threshold on each view would leak (national − Lazio − Lombardia)', () => {
    const respondents: RespondentCategories[] = [
      ...Array.from({ length: 20 }, () => ({ region: 'Lazio', level: null, categories: {} })),
      ...Array.from({ length: 7 }, () => ({ region: 'Lombardia', level: null, categories: {} })),
      ...Array.from({ length: 3 }, () => ({ region: 'Puglia', level: null, categories: {} })),
    ];
    const naive: SuppressedResults = {
      views: new Map(
        [
          [null, 30],
          ['Lazio', 20],
          ['Lombardia', 7],
          ['Puglia', null],
        ].map(([region, n]) => [
          viewKey(region as string | null, null),
          {
            view: {
              key: viewKey(region as string | null, null),
              kind: region ? 'region' : 'national',
              region: region as string | null,
              level: null,
            },
            respondents: n as number | null,
            cells: {},
          },
        ]),
      ),
      view: () => {
        throw new Error('unused');
      },
    };
    const { rows, values } = attack(respondents, [], naive);
    expect(derivableCounts(rows, values).some((d) => d.count === 3)).toBe(true);
  });
});

describe('which suppressions leave the main thread', () => {
  it('counts the published cells, so a survey of few multiple-choice items with many combinations goes to the worker', () => {
    // As the national survey at scale 1: 99 groups, 4 items (one multiple choice), about 44 cells per group.
    const groups = Array.from({ length: 99 }, (_, i) => ({
      region: `R${i % 21}`,
      level: `L${i % 5}`,
      n: 700,
    }));
    const items: ItemDef[] = Array.from({ length: 4 }, (_, i) => ({
      id: `q${i}`,
      categories: ['A', 'B'],
      published: ['A', 'B'],
    }));
    const pairs = new Map(
      items.map((item, i) => [
        item.id,
        groups.flatMap((_, g) =>
          Array.from({ length: i === 3 ? 38 : 2 }, (_, c) => ({ g, c: `c${c}`, n: 3 })),
        ),
      ]),
    );
    expect(groups.length * items.length).toBeLessThanOrEqual(500);
    expect(suppressionSize(items, { groups, pairs })).toBe(99 * (2 + 2 + 2 + 38));
    // The earlier waves' cells count too.
    expect(suppressionSize(items, { groups, pairs }, [{ groups, pairs: [['q0', pairs.get('q0')!]] }])).toBe(
      99 * 44 + 99 * 2,
    );
  });
});
