import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProgressResponseSchema, type ProgressResponse } from '@portale/shared/progress';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { buildTestApp, type TestApp, sqlRows } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';

// The test clock says 2026-11-21 (a Saturday, Europe/Rome = UTC+1).
let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const staff = () => as('sylla@demo.test');
const STAFF = new Set(['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test']);

async function progress(query: string): Promise<ProgressResponse> {
  const res = await staff().get(`/api/progress?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return ProgressResponseSchema.parse(res.json());
}

const row = (data: ProgressResponse, key: string) => data.rows.find((r) => r.key === key)!;
const diff = (after: ProgressResponse, before: ProgressResponse, key: string, metric: string) =>
  (row(after, key).values[metric] ?? 0) - (row(before, key).values[metric] ?? 0);

let instituteA: number;
let instituteB: number;
let instituteC: number;

let seeded: { id: number } | undefined;
/** The events the tests count (once): A enrolled 2 Nov, signed 10, active 12, withdrawn 20; B enrolled in March; C at 00:30 on 16 Nov in Rome; a teacher of A registered 3 Nov and approved 18 Nov. */
async function seedEvents(): Promise<{ id: number }> {
  if (seeded) return seeded;
  // A teacher of a plesso of A, registered on 3 November (demo teacher; a profile if none yet).
  await t.database.db
    .execute(sql`insert into teacher_profiles (user_id, kind, school_site_id, created_at, updated_at)
    select u.id, 'insegnante', (select id from school_sites where institute_id = ${instituteA} order by id limit 1), '2026-11-03T08:00:00Z', '2026-11-03T08:00:00Z'
    from users u where u.email = 'insegnante@demo.test' on conflict (user_id) do nothing`);
  const teacher = (
    await sqlRows<{ id: number }>(
      t,
      sql`select tp.id::int as id from teacher_profiles tp join users u on u.id = tp.user_id where u.email = 'insegnante@demo.test'`,
    )
  )[0]!;
  await t.database.db
    .execute(sql`insert into institute_adhesion_transitions (institute_id, from_state, to_state, at) values
    (${instituteA}, 'nessuna', 'iscritto', '2026-11-02T10:00:00Z'),
    (${instituteA}, 'iscritto', 'adesione_firmata', '2026-11-10T10:00:00Z'),
    (${instituteA}, 'adesione_firmata', 'attivo', '2026-11-12T10:00:00Z'),
    (${instituteA}, 'attivo', 'ritirato', '2026-11-20T10:00:00Z'),
    (${instituteB}, 'nessuna', 'iscritto', '2026-03-01T10:00:00Z'),
    (${instituteC}, 'nessuna', 'iscritto', '2026-11-15T23:30:00Z')`);
  await t.database.db.execute(
    sql`update school_sites set participating = true where institute_id in (${instituteA}, ${instituteB}, ${instituteC})`,
  );
  await t.database.db.execute(
    sql`update teacher_profiles set created_at = '2026-11-03T08:00:00Z' where id = ${teacher.id}`,
  );
  await t.database.db.execute(
    sql`insert into reviews (type, subject_id, state, submitted_at, decided_at) values ('insegnanti', ${teacher.id}, 'approvata', '2026-11-03T08:00:00Z', '2026-11-18T12:00:00Z')`,
  );
  // A visit to a plesso of A, reported on 5 November (planned for 4), and one still planned; a survey response of a plesso of A on 19 November.
  const siteA = sql`(select id from school_sites where institute_id = ${instituteA} order by id limit 1)`;
  await t.database.db
    .execute(sql`insert into visits (school_site_id, detector_user_id, scheduled_at, state, report, reported_at, review_state, created_at, updated_at)
    select ${siteA}, u.id, '2026-11-04T09:00:00Z', 'svolta', 'Resoconto', '2026-11-05T15:00:00Z', 'in_attesa', '2026-11-01T09:00:00Z', '2026-11-05T15:00:00Z' from users u where u.email = 'rilevatore@demo.test'`);
  await t.database.db
    .execute(sql`insert into visits (school_site_id, detector_user_id, scheduled_at, state, created_at, updated_at)
    select ${siteA}, u.id, '2026-11-06T09:00:00Z', 'pianificata', '2026-11-01T09:00:00Z', '2026-11-01T09:00:00Z' from users u where u.email = 'rilevatore@demo.test'`);
  await t.database.db.execute(
    sql`insert into surveys (slug, title, purpose, audience, state, opens_on, closes_on) values ('progress-test', 'Prova', 'Prova', 'Insegnanti', 'aperta', '2026-11-01', '2026-12-31')`,
  );
  await t.database.db
    .execute(sql`insert into survey_responses (survey_id, school_site_id, answers, submitted_at)
    values ((select id from surveys where slug = 'progress-test'), ${siteA}, '{}'::jsonb, '2026-11-19T10:00:00Z')`);
  seeded = teacher;
  return teacher;
}

beforeAll(async () => {
  t = await buildTestApp({}, { registry: 'sample' });
  for (const account of DEMO_ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    expect((await client.login(account.email)).statusCode, account.email).toBe(200);
    clients.set(account.email, client);
  }
  const lazio = await sqlRows<{ id: number }>(
    t,
    sql`select id::int as id from institutes where region = 'Lazio' and adhesion_state = 'nessuna' and school_site_count >= 2 and not exists (select 1 from institute_adhesion_transitions t where t.institute_id = institutes.id) order by id limit 2`,
  );
  const lombardia = await sqlRows<{ id: number }>(
    t,
    sql`select id::int as id from institutes where region = 'Lombardia' and adhesion_state = 'nessuna' and not exists (select 1 from institute_adhesion_transitions t where t.institute_id = institutes.id) order by id limit 1`,
  );
  [instituteA, instituteB, instituteC] = [
    Number(lazio[0]!.id),
    Number(lazio[1]!.id),
    Number(lombardia[0]!.id),
  ];
}, 120_000);
afterAll(() => t.close());

describe('who may read the progress', () => {
  for (const url of [
    '/api/progress',
    '/api/progress?groupBy=region',
    '/api/progress/export?format=csv&groupBy=state',
  ]) {
    it(`${url}: staff 200, guest 401, every other account 403`, async () => {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      for (const account of DEMO_ACCOUNTS) {
        const res = await as(account.email).get(url);
        expect(res.statusCode, account.email).toBe(STAFF.has(account.email) ? 200 : 403);
      }
    });
  }
});

describe('GET /api/progress', () => {
  it('defaults to the 26 weeks up to today, per week, and says how the figures are dated', async () => {
    const data = await progress('');
    expect(data.groupBy).toBe('week');
    expect(data.to).toBe('2026-11-21');
    expect(data.from).toBe('2026-05-23');
    expect(data.rows[0]!.key).toBe('2026-05-18');
    expect(data.rows.at(-1)!.key).toBe('2026-11-16');
    expect(
      data.rows.every(
        (r, i) => i === 0 || Date.parse(r.key) - Date.parse(data.rows[i - 1]!.key) === 7 * 86_400_000,
      ),
    ).toBe(true);
    expect(data.notes.join(' ')).toMatch(/visite svolte.*risposte ai questionari/);
    expect(data.columns.map((c) => c.key)).toEqual(expect.arrayContaining(['visitsDone', 'surveyResponses']));
  });

  it('counts the dated events of each week (Europe/Rome weeks), with running totals from before the period', async () => {
    const query = 'from=2026-11-01&to=2026-11-21';
    const before = await progress(query);
    await seedEvents();
    const after = await progress(query);
    const [sitesA] = await sqlRows<{ n: number }>(
      t,
      sql`select count(*)::int as n from school_sites where institute_id = ${instituteA}`,
    );
    const [sitesB] = await sqlRows<{ n: number }>(
      t,
      sql`select count(*)::int as n from school_sites where institute_id = ${instituteB}`,
    );
    const [sitesC] = await sqlRows<{ n: number }>(
      t,
      sql`select count(*)::int as n from school_sites where institute_id = ${instituteC}`,
    );

    expect(diff(after, before, '2026-11-02', 'institutesEnrolled')).toBe(1);
    expect(diff(after, before, '2026-11-09', 'institutesSigned')).toBe(1);
    expect(diff(after, before, '2026-11-09', 'institutesActive')).toBe(1);
    expect(diff(after, before, '2026-11-16', 'institutesWithdrawn')).toBe(1);
    // 23:30 UTC on Sunday 15 is 00:30 on Monday 16 in Rome: the next week.
    expect(diff(after, before, '2026-11-16', 'institutesEnrolled')).toBe(1);
    expect(diff(after, before, '2026-11-09', 'institutesEnrolled')).toBe(0);
    expect(diff(after, before, '2026-11-02', 'participatingSites')).toBe(Number(sitesA!.n));
    expect(diff(after, before, '2026-11-16', 'participatingSites')).toBe(Number(sitesC!.n));
    expect(diff(after, before, '2026-11-02', 'teachersRegistered')).toBe(1);
    expect(diff(after, before, '2026-11-16', 'teachersApproved')).toBe(1);
    // The visit counts in the week of its report, the planned one not at all; the response in its week.
    expect(diff(after, before, '2026-11-02', 'visitsDone')).toBe(1);
    expect(
      after.rows.reduce((sum, r) => sum + (r.values.visitsDone ?? 0), 0) -
        before.rows.reduce((sum, r) => sum + (r.values.visitsDone ?? 0), 0),
    ).toBe(1);
    expect(diff(after, before, '2026-11-16', 'surveyResponses')).toBe(1);
    // B enrolled in March: before the period, in the running totals from the first week on.
    const firstBefore = before.rows[0]!.cumulative!;
    const firstAfter = after.rows[0]!.cumulative!;
    expect(firstAfter.institutesEnrolled! - firstBefore.institutesEnrolled!).toBe(1);
    expect(firstAfter.participatingSites! - firstBefore.participatingSites!).toBe(Number(sitesB!.n));
    // Running totals end at every event up to the period's end, as SQL counts them.
    const [enrolled] = await sqlRows<{ n: number }>(
      t,
      sql`select count(*)::int as n from institute_adhesion_transitions where to_state = 'iscritto' and at < '2026-11-21T23:00:00Z'`,
    );
    expect(after.rows.at(-1)!.cumulative!.institutesEnrolled).toBe(Number(enrolled!.n));
    const [teachers] = await sqlRows<{ n: number }>(
      t,
      sql`select count(*)::int as n from teacher_profiles where created_at < '2026-11-21T23:00:00Z'`,
    );
    expect(after.rows.at(-1)!.cumulative!.teachersRegistered).toBe(Number(teachers!.n));
    expect(after.totals.institutesEnrolled).toBe(
      after.rows.reduce((sum, r) => sum + (r.values.institutesEnrolled ?? 0), 0),
    );
  });

  it('per region: the period’s events of each region equal SQL', async () => {
    await seedEvents();
    const data = await progress('groupBy=region&from=2026-11-01&to=2026-11-21');
    expect(data.rows.map((r) => r.key).slice(0, 20)).toHaveLength(20);
    const byRegion = await sqlRows<{ region: string; n: number }>(
      t,
      sql`select i.region, count(*)::int as n from institute_adhesion_transitions t join institutes i on i.id = t.institute_id
      where t.to_state = 'iscritto' and t.at >= '2026-10-31T23:00:00Z' and t.at < '2026-11-21T23:00:00Z' group by i.region`,
    );
    for (const r of data.rows.filter((x) => x.key)) {
      expect(r.values.institutesEnrolled, r.key).toBe(
        Number(byRegion.find((b) => b.region === r.key)?.n ?? 0),
      );
    }
    expect(row(data, 'Lazio').values.institutesWithdrawn).toBeGreaterThanOrEqual(1);
    const lazio = await progress('groupBy=region&region=Lazio&from=2026-11-01&to=2026-11-21');
    expect(lazio.rows.map((r) => r.key)).toEqual(['Lazio']);
    expect(row(lazio, 'Lazio').values).toEqual(row(data, 'Lazio').values);
  });

  it('per state: institutes in each state at the period’s end, from the transitions', async () => {
    await seedEvents();
    const now = await progress('groupBy=state&to=2026-11-21');
    const [institutes] = await sqlRows<{ n: number }>(t, sql`select count(*)::int as n from institutes`);
    const [sites] = await sqlRows<{ n: number }>(t, sql`select count(*)::int as n from school_sites`);
    expect(now.totals.institutes).toBe(Number(institutes!.n));
    expect(now.totals.schoolSites).toBe(Number(sites!.n));
    // An independent count: each institute's state at the end of a day (Europe/Rome) from its history.
    const institutesNow = await sqlRows<{ id: number; region: string; state: string }>(
      t,
      sql`select id::int as id, region, adhesion_state as state from institutes`,
    );
    const history = await sqlRows<{
      institute_id: number;
      from_state: string | null;
      to_state: string;
      at: string;
    }>(
      t,
      sql`select institute_id::int as institute_id, from_state, to_state, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at from institute_adhesion_transitions order by at, id`,
    );
    const stateAt = (id: number, current: string, end: string) => {
      const own = history.filter((h) => Number(h.institute_id) === id);
      const before = own.filter((h) => h.at < end);
      if (before.length) return before.at(-1)!.to_state;
      return own.length ? (own[0]!.from_state ?? 'nessuna') : current;
    };
    const ENDS: Record<string, string> = {
      '2026-11-21': '2026-11-21T23:00:00Z',
      '2026-11-11': '2026-11-11T23:00:00Z',
      '2026-10-01': '2026-10-01T22:00:00Z',
    };
    const a = institutesNow.find((i) => i.id === instituteA)!;
    expect(
      ['2026-10-01', '2026-11-11', '2026-11-21'].map((day) => stateAt(a.id, a.state, ENDS[day]!)),
    ).toEqual(['nessuna', 'adesione_firmata', 'ritirato']);
    const c = institutesNow.find((i) => i.id === instituteC)!;
    expect(['2026-11-11', '2026-11-21'].map((day) => stateAt(c.id, c.state, ENDS[day]!))).toEqual([
      'nessuna',
      'iscritto',
    ]);
    for (const region of ['Lazio', 'Lombardia']) {
      for (const day of Object.keys(ENDS)) {
        const data = await progress(`groupBy=state&to=${day}&region=${region}`);
        const expected: Record<string, number> = {};
        for (const i of institutesNow.filter((x) => x.region === region)) {
          const state = stateAt(i.id, i.state, ENDS[day]!);
          expected[state] = (expected[state] ?? 0) + 1;
        }
        for (const r of data.rows)
          expect(r.values.institutes, `${region} ${day} ${r.key}`).toBe(expected[r.key] ?? 0);
      }
    }
  });

  it('refuses bad input with 422 and an Italian message per field', async () => {
    const cases: [string, string, RegExp][] = [
      ['groupBy=month', 'groupBy', /Raggruppamento non valido/],
      ['from=2026-13-01', 'from', /Data non valida/],
      ['to=21/11/2026', 'to', /AAAA-MM-GG/],
      ['from=2026-11-10&to=2026-11-01', 'to', /deve seguire/],
      ['from=2020-01-01&to=2026-11-01', 'from', /al massimo tre anni/],
      ['region=Atlantide', 'region', /Valore non valido per «Regione»/],
    ];
    for (const [query, field, message] of cases) {
      const res = await staff().get(`/api/progress?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json<{ errors: Record<string, string[]> }>().errors[field]?.[0], query).toMatch(message);
    }
    expect((await staff().get('/api/progress?visits=true')).statusCode).toBe(400);
    expect((await staff().get('/api/progress/export?format=pdf')).statusCode).toBe(422);
  });
});

describe('GET /api/progress/export', () => {
  it('exports the figures shown, as CSV and XLSX', async () => {
    const data = await progress('from=2026-11-01&to=2026-11-21');
    const csv = await staff().get('/api/progress/export?from=2026-11-01&to=2026-11-21&format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/avanzamento-settimane-2026-11-21\.csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^Settimana \(lunedì\);Istituti iscritti;/);
    expect(lines).toHaveLength(data.rows.length + 1);
    // A week is a real day in the export (dd/mm/yyyy, as every exported date).
    const week = lines.find((l) => l.startsWith('02/11/2026;'))!.split(';');
    expect(Number(week[1])).toBe(row(data, '2026-11-02').values.institutesEnrolled);

    const xlsx = await staff().get('/api/progress/export?groupBy=region&format=xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toMatch(/spreadsheetml/);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
