import { sql, type SQL } from 'drizzle-orm';
import { ADHESION_STATES } from '@portale/shared/registry';
import type { DbOrTx } from '../../db/transaction.ts';
import { dataVersion } from '../../lib/data-version.repository.ts';
import { rawRows } from '../../lib/list.ts';

/** Transition target → the figure it counts. */
export const TRANSITION_METRICS = {
  iscritto: 'institutesEnrolled',
  adesione_firmata: 'institutesSigned',
  attivo: 'institutesActive',
  ritirato: 'institutesWithdrawn',
} as const;

export interface Period {
  /** First instant of the period (its first day at 00:00 in Europe/Rome). */
  fromDay: string;
  /** Last day of the period (included). */
  toDay: string;
  region: string | undefined;
}

/** The bucket of an event: its week (Monday, Europe/Rome) or the region it belongs to. */
export type Bucket = 'week' | 'region';

export interface EventCount {
  bucket: string;
  metric: string;
  /** true: before the period (per week, the starting point of the running totals). */
  before: boolean;
  n: number;
}

const endOf = (day: string) => sql`((${day}::date + 1)::timestamp at time zone 'Europe/Rome')`;
const regionFilter = (column: SQL, region: string | undefined) =>
  region ? sql`and ${column} = ${region}` : sql``;

/**
 * Events per bucket and figure, from dated records only: adhesion transitions, the enrolment that
 * brought a participating plesso in, teacher profiles created, `insegnanti` reviews approved, visits
 * done (by report), survey responses (by submission). Per week the events before the period are
 * counted too (flag `before`), per region only the period's.
 *
 * They are read from `progress_daily` (decision 033, progress), the per-day rollup the writes keep:
 * a few thousand rows a school year instead of every event. The rollup equals grouping the records
 * themselves (`countEventsFromRecords` in the tests, the query this replaced); days are Europe/Rome's.
 */
export async function countEvents(db: DbOrTx, period: Period, bucket: Bucket): Promise<EventCount[]> {
  const inRegion = regionFilter(sql`region`, period.region);
  // A named statement (rawRows): parsed once per connection, not on every call (decision 060).
  const rows = (await rawRows(
    db,
    bucket === 'week'
      ? // Days first (regions summed), then weeks: the week's label is computed once per day, not per row.
        sql`select to_char(date_trunc('week', day::timestamp), 'YYYY-MM-DD') as bucket, metric, day < ${period.fromDay}::date as before, sum(n)::int as n
          from (select day, metric, sum(n) as n from progress_daily where day <= ${period.toDay}::date ${inRegion} group by day, metric) days
          group by 1, 2, 3 having sum(n) <> 0`
      : sql`select region as bucket, metric, false as before, sum(n)::int as n
          from progress_daily where day >= ${period.fromDay}::date and day <= ${period.toDay}::date ${inRegion}
          group by 1, 2 having sum(n) <> 0`,
  )) as { bucket: string; metric: string; before: boolean; n: number }[];
  return rows.map((r) => ({
    bucket: r.bucket,
    metric: (TRANSITION_METRICS as Record<string, string>)[r.metric] ?? r.metric,
    before: r.before === true || (r.before as unknown) === 't',
    n: Number(r.n),
  }));
}

export interface StateCount {
  state: (typeof ADHESION_STATES)[number];
  institutes: number;
  schoolSites: number;
  participatingSites: number;
}

/**
 * Institutes per adhesion state at the end of `toDay`, from the transitions: the last one by then;
 * an institute whose history starts later was in its first transition's starting state; one with no
 * history at all is in its present state.
 */
export async function countByState(
  db: DbOrTx,
  toDay: string,
  region: string | undefined,
): Promise<StateCount[]> {
  const to = endOf(toDay);
  const rows = (await rawRows(
    db,
    sql`
    with last_before as (
      select distinct on (institute_id) institute_id, to_state from institute_adhesion_transitions
      where at < ${to} order by institute_id, at desc, id desc
    ), first_after as (
      select distinct on (institute_id) institute_id, coalesce(from_state, 'nessuna') as from_state from institute_adhesion_transitions
      where at >= ${to} order by institute_id, at, id
    ), state_then as (
      select i.id, coalesce(b.to_state, a.from_state, i.adhesion_state) as state
      from institutes i left join last_before b on b.institute_id = i.id left join first_after a on a.institute_id = i.id
      where true ${regionFilter(sql`i.region`, region)}
    ), sites as (
      select institute_id, count(*)::int as n, (count(*) filter (where participating))::int as p from school_sites group by institute_id
    )
    select st.state, count(*)::int as institutes, coalesce(sum(sites.n), 0)::int as school_sites, coalesce(sum(sites.p), 0)::int as participating
    from state_then st left join sites on sites.institute_id = st.id
    group by st.state`,
  )) as { state: string; institutes: number; school_sites: number; participating: number }[];
  const byState = new Map(rows.map((r) => [r.state, r]));
  return ADHESION_STATES.map((state) => {
    const row = byState.get(state);
    return {
      state,
      institutes: Number(row?.institutes ?? 0),
      schoolSites: Number(row?.school_sites ?? 0),
      participatingSites: Number(row?.participating ?? 0),
    };
  });
}

/** The last answers of `countByState` per database, date and region, with the data version they were read at. */
const statesRead = new WeakMap<object, Map<string, { version: string; counts: Promise<StateCount[]> }>>();
const STATES_KEPT = 64;

/**
 * `countByState`, kept while the data it is counted from stays the same (topic `adhesion-states`,
 * migration 0029: transitions, institutes' state and region, plessi): the count groups every plesso
 * of the registry, 170–240 ms at 10 clients on the national volume, and changes only when an
 * institute or a plesso does. The version is read before the count, so a write in between makes the
 * next call count again.
 */
export async function countByStateKept(
  db: DbOrTx,
  toDay: string,
  region: string | undefined,
): Promise<StateCount[]> {
  const version = await dataVersion(db, 'adhesion-states');
  let kept = statesRead.get(db);
  if (!kept) statesRead.set(db, (kept = new Map()));
  const key = `${toDay}|${region ?? ''}`;
  const hit = kept.get(key);
  if (hit && hit.version === version) return hit.counts;
  const counts = countByState(db, toDay, region);
  counts.catch(() => kept.delete(key));
  kept.delete(key);
  kept.set(key, { version, counts });
  if (kept.size > STATES_KEPT) kept.delete(kept.keys().next().value!);
  return counts;
}
