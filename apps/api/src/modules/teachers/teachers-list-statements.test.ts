// Decision 059: the teachers list keeps its statements by shape and asks the estimate beside the
// count. Every answer must stay what the list gave when it built its statements on every page and
// asked the estimate after the count (the reference below is that code, verbatim).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeacherListQuerySchema } from '@portale/shared/teachers';
import type { Db } from '../../db/client.ts';
import { institutes, schoolSites } from '../../db/schema/index.ts';
import { cappedCount, EXACT_COUNT_CAP, paginate, rawRows } from '../../lib/list.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { listTeachers, teacherListQuery, teacherMatches, toTeacherSummary } from './teachers.repository.ts';

let t: TestApp;
let staff: ApiClient;
/** A plesso the mass of teachers below chose, and its region and province. */
let site: { id: number; region: string; province: string };

/** The list as it was before decision 059: built on every page, the estimate after the count. */
function before(db: Db, raw: string) {
  const query = TeacherListQuerySchema.parse(Object.fromEntries(new URLSearchParams(raw)));
  return paginate(
    async (limit, offset) =>
      (await rawRows(db, teacherListQuery(db, query).limit(limit).offset(offset))).map(toTeacherSummary),
    () => cappedCount(db, teacherMatches(db, query), query.exactTotal),
    query.page,
    query.pageSize,
  );
}

const QUERIES = () => [
  '',
  'page=2',
  'page=90',
  'sort=-createdAt',
  'sort=email&page=3',
  'sort=-name&pageSize=50',
  'reviewState=in_attesa&sort=-createdAt',
  'kind=altro',
  'kind=educatore&reviewState=approvata',
  `region=${encodeURIComponent(site.region)}`,
  `region=${encodeURIComponent(site.region)}&page=4`,
  `province=${site.province}&sort=province`,
  `schoolSiteId=${site.id}`,
  'q=cognome1',
  'q=cognome1%20nome2',
  'q=massa3&page=2',
  'q=nessuno-cosi',
  'exactTotal=true',
  `exactTotal=true&region=${encodeURIComponent(site.region)}`,
];

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const [institute] = await db.select().from(institutes).limit(1);
  const values = {
    ministryCode: 'ZZEE99901A',
    name: 'Plesso della massa',
    province: institute!.province,
    region: institute!.region,
    municipalityName: institute!.municipalityName,
    instituteId: institute!.id,
    schoolLevel: 'primaria',
    typeLabel: 'Scuola primaria',
    municipalityCode: institute!.municipalityCode,
  } as const;
  const [mass, other] = await db
    .insert(schoolSites)
    .values([values, { ...values, ministryCode: 'ZZEE99902B', region: 'Altrove', province: 'ZZ' }])
    .returning({ id: schoolSites.id });
  site = { id: mass!.id, region: values.region, province: values.province };
  // More teachers than the exact count's cap: the list's total becomes an estimate (decision 033).
  await db.execute(sql`
    insert into users (email, first_name, last_name, password_hash)
    select 'massa' || g || '@esempio.it', 'Nome' || (g % 7), 'Cognome' || (g % 50), 'x'
    from generate_series(1, 1400) g`);
  await db.execute(sql`
    insert into teacher_profiles (user_id, kind, review_state, school_site_id)
    select u.id,
      (array['insegnante', 'educatore', 'altro'])[1 + u.id % 3],
      (array['in_attesa', 'approvata', 'da_correggere', 'respinta'])[1 + u.id % 4],
      case when u.id % 5 = 0 then null when u.id % 2 = 0 then ${site.id}::int
        else ${other!.id}::int end
    from users u where u.email like 'massa%'`);
  staff = new ApiClient(t, nextIp());
  expect((await staff.login('sylla@demo.test')).statusCode).toBe(200);
}, 120_000);
afterAll(() => t.close());

async function expectAsBefore(label: string) {
  for (const raw of QUERIES()) {
    const expected = await before(t.database.db, raw);
    // Twice: the second call of a shape past the cap asks its estimate beside the count.
    for (const round of [1, 2]) {
      const res = await staff.get(`/api/teachers${raw ? `?${raw}` : ''}`);
      expect(res.statusCode, `${label} ${raw} ${round}`).toBe(200);
      expect(res.json(), `${label} ${raw} ${round}`).toEqual(JSON.parse(JSON.stringify(expected)));
    }
  }
}

describe('the teachers list with its statements kept by shape (decision 059)', () => {
  it('answers every filter, sort and page exactly as when it built its statements on every page', async () => {
    const whole = await before(t.database.db, '');
    expect(whole.totalApproximate).toBe(true);
    expect(whole.total).toBeGreaterThan(EXACT_COUNT_CAP);
    await expectAsBefore('past the cap');
  });

  it('still counts exactly once a list that was past the cap no longer is', async () => {
    const wide = await listTeachers(t.database.db, TeacherListQuerySchema.parse({ kind: 'altro' }));
    await t.database.db.execute(sql`
      delete from teacher_profiles where user_id in (select id from users where email like 'massa%' and id % 3 <> 0)`);
    const narrow = await listTeachers(t.database.db, TeacherListQuerySchema.parse({ kind: 'altro' }));
    expect(narrow.totalApproximate).toBeUndefined();
    expect(narrow.total).toBeLessThan(wide.total);
    expect(narrow.total).toBe(
      Number(
        (
          (await t.database.db.execute(
            sql`select count(*)::int as n from teacher_profiles where kind = 'altro'`,
          )) as unknown as { rows: { n: number }[] }
        ).rows[0]!.n,
      ),
    );
    await expectAsBefore('under the cap');
  });
});
