import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultsResponseSchema, type ResultsResponse } from '@portale/shared/surveys';
import { buildTestApp, type TestApp, sqlRows } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { forgetComputedResults, storeClosedResults } from './results-computation.ts';

/**
 * Decision 058: a closed survey's results are computed in the background and stored; a visitor (even
 * of a process that just started) reads the stored figures while their stamp is current, never a
 * stale copy.
 */
let t: TestApp;
let staff: ApiClient;
const guest = () => new ApiClient(t, nextIp());

async function results(surveyId: number): Promise<ResultsResponse> {
  const res = await guest().get(`/api/results?survey=${surveyId}`);
  expect(res.statusCode, res.body).toBe(200);
  return ResultsResponseSchema.parse(res.json());
}

const snapshots = () =>
  sqlRows<{ survey_id: number; participant_group: string; stamp: string; respondents: number | null }>(
    t,
    sql`select survey_id::int as survey_id, participant_group, stamp,
      (select (v->1->>'respondents')::int from jsonb_array_elements(payload->'views') v where v->>0 = '*|*') as respondents
      from survey_result_snapshots order by survey_id, participant_group`,
  );

async function insertSurvey(slug: string, state: string): Promise<number> {
  const [row] = await sqlRows<{ id: number }>(
    t,
    sql`insert into surveys (slug, title, purpose, audience, participants, state, opens_on, closes_on, closed_at)
    values (${slug}, ${`Indagine ${slug}`}, 'Scopo di prova abbastanza lungo.', 'Insegnanti', 'codici', ${state}, '2026-01-10', '2026-03-10',
      ${state === 'chiusa' ? '2026-03-11T10:00:00Z' : null}) returning id::int as id`,
  );
  return Number(row!.id);
}

async function answer(surveyId: number, questionId: number, count: number) {
  const [site] = await sqlRows<{ id: number }>(
    t,
    sql`select id::int as id from school_sites where region = 'Lazio' and school_level = 'primaria' order by id limit 1`,
  );
  for (let i = 0; i < count; i++)
    await t.database.db.execute(
      sql`insert into survey_responses (survey_id, participant_group, school_site_id, answers)
        values (${surveyId}, 'codici', ${site!.id}, ${JSON.stringify({ [questionId]: ['A', 'B'][i % 2] })}::jsonb)`,
    );
}

let closedId: number;
let openId: number;
beforeAll(async () => {
  t = await buildTestApp({}, { registry: 'sample' });
  staff = new ApiClient(t, nextIp());
  expect((await staff.login('sylla@demo.test')).statusCode).toBe(200);
  closedId = await insertSurvey('chiusa-prima', 'chiusa');
  openId = await insertSurvey('aperta-poi-chiusa', 'aperta');
  for (const id of [closedId, openId]) {
    const [q] = await sqlRows<{ id: number }>(
      t,
      sql`insert into survey_questions (survey_id, position, type, label, required, options)
        values (${id}, 1, 'scelta_singola', 'Domanda', true, '["A","B"]'::jsonb) returning id::int as id`,
    );
    await answer(id, Number(q!.id), 12);
  }
});
afterAll(() => t.close());

describe('closed surveys’ results are computed once and stored (decision 058)', () => {
  it('the background run stores every closed survey’s results once; a second run computes nothing', async () => {
    expect(await storeClosedResults(t.app)).toBeGreaterThanOrEqual(1);
    const stored = await snapshots();
    expect(stored.find((s) => s.survey_id === closedId)).toMatchObject({
      participant_group: 'codici',
      respondents: 12,
    });
    expect(stored.some((s) => s.survey_id === openId)).toBe(false);
    expect(await storeClosedResults(t.app)).toBe(0);
  });

  it('a process that starts reads the stored figures while their stamp is current', async () => {
    // The stored copy is altered on purpose: only a read of it can answer 999.
    await t.database.db.execute(
      sql`update survey_result_snapshots set payload = jsonb_set(payload, '{views}',
        (select jsonb_agg(case when v->>0 = '*|*' then jsonb_set(v, '{1,respondents}', '999') else v end)
           from jsonb_array_elements(payload->'views') v))
        where survey_id = ${closedId}`,
    );
    forgetComputedResults(t.app);
    expect((await results(closedId)).respondents).toBe(999);
  });

  it('a change to the counted responses makes the stored figures stale: computed again, never served', async () => {
    const [q] = await sqlRows<{ id: number }>(
      t,
      sql`select id::int as id from survey_questions where survey_id = ${closedId}`,
    );
    const before = (await snapshots()).find((s) => s.survey_id === closedId)!;
    await answer(closedId, Number(q!.id), 1);
    forgetComputedResults(t.app);
    expect((await results(closedId)).respondents).toBe(13);
    const after = (await snapshots()).find((s) => s.survey_id === closedId)!;
    expect(after.stamp).not.toBe(before.stamp);
    expect(after.respondents).toBe(13);
  });

  it('staff closing a survey has its results computed in the background, before any visitor', async () => {
    const res = await staff.post(`/api/surveys/${openId}/transition`, { to: 'chiusa' });
    expect(res.statusCode, res.body).toBe(200);
    let stored: Awaited<ReturnType<typeof snapshots>> = [];
    for (let i = 0; i < 100 && !stored.some((s) => s.survey_id === openId); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      stored = await snapshots();
    }
    expect(stored.find((s) => s.survey_id === openId)).toMatchObject({ respondents: 12 });
  });
});
