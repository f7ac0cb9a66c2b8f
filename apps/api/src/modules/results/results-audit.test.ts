import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IncrementalElimination } from './results-audit-elimination.ts';
import { auditWithholdReference } from './results-audit-reference.ts';
import { auditWithhold, type AuditRow } from './results-audit.ts';
import { suppressResults, type ItemDef, type RespondentCategories } from './results-suppression.ts';

// The incremental audit must withhold exactly what the full elimination of every round withheld
// (results-audit-reference.ts): the same figures in the same order, so the same published JSON.

const same = (a: Set<number> | undefined, b: Set<number> | undefined) =>
  JSON.stringify(a && [...a]) === JSON.stringify(b && [...b]);

/**
 * Random audit tables shaped like the results': unknowns in groups, nested rows (a total of all, per
 * "region", per group, and per group × category), plus random extra sums; counts with many 1–4.
 */
const tables = fc
  .record({
    groups: fc.integer({ min: 2, max: 9 }),
    categories: fc.integer({ min: 1, max: 4 }),
    regions: fc.integer({ min: 1, max: 3 }),
    counts: fc.array(
      fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 5, max: 9 })),
      {
        minLength: 36,
        maxLength: 36,
      },
    ),
    extra: fc.array(fc.array(fc.nat(35), { minLength: 1, maxLength: 8 }), { maxLength: 6 }),
    minGroup: fc.integer({ min: 3, max: 5 }),
    weights: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 80, maxLength: 80 }),
  })
  .map(({ groups, categories, regions, counts, extra, minGroup, weights }) => {
    const width = groups * categories;
    const counted = counts.slice(0, width);
    const rows: AuditRow[] = [];
    const add = (cols: number[], withholdable: boolean) => {
      const set = [...new Set(cols.filter((c) => c < width))].sort((a, b) => a - b);
      if (set.length === 0) return;
      rows.push({
        cols: set,
        withholdable,
        weight: weights[rows.length % weights.length]!,
        size: set.reduce((s, c) => s + counted[c]!, 0),
      });
    };
    const col = (g: number, k: number) => g * categories + k;
    const all = [...Array(width).keys()];
    add(all, false);
    for (let k = 0; k < categories; k++)
      add(
        all.filter((c) => c % categories === k),
        true,
      );
    for (let r = 0; r < regions; r++) {
      const inRegion = (c: number) => Math.floor(c / categories) % regions === r;
      add(all.filter(inRegion), true);
      for (let k = 0; k < categories; k++)
        add(
          all.filter((c) => inRegion(c) && c % categories === k),
          true,
        );
    }
    for (let g = 0; g < groups; g++) {
      add(
        [...Array(categories).keys()].map((k) => col(g, k)),
        true,
      );
      for (let k = 0; k < categories; k++) add([col(g, k)], true);
    }
    for (const cols of extra) add(cols, true);
    return { counts: counted, rows, minGroup };
  });

describe('the incremental audit withholds what the full audit withheld', () => {
  it('random nested tables: the same figures in the same order', () => {
    let rounds = 0;
    fc.assert(
      fc.property(tables, ({ counts, rows, minGroup }) => {
        const expected = auditWithholdReference(counts, rows, minGroup);
        const actual = auditWithhold(counts, rows, minGroup);
        if (expected && expected.size > 0) rounds++;
        expect(same(actual, expected)).toBe(true);
      }),
      { numRuns: 400, seed: 40 },
    );
    // The tables must reach the withholding rounds, not only the first reduction.
    expect(rounds).toBeGreaterThan(100);
  });

  it('random populations through the suppression: every view and cell the same', () => {
    const items: ItemDef[] = [
      { id: 'q1', categories: ['A', 'B', 'C', 'none'], published: ['A', 'B', 'C', 'none'] },
      {
        id: 'q2',
        categories: ['1', '2', '3', '4', '5', 'none'],
        published: ['1', '2', '3', '4', '5', 'none'],
      },
    ];
    const regions = ['Lazio', 'Lombardia', 'Puglia', 'Sicilia'];
    const levels = ['primaria', 'infanzia', 'secondaria_primo_grado'];
    const population = fc
      .tuple(
        fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 5, max: 25 })), {
          minLength: 12,
          maxLength: 12,
        }),
        fc.infiniteStream(fc.nat()),
      )
      .map(([counts, stream]) => {
        const next = stream[Symbol.iterator]();
        const out: RespondentCategories[] = [];
        counts.forEach((n, i) => {
          for (let k = 0; k < n; k++)
            out.push({
              region: regions[i % 4]!,
              level: levels[Math.floor(i / 4)]!,
              categories: Object.fromEntries(
                items.map((it) => [it.id, it.categories[next.next().value % it.categories.length]!]),
              ),
            });
        });
        return out;
      });
    fc.assert(
      fc.property(population, (respondents) => {
        const json = (audit: typeof auditWithhold) =>
          JSON.stringify([...suppressResults(items, respondents, 5, { audit }).views]);
        expect(json(auditWithhold)).toBe(json(auditWithholdReference));
      }),
      { numRuns: 150, seed: 40 },
    );
  });
});

describe('the elimination resumed after removing rows equals a fresh one', () => {
  it('pivots, reduced rows and combinations, bit for bit', () => {
    let reused = 0;
    fc.assert(
      fc.property(
        tables,
        fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 5 }),
        ({ counts, rows }, picks, every) => {
          const cols = rows.map((r) => r.cols);
          const resumed = new IncrementalElimination(cols, counts.length, every, 0);
          let active = rows.map((_, i) => i);
          resumed.reduce(active);
          for (const pick of picks) {
            if (active.length <= 1) break;
            const gone = active[pick % active.length]!;
            active = active.filter((i) => i !== gone);
            resumed.reduce(active);
            const fresh = new IncrementalElimination(cols, counts.length);
            fresh.reduce(active);
            expect(resumed.pivots).toEqual(fresh.pivots);
            for (const p of fresh.pivots) expect(resumed.reducedRow(p)).toEqual(fresh.reducedRow(p));
            const some = new Set(fresh.pivots.filter((_, k) => k % 2 === 0));
            for (const id of active)
              expect(Object.is(resumed.combination(id, some), fresh.combination(id, some))).toBe(true);
          }
          reused += resumed.stats.reused;
        },
      ),
      { numRuns: 300, seed: 40 },
    );
    expect(reused).toBeGreaterThan(1000);
  });
});
