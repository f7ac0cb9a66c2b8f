import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** Queries of the shared rate-limit counters (`rate_limit_hits`, see lib/rate-counters.ts). */

export interface HitsRow {
  key: string;
  window_end: string | Date;
  hits: number;
}

/**
 * Adds `hits` to each key's window in one statement and returns the totals. A row of an earlier
 * window starts again from these hits; a late delta for an earlier window than the row's (an
 * instance whose clock lags) is dropped.
 */
export async function addHits(
  db: Db,
  batch: { key: string; windowEnd: number; hits: number }[],
): Promise<HitsRow[]> {
  const keys = batch.map((b) => b.key);
  const ends = batch.map((b) => new Date(b.windowEnd).toISOString());
  const hits = batch.map((b) => b.hits);
  const result = (await db.execute(sql`
    insert into rate_limit_hits as r (key, window_end, hits)
    select * from unnest(${sql.param(keys)}::text[], ${sql.param(ends)}::timestamptz[], ${sql.param(hits)}::int[])
    on conflict (key) do update set
      hits = case
        when excluded.window_end > r.window_end then excluded.hits
        when excluded.window_end = r.window_end then r.hits + excluded.hits
        else r.hits end,
      window_end = greatest(r.window_end, excluded.window_end)
    returning key, window_end, hits`)) as unknown as { rows: HitsRow[] };
  return result.rows;
}

/** Deletes the rows of windows that ended before `before`. */
export async function deleteEndedWindows(db: Db, before: Date): Promise<void> {
  await db.execute(sql`delete from rate_limit_hits where window_end < ${before.toISOString()}::timestamptz`);
}
