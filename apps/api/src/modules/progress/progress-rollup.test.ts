import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, sqlRows, type TestApp } from '../../../test/build-test-app.ts';
import { countEventsFromRecords } from '../../../test/support/progress-reference.ts';
import {
  countByState,
  countByStateKept,
  countEvents,
  type Bucket,
  type EventCount,
  type Period,
} from './progress.repository.ts';
import { seededSequence } from '../../lib/seeded-sequence.ts';

// The per-day rollup kept by the writes (migration 0027) against the records grouped directly (the
// query it replaced), after every kind of write the triggers follow: inserts, updates of each counted
// column, a plesso or an institute changing region, plessi and institutes deleted with their cascades,
// a truncate. Each round makes random set-based writes (seeded, so a failure repeats) and compares
// both groupings, with and without a region, over two periods.

let t: TestApp;
let random: () => number;
const exec = (query: SQL) => t.database.db.execute(query);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** An instant in 2026, often close to midnight in Rome (where the day and the week turn). */
function instant(): string {
  const day = 1 + Math.floor(random() * 360);
  const base = Date.UTC(2026, 0, 1) + day * 86_400_000;
  const offset = random() < 0.4 ? (22 + random() * 2.5) * 3_600_000 : random() * 86_400_000;
  return new Date(base + offset).toISOString();
}

const periods: Period[] = [
  { fromDay: '2026-06-01', toDay: '2026-12-31', region: undefined },
  { fromDay: '2026-03-29', toDay: '2026-10-25', region: 'Lazio' },
  { fromDay: '2026-01-01', toDay: '2026-12-31', region: 'Lombardia' },
];

const normalise = (rows: EventCount[]) =>
  Object.fromEntries(
    rows
      .filter((r) => r.n !== 0)
      .map((r) => [`${r.bucket}|${r.metric}|${r.before}`, r.n] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );

async function expectSameAsRecords(step: string): Promise<void> {
  for (const period of periods) {
    for (const bucket of ['week', 'region'] as Bucket[]) {
      const kept = normalise(await countEvents(t.database.db, period, bucket));
      const grouped = normalise(await countEventsFromRecords(t.database.db, period, bucket));
      expect(kept, `${step}: ${bucket} ${JSON.stringify(period)}`).toEqual(grouped);
    }
  }
}

const ids = async (query: SQL) => (await sqlRows<{ id: number }>(t, query)).map((r) => Number(r.id));
let regions: string[] = [];

/** The writes of one round: each a set-based statement, as the API and the registry import make them. */
const writes: Array<[string, () => Promise<unknown>]> = [
  [
    'new teachers',
    async () => {
      const sites = await ids(sql`select id from school_sites order by random() limit 3`);
      for (const site of [...sites, null]) {
        await exec(sql`with u as (
          insert into users (email, password_hash, first_name, last_name, created_at, updated_at)
          select 'rollup-' || gen_random_uuid() || '@example.test', 'x', 'Prova', 'Rollup', now(), now() from generate_series(1, 3) returning id)
        insert into teacher_profiles (user_id, kind, school_site_id, created_at, updated_at)
          select id, 'insegnante', ${site}, ${instant()}, now() from u`);
      }
    },
  ],
  [
    'teachers move plesso or date',
    async () => {
      const site = (await ids(sql`select id from school_sites order by random() limit 1`))[0]!;
      await exec(sql`update teacher_profiles set school_site_id = ${random() < 0.2 ? null : site}
      where id in (select id from teacher_profiles order by random() limit 4)`);
      await exec(
        sql`update teacher_profiles set created_at = ${instant()} where id in (select id from teacher_profiles order by random() limit 2)`,
      );
    },
  ],
  [
    'teachers approved, reopened, withdrawn',
    async () => {
      await exec(sql`insert into reviews (type, subject_id, state, submitted_at, decided_at)
      select 'insegnanti', id, 'approvata', ${instant()}, ${instant()} from teacher_profiles order by random() limit 4`);
      await exec(
        sql`update reviews set decided_at = ${instant()} where id in (select id from reviews where type = 'insegnanti' order by random() limit 2)`,
      );
      await exec(
        sql`update reviews set state = 'respinta' where id in (select id from reviews where type = 'insegnanti' and state = 'approvata' order by random() limit 1)`,
      );
      await exec(
        sql`delete from reviews where id in (select id from reviews where type = 'insegnanti' order by random() limit 1)`,
      );
    },
  ],
  [
    'institutes change state',
    async () => {
      const institutes = await ids(sql`select id from institutes order by random() limit 4`);
      for (const institute of institutes) {
        const state = pick([
          'iscritto',
          'iscritto',
          'adesione_firmata',
          'attivo',
          'ritirato',
          'da_correggere',
        ]);
        await exec(
          sql`insert into institute_adhesion_transitions (institute_id, from_state, to_state, at) values (${institute}, 'nessuna', ${state}, ${instant()})`,
        );
        await exec(
          sql`update school_sites set participating = true where id in (select id from school_sites where institute_id = ${institute} order by random() limit 2)`,
        );
      }
      // An institute enrolled again (after a withdrawal): its first enrolment may move earlier, or not.
      await exec(sql`insert into institute_adhesion_transitions (institute_id, from_state, to_state, at)
      select institute_id, 'ritirato', 'iscritto', ${instant()} from institute_adhesion_transitions where to_state = 'iscritto' order by random() limit 2`);
      await exec(
        sql`update institute_adhesion_transitions set at = ${instant()} where id in (select id from institute_adhesion_transitions order by random() limit 2)`,
      );
      await exec(
        sql`delete from institute_adhesion_transitions where id in (select id from institute_adhesion_transitions order by random() limit 1)`,
      );
    },
  ],
  [
    'plessi join, leave, change region',
    async () => {
      await exec(sql`update school_sites set participating = not participating where id in (
      select s.id from school_sites s join institute_adhesion_transitions t on t.institute_id = s.institute_id order by random() limit 3)`);
      await exec(sql`update school_sites set region = ${pick(regions)} where id in (
      select id from school_sites where id in (select school_site_id from teacher_profiles union select school_site_id from visits union select school_site_id from survey_responses)
        or institute_id in (select institute_id from institute_adhesion_transitions) order by random() limit 3)`);
      await exec(
        sql`update institutes set region = ${pick(regions)} where id in (select institute_id from institute_adhesion_transitions order by random() limit 2)`,
      );
    },
  ],
  [
    'visits done and undone',
    async () => {
      const detector = (await ids(sql`select id from users where email = 'rilevatore@demo.test'`))[0]!;
      await exec(sql`insert into visits (school_site_id, detector_user_id, scheduled_at, state, report, reported_at, created_at, updated_at)
      select id, ${detector}, ${instant()}, 'svolta', 'Resoconto', ${random() < 0.5 ? instant() : null}, now(), now() from school_sites order by random() limit 3`);
      await exec(
        sql`update visits set state = 'svolta', report = 'Resoconto', reported_at = ${instant()} where id in (select id from visits order by random() limit 2)`,
      );
      await exec(
        sql`update visits set state = 'pianificata' where id in (select id from visits where state = 'svolta' order by random() limit 1)`,
      );
      await exec(sql`delete from visits where id in (select id from visits order by random() limit 1)`);
    },
  ],
  [
    'survey responses',
    async () => {
      await exec(sql`insert into survey_responses (survey_id, school_site_id, answers, submitted_at)
      select (select id from surveys where slug = 'rollup-test'), id, '{}'::jsonb, ${instant()} from school_sites order by random() limit 3`);
      await exec(
        sql`insert into survey_responses (survey_id, school_site_id, answers, submitted_at) values ((select id from surveys where slug = 'rollup-test'), null, '{}'::jsonb, ${instant()})`,
      );
      await exec(
        sql`update survey_responses set submitted_at = ${instant()} where id in (select id from survey_responses order by random() limit 2)`,
      );
      await exec(
        sql`delete from survey_responses where id in (select id from survey_responses order by random() limit 1)`,
      );
    },
  ],
];

beforeAll(async () => {
  t = await buildTestApp({}, { registry: 'sample' });
  random = seededSequence(20261128);
  regions = (
    await sqlRows<{ region: string }>(t, sql`select distinct region from school_sites order by region`)
  ).map((r) => r.region);
  await exec(
    sql`insert into surveys (slug, title, purpose, audience, state, opens_on, closes_on) values ('rollup-test', 'Prova', 'Prova', 'Insegnanti', 'chiusa', '2026-01-01', '2026-12-31')`,
  );
}, 120_000);
afterAll(() => t.close());

describe('the progress rollup equals the records grouped', () => {
  it('after the migration and after every kind of write, round after round', async () => {
    await expectSameAsRecords('start');
    for (let round = 1; round <= 6; round += 1) {
      for (const [name, write] of writes) {
        await write();
        await expectSameAsRecords(`round ${round}, ${name}`);
      }
    }
  }, 120_000);

  it('when plessi and institutes are deleted, with everything their cascades take or detach', async () => {
    // New plessi (copies of existing ones) with teachers, visits, responses and a participation.
    await exec(sql`insert into school_sites (ministry_code, institute_id, name, school_level, type_label, municipality_code, municipality_name, province, region, participating)
      select 'ROLLUP' || s.id, s.institute_id, s.name, s.school_level, s.type_label, s.municipality_code, s.municipality_name, s.province, s.region, true
      from school_sites s where s.institute_id in (select institute_id from institute_adhesion_transitions where to_state = 'iscritto') order by s.id limit 4`);
    const copies = await ids(sql`select id from school_sites where ministry_code like 'ROLLUP%' order by id`);
    for (const site of copies) {
      await exec(
        sql`update teacher_profiles set school_site_id = ${site} where id in (select id from teacher_profiles order by random() limit 2)`,
      );
      await exec(
        sql`update visits set school_site_id = ${site}, state = 'svolta', report = 'Resoconto' where id in (select id from visits order by random() limit 1)`,
      );
      await exec(
        sql`update survey_responses set school_site_id = ${site} where id in (select id from survey_responses order by random() limit 1)`,
      );
    }
    await expectSameAsRecords('plessi copied');
    await exec(sql`delete from school_sites where id = ${copies[0]!}`);
    await expectSameAsRecords('one plesso deleted');
    await exec(sql`delete from school_sites where id in (${copies[1]!}, ${copies[2]!})`);
    await expectSameAsRecords('two plessi deleted in one statement');
    // An institute with transitions, participating plessi and their events, deleted with its cascade.
    const institute = (
      await ids(sql`select s.institute_id as id from school_sites s where s.id = ${copies[3]!}`)
    )[0]!;
    await exec(sql`delete from institutes where id = ${institute}`);
    await expectSameAsRecords('institute deleted');
  }, 60_000);

  it('after a truncate (rebuilt from the records)', async () => {
    await exec(sql`truncate visits cascade`);
    await expectSameAsRecords('visits truncated');
    expect(
      Number(
        (
          await sqlRows<{ n: number }>(
            t,
            sql`select coalesce(sum(n), 0) as n from progress_daily where metric = 'visitsDone'`,
          )
        )[0]!.n,
      ),
    ).toBe(0);
  });
});

describe('institutes per state, kept while their data stays the same (migration 0029)', () => {
  it('answers as counted after each kind of write that changes them', async () => {
    const day = '2026-12-31';
    const expectFresh = async (step: string) => {
      for (const region of [undefined, 'Lazio'])
        expect(await countByStateKept(t.database.db, day, region), step).toEqual(
          await countByState(t.database.db, day, region),
        );
    };
    await expectFresh('start');
    const kept = await countByStateKept(t.database.db, day, undefined);
    expect(await countByStateKept(t.database.db, day, undefined)).toBe(kept); // the same answer, not counted again
    const institute = (
      await ids(
        sql`select id from institutes where region = 'Lazio' and school_site_count > 0 order by id limit 1`,
      )
    )[0]!;
    const writes: Array<[string, SQL]> = [
      [
        'a transition',
        sql`insert into institute_adhesion_transitions (institute_id, from_state, to_state, at) values (${institute}, 'nessuna', 'iscritto', '2026-06-01T10:00:00Z')`,
      ],
      [
        'a transition moved',
        sql`update institute_adhesion_transitions set at = '2027-01-05T10:00:00Z' where institute_id = ${institute}`,
      ],
      ['a region', sql`update institutes set region = 'Umbria' where id = ${institute}`],
      [
        'a participation',
        sql`update school_sites set participating = not participating where institute_id = ${institute}`,
      ],
      [
        'a plesso moved',
        sql`update school_sites set institute_id = (select id from institutes where id <> ${institute} order by id limit 1) where id = (select id from school_sites where institute_id = ${institute} order by id limit 1)`,
      ],
      ['an adhesion state', sql`update institutes set adhesion_state = 'attivo' where id = ${institute}`],
    ];
    for (const [step, write] of writes) {
      await exec(write);
      await expectFresh(step);
    }
  });
});
