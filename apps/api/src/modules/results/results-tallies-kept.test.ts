// Decision 050: the results' tallies kept by the writes (migration 0036) against the tallies recounted
// from the responses (decision 033's SQL, `countResultTallies`), after every kind of write the
// triggers follow: responses inserted, updated (answers, hold, plesso, group, participant) and deleted,
// a participant's approval given and taken back, a profile or a user deleted, a plesso changing region
// or level or deleted, questions added, changed and removed, a survey deleted, a truncate. Each round
// makes random set-based writes (seeded, so a failure repeats) and compares, for every survey and group
// of respondents, the tallies the results read; and the table row for row with a rebuild. Deliberate
// faults in the triggers are caught by the same comparison.
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, sqlRows, type TestApp } from '../../../test/build-test-app.ts';
import { findQuestions } from '../surveys/surveys.repository.ts';
import { countResultTallies, resultTallies } from './results.repository.ts';
import { itemsInSql } from './results-items.ts';
import { seededSequence } from '../../lib/seeded-sequence.ts';

let t: TestApp;
let random: () => number;
const exec = (query: SQL) => t.database.db.execute(query);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const ids = async (query: SQL) => (await sqlRows<{ id: number }>(t, query)).map((r) => Number(r.id));

const QUESTIONS = [
  { type: 'scelta_singola', options: ['A', 'B', 'C'] },
  { type: 'scelta_multipla', options: ['X', 'Y', 'Z'] },
  { type: 'scala', options: [] as string[] },
  { type: 'testo_breve', options: [] as string[] },
];

/** The JSON of one response's answers to its survey's questions, odd values included. */
async function answersFor(surveyId: number): Promise<string> {
  const questions = await findQuestions(t.database.db, surveyId);
  const answers: Record<string, unknown> = {};
  for (const q of questions) {
    if (random() < 0.1) continue;
    if (q.type === 'scelta_singola') answers[q.id] = random() < 0.85 ? pick(q.options) : pick(['Z', 1, null]);
    else if (q.type === 'scelta_multipla')
      answers[q.id] = random() < 0.85 ? q.options.filter(() => random() < 0.4) : pick(['X', [1], {}]);
    else if (q.type === 'scala')
      answers[q.id] = random() < 0.85 ? 1 + Math.floor(random() * 5) : pick([0, 2.5, '3']);
    else answers[q.id] = 'testo';
  }
  return JSON.stringify(answers);
}

let surveys: number[] = [];
let sites: number[] = [];
let regions: string[] = [];
const LEVELS = ['infanzia', 'primaria', 'secondaria_primo_grado', 'secondaria_secondo_grado'];

async function newSurvey(slug: string): Promise<number> {
  const [row] = await sqlRows<{ id: number }>(
    t,
    sql`insert into surveys (slug, title, purpose, audience, state, opens_on, closes_on, closed_at)
        values (${slug}, ${slug}, 'Prova', 'Insegnanti', 'chiusa', '2026-01-01', '2026-02-01', '2026-02-01T10:00:00Z') returning id`,
  );
  const surveyId = Number(row!.id);
  for (const [i, q] of QUESTIONS.entries())
    await exec(sql`insert into survey_questions (survey_id, position, type, label, required, options)
      values (${surveyId}, ${i + 1}, ${q.type}, ${`Domanda ${i + 1}`}, false, ${JSON.stringify(q.options)}::jsonb)`);
  return surveyId;
}

/** Responses of a survey: anonymous or by participants who have not answered it yet, at a plesso or none. */
async function insertResponses(surveyId: number, count: number): Promise<void> {
  const free = await ids(sql`select tp.user_id as id from teacher_profiles tp
    where not exists (select 1 from survey_responses r where r.survey_id = ${surveyId} and r.user_id = tp.user_id)
    order by md5(tp.user_id::text || ${String(random())}) limit ${count}`);
  const values: SQL[] = [];
  for (let i = 0; i < count; i++) {
    const user = random() < 0.5 ? (free[i] ?? null) : null;
    const site = random() < 0.1 ? null : pick(sites);
    const group = random() < 0.3 ? 'codici' : 'insegnanti';
    const hold = random() < 0.1 ? pick(['sospesa', 'scartata']) : null;
    values.push(
      sql`(${surveyId}, ${site}, ${user}, ${group}, ${await answersFor(surveyId)}::jsonb, ${hold})`,
    );
  }
  await exec(sql`insert into survey_responses (survey_id, school_site_id, user_id, participant_group, answers, hold)
    values ${sql.join(values, sql`, `)}`);
}

/** Participants (users with a teacher profile), a third of them approved. */
async function newTeachers(count: number): Promise<void> {
  await exec(sql`with u as (
      insert into users (email, password_hash, first_name, last_name, created_at, updated_at)
      select 'tallies-' || gen_random_uuid() || '@example.test', 'x', 'Prova', 'Conteggi', now(), now()
      from generate_series(1, ${count}) returning id)
    insert into teacher_profiles (user_id, kind, school_site_id, review_state, created_at, updated_at)
    select id, 'insegnante', null, case when random() < 0.33 then 'approvata' else 'in_attesa' end, now(), now() from u`);
}

const someResponses = (n: number) => sql`(select id from survey_responses order by random() limit ${n})`;

/** The writes of one round, each a set-based statement (or a few), as the API and the registry make them. */
const writes: Array<[string, () => Promise<unknown>]> = [
  ['responses inserted', () => insertResponses(pick(surveys), 2 + Math.floor(random() * 6))],
  [
    'answers changed',
    async () => {
      const [id] = await ids(someResponses(1));
      const [row] = await sqlRows<{ survey_id: number }>(
        t,
        sql`select survey_id from survey_responses where id = ${id!}`,
      );
      await exec(
        sql`update survey_responses set answers = ${await answersFor(Number(row!.survey_id))}::jsonb where id = ${id!}`,
      );
      await exec(sql`update survey_responses set answers = answers - (select min(id)::text from survey_questions)
        where id in ${someResponses(3)}`);
    },
  ],
  [
    'answers held, discarded, counted again',
    async () => {
      await exec(
        sql`update survey_responses set hold = ${pick(['sospesa', 'scartata'])} where id in ${someResponses(2)}`,
      );
      await exec(
        sql`update survey_responses set hold = null where id in (select id from survey_responses where hold is not null order by random() limit 2)`,
      );
    },
  ],
  [
    'responses moved to another plesso, to none, to another group',
    async () => {
      await exec(
        sql`update survey_responses set school_site_id = ${pick(sites)} where id in ${someResponses(3)}`,
      );
      await exec(sql`update survey_responses set school_site_id = null where id in ${someResponses(1)}`);
      await exec(sql`update survey_responses set participant_group = case participant_group when 'codici' then 'insegnanti' else 'codici' end
        where id in ${someResponses(2)}`);
      await exec(
        sql`update survey_responses set user_id = null where id in (select id from survey_responses where user_id is not null order by random() limit 1)`,
      );
    },
  ],
  [
    'participants approved and no longer approved',
    async () => {
      const answered = sql`(select tp.id from teacher_profiles tp join survey_responses r on r.user_id = tp.user_id order by random() limit 3)`;
      await exec(sql`update teacher_profiles set review_state = 'approvata' where id in ${answered}`);
      await exec(
        sql`update teacher_profiles set review_state = ${pick(['in_attesa', 'respinta'])} where id in ${answered}`,
      );
      await exec(sql`update teacher_profiles set review_state = case review_state when 'approvata' then 'in_attesa' else 'approvata' end
        where id in ${answered}`);
    },
  ],
  [
    'participants registered, and a profile made for one who answered',
    async () => {
      await newTeachers(2);
      await exec(sql`insert into teacher_profiles (user_id, kind, review_state, created_at, updated_at)
        select distinct r.user_id, 'insegnante', 'approvata', now(), now() from survey_responses r
        where r.user_id is not null and not exists (select 1 from teacher_profiles tp where tp.user_id = r.user_id) limit 1`);
    },
  ],
  [
    'the first responses deleted',
    async () => {
      await exec(
        sql`delete from survey_responses where id in (select min(id) from survey_responses group by survey_id, school_site_id order by random() limit 2)`,
      );
      await exec(sql`delete from survey_responses where id in ${someResponses(2)}`);
    },
  ],
  [
    'plessi change region or level',
    async () => {
      await exec(
        sql`update school_sites set region = ${pick(regions)} where id in (select school_site_id from survey_responses order by random() limit 2)`,
      );
      await exec(
        sql`update school_sites set school_level = ${pick(LEVELS)} where id in (select school_site_id from survey_responses order by random() limit 1)`,
      );
    },
  ],
  [
    'questions added, changed, removed',
    async () => {
      const surveyId = pick(surveys);
      await exec(sql`insert into survey_questions (survey_id, position, type, label, options)
        values (${surveyId}, 9, ${pick(['scelta_singola', 'scala'])}, 'Aggiunta', '["A", "B"]'::jsonb)`);
      await exec(sql`update survey_questions set options = '["C", "A", "B"]'::jsonb
        where id in (select id from survey_questions where type in ('scelta_singola', 'scelta_multipla') order by random() limit 1)`);
      await exec(
        sql`delete from survey_questions where id in (select id from survey_questions where position = 9 order by random() limit 1)`,
      );
    },
  ],
];

/** The tallies the results read, per survey and group of respondents, as kept and as recounted. */
async function expectSameAsRecount(step: string): Promise<void> {
  const all = await ids(sql`select id from surveys order by id`);
  for (const surveyId of all) {
    const questions = (await findQuestions(t.database.db, surveyId)).filter(
      (q) => q.type === 'scelta_singola' || q.type === 'scelta_multipla' || q.type === 'scala',
    );
    for (const group of [undefined, 'insegnanti', 'codici'] as const) {
      const kept = await resultTallies(t.database.db, surveyId, itemsInSql(questions), group);
      const counted = await countResultTallies(t.database.db, surveyId, itemsInSql(questions), group);
      expect(
        { groups: kept.groups, pairs: [...kept.pairs] },
        `${step}: survey ${surveyId}, ${group ?? 'every group'}`,
      ).toEqual({ groups: counted.groups, pairs: [...counted.pairs] });
    }
  }
  // Row for row (every question, every group), against the rebuild from the responses.
  const rows = async () =>
    JSON.stringify(await sqlRows(t, sql`select * from survey_result_tallies order by 1, 2, 3, 4, 5, 6`));
  const before = await rows();
  await exec(sql`select result_tallies_rebuild_all()`);
  expect(before, `${step}: the table against its rebuild`).toBe(await rows());
}

beforeAll(async () => {
  t = await buildTestApp({}, { registry: 'sample' });
  random = seededSequence(20261129);
  regions = (
    await sqlRows<{ region: string }>(t, sql`select distinct region from school_sites order by region`)
  ).map((r) => r.region);
  sites = await ids(sql`select id from school_sites order by id limit 12`);
  await newTeachers(16);
  surveys = [await newSurvey('tallies-1'), await newSurvey('tallies-2')];
  for (const surveyId of surveys) await insertResponses(surveyId, 30);
}, 120_000);
afterAll(() => t.close());

describe('the results tallies kept by the writes equal a recount of the responses', () => {
  it('after every kind of write, round after round', async () => {
    await expectSameAsRecount('start');
    for (let round = 1; round <= 4; round += 1) {
      for (const [name, write] of writes) {
        await write();
        await expectSameAsRecount(`round ${round}, ${name}`);
      }
    }
  }, 240_000);

  it('when plessi, profiles, users and a survey are deleted with their cascades, and after a truncate', async () => {
    await exec(sql`insert into school_sites (ministry_code, institute_id, name, school_level, type_label, municipality_code, municipality_name, province, region)
      select 'TALLY' || s.id, s.institute_id, s.name, s.school_level, s.type_label, s.municipality_code, s.municipality_name, s.province, s.region
      from school_sites s order by s.id limit 2`);
    const copies = await ids(sql`select id from school_sites where ministry_code like 'TALLY%' order by id`);
    for (const site of copies)
      await exec(sql`update survey_responses set school_site_id = ${site} where id in ${someResponses(4)}`);
    await expectSameAsRecount('plessi copied');
    await exec(sql`delete from school_sites where id in (${copies[0]!}, ${copies[1]!})`);
    await expectSameAsRecount('plessi deleted');
    await exec(
      sql`delete from teacher_profiles where id in (select tp.id from teacher_profiles tp join survey_responses r on r.user_id = tp.user_id where tp.review_state = 'approvata' limit 1)`,
    );
    await expectSameAsRecount('an approved profile deleted');
    // The user's profile and responses both change in the foreign keys' actions of one statement, whose
    // triggers PostgreSQL runs only after all of them (migration 0039).
    for (const approved of [true, false]) {
      const participantOf = async () =>
        (
          await ids(sql`select r.user_id as id from survey_responses r
            join teacher_profiles tp on tp.user_id = r.user_id
            where r.hold is null and (tp.review_state = 'approvata') = ${approved} order by r.user_id limit 1`)
        )[0];
      let participant = await participantOf();
      if (participant === undefined) {
        // The random rounds draw with SQL's random(): they may have left no such participant. Make one
        // (these writes are kept by the triggers too).
        const [response] = await ids(sql`select r.id from survey_responses r
          join teacher_profiles tp on tp.user_id = r.user_id order by r.id limit 1`);
        await exec(sql`update survey_responses set hold = null where id = ${response!}`);
        await exec(sql`update teacher_profiles set review_state = ${approved ? 'approvata' : 'in_attesa'}
          where user_id = (select user_id from survey_responses where id = ${response!})`);
        await expectSameAsRecount(`a participant made (approved: ${approved})`);
        participant = await participantOf();
      }
      expect(participant, `a participant whose profile is approved: ${approved}`).toBeDefined();
      await exec(sql`delete from users where id = ${participant!}`);
      await expectSameAsRecount(`a participant deleted (approved: ${approved})`);
    }
    await exec(sql`delete from surveys where id = ${surveys[1]!}`);
    await expectSameAsRecount('a survey deleted');
    await exec(sql`truncate survey_responses cascade`);
    await expectSameAsRecount('responses truncated');
    expect(await sqlRows(t, sql`select * from survey_result_tallies`)).toEqual([]);
  }, 120_000);
});

describe('deliberate faults in the triggers are caught', () => {
  /** Replaces a function for the length of `run`, then puts it back and rebuilds the tallies. */
  async function withFault(name: string, from: string, to: string, run: () => Promise<void>) {
    const [row] = await sqlRows<{ def: string }>(t, sql`select pg_get_functiondef(${name}::regproc) as def`);
    const original = row!.def;
    expect(original, name).toContain(from);
    await exec(sql.raw(original.replace(from, to)));
    try {
      await run();
    } finally {
      await exec(sql.raw(original));
      await exec(sql`select result_tallies_rebuild_all()`);
    }
  }
  const caught = async (writes: Array<() => Promise<unknown>>) => {
    let failure: unknown;
    for (const write of writes) {
      await write();
      failure = await expectSameAsRecount('fault').then(
        () => undefined,
        (error: unknown) => error,
      );
      if (failure) break;
    }
    expect(failure, 'the fault went unnoticed').toBeDefined();
  };

  it('a key whose first response left keeps it', async () => {
    const surveyId = await newSurvey('tallies-first');
    await exec(sql`insert into survey_responses (survey_id, school_site_id, answers)
      select ${surveyId}, ${sites[0]!}, '{}'::jsonb from generate_series(1, 5)`);
    await withFault('result_tallies_apply', 'SET first_id = NULL', 'SET first_id = t.first_id', () =>
      caught([
        () =>
          exec(
            sql`delete from survey_responses where id = (select min(id) from survey_responses where survey_id = ${surveyId})`,
          ),
      ]),
    );
  });

  it('an approval taken back is not followed', async () => {
    const surveyId = await newSurvey('tallies-fault');
    await exec(sql`insert into survey_responses (survey_id, school_site_id, user_id, answers)
      select ${surveyId}, ${sites[0]!}, tp.user_id, '{}'::jsonb from teacher_profiles tp where tp.user_id is not null`);
    const participants = sql`(select user_id from survey_responses where survey_id = ${surveyId})`;
    await withFault('result_tallies_teachers', 'SELECT user_id, -1 FROM', 'SELECT user_id, 0 FROM', () =>
      caught([
        () =>
          exec(sql`update teacher_profiles set review_state = 'approvata' where user_id in ${participants}`),
        () =>
          exec(sql`update teacher_profiles set review_state = 'in_attesa' where user_id in ${participants}`),
      ]),
    );
  });

  it('a plesso changing region is not followed', async () => {
    await withFault(
      'result_tallies_sites',
      'm.from_region, m.from_level, -1',
      'm.from_region, m.from_level, 0',
      () =>
        caught([
          () =>
            exec(
              sql`update school_sites set region = ${'Molise'} where id in (select school_site_id from survey_responses where school_site_id is not null limit 1)`,
            ),
        ]),
    );
  });

  it('an answer of a scale read as a decimal', async () => {
    const surveyId = await newSurvey('tallies-scale');
    await exec(sql`insert into survey_responses (survey_id, school_site_id, answers)
      select ${surveyId}, ${sites[0]!}, '{}'::jsonb from generate_series(1, 3)`);
    const scale = sql`(select id::text from survey_questions where type = 'scala' and survey_id = ${surveyId})`;
    await withFault('survey_result_category', '::int::text', '::text', () =>
      caught([
        () =>
          exec(
            sql`update survey_responses set answers = jsonb_build_object(${scale}, 3.0) where survey_id = ${surveyId}`,
          ),
      ]),
    );
  });
});
