// Decision 033: a list's total is exact up to EXACT_COUNT_CAP matching rows (or when asked), past it
// the planner's estimate, flagged approximate, and never below the cap.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cappedCount, EXACT_COUNT_CAP, paginate, shapedCappedCount, type Bind } from '../src/lib/list.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
}, 60_000);
afterAll(() => t.close());

const series = (n: number) => sql`select g from generate_series(1, ${sql.raw(String(n))}) g`;

describe('cappedCount', () => {
  it('is exact up to the cap, the cap included', async () => {
    expect(await cappedCount(t.database.db, series(0))).toEqual({ total: 0, approximate: false });
    expect(await cappedCount(t.database.db, series(37))).toEqual({ total: 37, approximate: false });
    expect(await cappedCount(t.database.db, series(EXACT_COUNT_CAP))).toEqual({
      total: EXACT_COUNT_CAP,
      approximate: false,
    });
  });

  it('past the cap is the estimate, flagged, never below the cap + 1; exact when asked', async () => {
    const past = await cappedCount(t.database.db, series(EXACT_COUNT_CAP + 1));
    expect(past.approximate).toBe(true);
    expect(past.total).toBeGreaterThan(EXACT_COUNT_CAP);
    const large = await cappedCount(t.database.db, series(50_000));
    expect(large).toEqual({ total: 50_000, approximate: true });
    expect(await cappedCount(t.database.db, series(50_000), true)).toEqual({
      total: 50_000,
      approximate: false,
    });
  });

  it('a page says totalApproximate only when its total is an estimate', async () => {
    const rows = () => Promise.resolve([]);
    expect(await paginate(rows, () => Promise.resolve({ total: 5, approximate: false }), 1, 25)).toEqual({
      items: [],
      total: 5,
      page: 1,
      pageSize: 25,
    });
    expect(await paginate(rows, () => Promise.resolve({ total: 5000, approximate: true }), 1, 25)).toEqual({
      items: [],
      total: 5000,
      totalApproximate: true,
      page: 1,
      pageSize: 25,
    });
    expect(await paginate(rows, () => Promise.resolve(7), 1, 25)).toEqual({
      items: [],
      total: 7,
      page: 1,
      pageSize: 25,
    });
  });
});

/** The same rows, their size bound (one shape for every size). */
const boundSeries = (n: number) => (bind: Bind) => sql`select g from generate_series(1, ${bind(n)}::int) g`;

describe('shapedCappedCount (decision 059)', () => {
  it('gives what cappedCount gives, whatever the sizes that came before in the same shape', async () => {
    const db = t.database.db;
    // Past the cap, under it, past it again, at the cap: the shape's estimate is asked beside the count
    // once a count has passed the cap, and is not used when the count comes back exact.
    for (const n of [50_000, 37, 0, EXACT_COUNT_CAP + 1, 20_000, EXACT_COUNT_CAP, 3, 50_000, 50_000]) {
      const expected = await cappedCount(db, series(n));
      expect(await shapedCappedCount(db, 'test-series', boundSeries(n)), String(n)).toEqual(expected);
      expect(await shapedCappedCount(db, 'test-series', boundSeries(n), true), String(n)).toEqual({
        total: n,
        approximate: false,
      });
    }
    expect(await shapedCappedCount(db, 'test-series', boundSeries(50_000))).toEqual({
      total: 50_000,
      approximate: true,
    });
  });
});
