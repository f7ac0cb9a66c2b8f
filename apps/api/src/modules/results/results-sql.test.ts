// Decision 033: the results are counted in SQL (results.repository.ts `resultTallies`) instead of loading
// every response into the API. Before the SQL replaced it, this test held it to the old computation on
// made-up surveys: the same tallies, in the same order, and the same suppressed results, view by view —
// with answers the categories must read exactly as `categoriesOf` does (unknown options, wrong types,
// duplicates, scale values as decimals or out of range, missing keys), held answers, participants
// pending or approved, responses without a plesso, and groups of every size around the minimum.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULTS_MIN_GROUP } from '@portale/shared/surveys';
import { buildTestApp, sqlRows, type TestApp } from '../../../test/build-test-app.ts';
import { findQuestions } from '../surveys/surveys.repository.ts';
import { responsesForResults, resultTallies } from './results.repository.ts';
import { suppressResults, suppressTallies, tallyRespondents } from './results-suppression.ts';
import { categoriesOf, itemsInSql, itemsOf } from './results-items.ts';
import { seededSequence } from '../../lib/seeded-sequence.ts';

let t: TestApp;
afterAll(() => t.close());

const pick = <T>(random: () => number, values: readonly T[]) => values[Math.floor(random() * values.length)]!;

/** The JSON text of one answer (text, so that `3.0` reaches the database as written). */
function answerText(random: () => number, type: string, options: string[]): string | undefined {
  const r = random();
  if (r < 0.08) return undefined;
  if (type === 'scelta_singola') {
    if (r < 0.8) return JSON.stringify(pick(random, options));
    return pick(random, [
      '"Z"',
      '1',
      'null',
      '["A"]',
      '{"A":1}',
      '""',
      JSON.stringify(`${options[0]} `),
      'true',
    ]);
  }
  if (type === 'scelta_multipla') {
    if (r < 0.8) return JSON.stringify(options.filter(() => random() < 0.4));
    return pick(random, [
      `[${JSON.stringify(options[0])}, ${JSON.stringify(options[0])}]`,
      `[[${JSON.stringify(options[1])}]]`,
      JSON.stringify(options[0]),
      '[1, 2]',
      '{}',
      'null',
      '["W"]',
    ]);
  }
  if (type === 'scala') {
    if (r < 0.8) return String(1 + Math.floor(random() * 5));
    return pick(random, ['3.0', '2.5', '0', '6', '"3"', '-1', '5e0', 'null', '[3]']);
  }
  return JSON.stringify(`testo ${r}`);
}

async function madeUpSurvey(slug: string, seed: number, size: number) {
  const random = seededSequence(seed);
  const [survey] = await sqlRows<{ id: number }>(
    t,
    sql`insert into surveys (slug, title, purpose, audience, state, opens_on, closes_on, closed_at)
        values (${slug}, ${slug}, 'Prova', 'Insegnanti', 'chiusa', '2026-01-01', '2026-02-01', '2026-02-01T10:00:00Z') returning id::int as id`,
  );
  const surveyId = Number(survey!.id);
  const questions: { type: string; required: boolean; options: string[] }[] = [
    { type: 'scelta_singola', required: true, options: ['A', 'B', 'C'] },
    { type: 'scelta_singola', required: false, options: ['Sì', 'No'] },
    { type: 'scelta_multipla', required: false, options: ['X', 'Y', 'Z'] },
    { type: 'scala', required: true, options: [] },
    { type: 'scala', required: false, options: [] },
    { type: 'testo_breve', required: false, options: [] },
  ];
  const ids: number[] = [];
  for (const [i, q] of questions.entries()) {
    const [row] = await sqlRows<{ id: number }>(
      t,
      sql`insert into survey_questions (survey_id, position, type, label, required, options)
          values (${surveyId}, ${i + 1}, ${q.type}, ${`Domanda ${i + 1}`}, ${q.required}, ${JSON.stringify(q.options)}::jsonb) returning id::int as id`,
    );
    ids.push(Number(row!.id));
  }
  // Plessi of a few regions and levels: some groups large, some around the minimum, some tiny.
  const sites = await sqlRows<{ id: number }>(
    t,
    sql`select id::int as id from school_sites order by region, school_level, id`,
  );
  const groupSites = [
    ...new Set([0, 1, 2, 3, 5, 8, 13, 21, 34, 55].map((i) => sites[Math.min(i * 7, sites.length - 1)]!.id)),
  ];
  const weights = groupSites.map((_, i) => 1 / (i + 1) ** 1.5);
  const total = weights.reduce((a, b) => a + b, 0);
  // Participants: one teacher approved and one pending answer too (only the approved one counts).
  const users = await sqlRows<{ id: number; state: string }>(
    t,
    sql`select tp.user_id::int as id, tp.review_state as state from teacher_profiles tp order by tp.id limit 6`,
  );
  const values: ReturnType<typeof sql>[] = [];
  for (let n = 0; n < size; n++) {
    const parts = questions
      .map((q, i) => [ids[i], answerText(random, q.type, q.options)] as const)
      .filter(([, a]) => a !== undefined)
      .map(([id, a]) => `${JSON.stringify(String(id))}: ${a}`);
    let x = random() * total;
    let g = 0;
    while (g < weights.length - 1 && (x -= weights[g]!) > 0) g++;
    const site = random() < 0.05 ? null : groupSites[g]!;
    const hold = random() < 0.04 ? pick(random, ['sospesa', 'scartata']) : null;
    const user = n < users.length ? users[n]!.id : null;
    values.push(sql`(${surveyId}, ${site}, ${user}, ${`{${parts.join(', ')}}`}::jsonb, ${hold})`);
  }
  await t.database.db.execute(
    sql`insert into survey_responses (survey_id, school_site_id, user_id, answers, hold) values ${sql.join(values, sql`, `)}`,
  );
  return surveyId;
}

beforeAll(async () => {
  t = await buildTestApp({}, { registry: 'sample' });
}, 120_000);

describe('results counted in SQL (decision 033) equal the results counted from every response', () => {
  for (const [seed, size] of [
    [1, 12],
    [2, 60],
    [3, 240],
    [4, 700],
  ] as const) {
    it(`made-up survey ${seed}: ${size} responses`, async () => {
      const surveyId = await madeUpSurvey(`sql-${seed}`, seed, size);
      const questions = (await findQuestions(t.database.db, surveyId)).filter(
        (q) => q.type === 'scelta_singola' || q.type === 'scelta_multipla' || q.type === 'scala',
      );
      const items = itemsOf(questions);
      const respondents = (await responsesForResults(t.database.db, surveyId)).map((r) =>
        categoriesOf(questions, r),
      );
      const inSql = await resultTallies(t.database.db, surveyId, itemsInSql(questions));
      // The same tallies, in the same order (groups and pairs by first response).
      const oneByOne = tallyRespondents(items, respondents);
      expect(inSql.groups).toEqual(oneByOne.groups);
      expect([...inSql.pairs.entries()]).toEqual([...oneByOne.pairs.entries()]);
      // And the same published results in every view.
      const before = suppressResults(items, respondents, RESULTS_MIN_GROUP);
      const after = suppressTallies(items, inSql, RESULTS_MIN_GROUP);
      expect([...after.views.entries()]).toEqual([...before.views.entries()]);
      expect(respondents.length).toBeGreaterThan(0);
    });
  }
});
