import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_SURVEY_SLUGS,
  ResultsResponseSchema,
  validateAnswers,
  type ResultsResponse,
} from '@portale/shared/surveys';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../test/http-client.ts';
import { seedDemoResponses } from './responses-seed.ts';
import { seedDemoSurveys } from '../modules/surveys/surveys-seed.ts';
import { findSurveyBySlug } from '../modules/surveys/surveys.repository.ts';

let t: TestApp;

async function results(query = ''): Promise<ResultsResponse> {
  const res = await new ApiClient(t, nextIp()).get(`/api/results${query ? `?${query}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return ResultsResponseSchema.parse(res.json());
}

beforeAll(async () => {
  // The e2e registry: Rome and Pavia only.
  t = await buildTestApp({}, { registry: 'sample' });
  await seedDemoSurveys(t.database.db, t.clock.now());
  await seedDemoResponses(t.database.db, t.clock.now());
}, 180_000);
afterAll(() => t.close());

describe('demo responses', () => {
  it('are seeded once, valid for the questions, in Lazio and Lombardia (sample registry), a few for the open survey', async () => {
    await seedDemoResponses(t.database.db, t.clock.now());
    const closed = (await findSurveyBySlug(t.database.db, DEMO_SURVEY_SLUGS.closed))!;
    const open = (await findSurveyBySlug(t.database.db, DEMO_SURVEY_SLUGS.open))!;
    const rows = (
      (await t.database.db.execute(
        sql`select r.survey_id::int as survey, r.answers, s.region, r.submitted_at as at from survey_responses r join school_sites s on s.id = r.school_site_id`,
      )) as unknown as {
        rows: { survey: number; answers: Record<string, unknown>; region: string; at: string }[];
      }
    ).rows;
    const ofClosed = rows.filter((r) => r.survey === closed.id);
    expect(ofClosed).toHaveLength(18 + 12 + 3 + 11 + 9);
    expect(new Set(ofClosed.map((r) => r.region))).toEqual(new Set(['Lazio', 'Lombardia']));
    expect(rows.filter((r) => r.survey === open.id)).toHaveLength(6);
    for (const r of rows) {
      const survey = r.survey === closed.id ? closed : open;
      expect(validateAnswers(survey.questions, r.answers).errors).toEqual({});
      expect(new Date(r.at).getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
    }
  });

  it('show the national and both regions, every national figure, and refuse Lazio × infanzia', async () => {
    const national = await results();
    expect(national.survey?.title).toBe('Indagine pilota 2025');
    expect(national.status).toBe('shown');
    expect(national.respondents).toBe(53);
    // Nationally only the school-level question hides rows (infanzia has 3 respondents, and one more row goes with it).
    for (const q of national.questions.slice(1))
      for (const r of q.rows) expect(r.count, `${q.label} ${r.label}`).not.toBeNull();
    expect(national.questions[0]!.protectedRows).toBe(2);
    expect((await results('region=Lazio')).status).toBe('shown');
    expect((await results('region=Lombardia')).status).toBe('shown');
    expect((await results('region=Lazio&schoolLevel=infanzia')).status).toBe('suppressed');
    expect((await results('schoolLevel=infanzia')).status).toBe('suppressed');
    const lazio = await results('region=Lazio');
    expect(lazio.questions.some((q) => q.protectedRows > 0)).toBe(true);
  });
});
