import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../src/db/transaction.ts';
import {
  TRANSITION_METRICS,
  type Bucket,
  type EventCount,
  type Period,
} from '../../src/modules/progress/progress.repository.ts';

// The progress events grouped from the records themselves: the query `/api/progress` ran before the
// per-day rollup (decision 033, progress). The rollup must always give the same answer.
const startOf = (day: string) => sql`(${day}::date)::timestamp at time zone 'Europe/Rome'`;
const endOf = (day: string) => sql`((${day}::date + 1)::timestamp at time zone 'Europe/Rome')`;
const weekOf = (at: SQL) => sql`to_char(date_trunc('week', ${at} at time zone 'Europe/Rome'), 'YYYY-MM-DD')`;
const regionFilter = (column: SQL, region: string | undefined) =>
  region ? sql`and ${column} = ${region}` : sql``;

/**
 * Events per bucket and figure, from dated records only: adhesion transitions, the enrolment that
 * brought a participating plesso in, teacher profiles created, `insegnanti` reviews approved, visits
 * done (by report), survey responses (by submission). Per week
 * the events before the period are counted too (flag `before`), per region only the period's.
 */
export async function countEventsFromRecords(
  db: DbOrTx,
  period: Period,
  bucket: Bucket,
): Promise<EventCount[]> {
  const from = startOf(period.fromDay);
  const to = endOf(period.toDay);
  const lower = (at: SQL) => (bucket === 'week' ? sql`true` : sql`${at} >= ${from}`);
  const key = (at: SQL, region: SQL) => (bucket === 'week' ? weekOf(at) : sql`coalesce(${region}, '')`);
  const before = (at: SQL) => (bucket === 'week' ? sql`${at} < ${from}` : sql`false`);
  const targets = Object.keys(TRANSITION_METRICS);
  const result = (await db.execute(sql`
    select ${key(sql`t.at`, sql`i.region`)} as bucket, t.to_state as metric, ${before(sql`t.at`)} as before, count(*)::int as n
      from institute_adhesion_transitions t join institutes i on i.id = t.institute_id
      where t.to_state in (${sql.join(
        targets.map((t) => sql`${t}`),
        sql`, `,
      )}) and t.at < ${to} and ${lower(sql`t.at`)} ${regionFilter(sql`i.region`, period.region)}
      group by 1, 2, 3
    union all
    select ${key(sql`e.at`, sql`s.region`)}, 'participatingSites', ${before(sql`e.at`)}, count(*)::int
      from school_sites s
      join (select institute_id, min(at) as at from institute_adhesion_transitions where to_state = 'iscritto' group by institute_id) e on e.institute_id = s.institute_id
      where s.participating and e.at < ${to} and ${lower(sql`e.at`)} ${regionFilter(sql`s.region`, period.region)}
      group by 1, 2, 3
    union all
    select ${key(sql`tp.created_at`, sql`s.region`)}, 'teachersRegistered', ${before(sql`tp.created_at`)}, count(*)::int
      from teacher_profiles tp left join school_sites s on s.id = tp.school_site_id
      where tp.created_at < ${to} and ${lower(sql`tp.created_at`)} ${regionFilter(sql`s.region`, period.region)}
      group by 1, 2, 3
    union all
    select ${key(sql`r.decided_at`, sql`s.region`)}, 'teachersApproved', ${before(sql`r.decided_at`)}, count(*)::int
      from reviews r join teacher_profiles tp on tp.id = r.subject_id left join school_sites s on s.id = tp.school_site_id
      where r.type = 'insegnanti' and r.state = 'approvata' and r.decided_at < ${to} and ${lower(sql`r.decided_at`)} ${regionFilter(sql`s.region`, period.region)}
      group by 1, 2, 3
    union all
    select ${key(sql`coalesce(v.reported_at, v.scheduled_at)`, sql`s.region`)}, 'visitsDone', ${before(sql`coalesce(v.reported_at, v.scheduled_at)`)}, count(*)::int
      from visits v join school_sites s on s.id = v.school_site_id
      where v.state = 'svolta' and coalesce(v.reported_at, v.scheduled_at) < ${to} and ${lower(sql`coalesce(v.reported_at, v.scheduled_at)`)} ${regionFilter(sql`s.region`, period.region)}
      group by 1, 2, 3
    union all
    select ${key(sql`sr.submitted_at`, sql`s.region`)}, 'surveyResponses', ${before(sql`sr.submitted_at`)}, count(*)::int
      from survey_responses sr left join school_sites s on s.id = sr.school_site_id
      where sr.submitted_at < ${to} and ${lower(sql`sr.submitted_at`)} ${regionFilter(sql`s.region`, period.region)}
      group by 1, 2, 3`)) as unknown as {
    rows: { bucket: string; metric: string; before: boolean; n: number }[];
  };
  return result.rows.map((r) => ({
    bucket: r.bucket,
    metric: (TRANSITION_METRICS as Record<string, string>)[r.metric] ?? r.metric,
    before: r.before === true || (r.before as unknown) === 't',
    n: Number(r.n),
  }));
}
