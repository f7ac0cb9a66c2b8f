import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SURVEY_PARTICIPANTS,
  DEMO_SURVEY_SLUGS,
  SURVEY_MESSAGES,
  SurveyDetailSchema,
  SurveyListResponseSchema,
  type SurveyDetail,
} from '@portale/shared/surveys';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { buildTestApp, type TestApp, sqlRows } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp, guestClient } from '../../../test/http-client.ts';
import { seedDemoSurveys } from './surveys-seed.ts';
import { findSurveyBySlug } from './surveys.repository.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const staff = () => as('sylla@demo.test');
const teacher = () => as('insegnante@demo.test');
const STAFF = new Set(['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test']);
/** Teachers and educators who may answer (the other teacher accounts have a pending condition). */
const PARTICIPANTS = new Set(['insegnante@demo.test']);
let demo: { closedId: number; openId: number };

const surveyInput = (overrides: Record<string, unknown> = {}) => ({
  title: `Indagine di prova ${Math.random().toString(36).slice(2, 8)}`,
  purpose: 'Capire come va la scuola quest’anno.',
  audience: 'Insegnanti ed educatori',
  opensOn: '2026-12-01',
  closesOn: '2027-01-31',
  ...overrides,
});

const QUESTIONS = [
  {
    type: 'scelta_singola',
    label: 'Quale ordine di scuola?',
    required: true,
    options: ['Primaria', 'Secondaria'],
  },
  { type: 'scelta_multipla', label: 'Quali spazi usi?', options: ['Aula', 'Laboratorio', 'Palestra'] },
  { type: 'scala', label: 'Quanto sei soddisfatto?', required: true, help: '1 = poco, 5 = molto' },
  { type: 'testo_breve', label: 'Una parola' },
  { type: 'testo_lungo', label: 'Un commento' },
];

async function newSurvey(overrides: Record<string, unknown> = {}): Promise<SurveyDetail> {
  const res = await staff().post('/api/surveys', surveyInput(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return SurveyDetailSchema.parse(res.json());
}

async function setQuestions(id: number, questions: unknown[] = QUESTIONS) {
  return staff().send('PUT', `/api/surveys/${id}/questions`, { payload: { questions } });
}

const transition = (id: number, to: string) => staff().post(`/api/surveys/${id}/transition`, { to });

beforeAll(async () => {
  t = await buildTestApp();
  demo = await seedDemoSurveys(t.database.db, t.clock.now());
  for (const account of DEMO_ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    expect((await client.login(account.email)).statusCode, account.email).toBe(200);
    clients.set(account.email, client);
  }
}, 120_000);
afterAll(() => t.close());

describe('demo surveys', () => {
  it('seeds the closed pilot first (id 1) and the open survey, once', async () => {
    expect(demo.closedId).toBe(1);
    const again = await seedDemoSurveys(t.database.db, t.clock.now());
    expect(again).toEqual(demo);
    const closed = await findSurveyBySlug(t.database.db, DEMO_SURVEY_SLUGS.closed);
    const open = await findSurveyBySlug(t.database.db, DEMO_SURVEY_SLUGS.open);
    expect(closed?.state).toBe('chiusa');
    expect(open?.state).toBe('aperta');
    for (const s of [closed!, open!]) {
      expect(new Set(s.questions.map((q) => q.type))).toEqual(
        new Set(['scelta_singola', 'scelta_multipla', 'scala', 'testo_breve', 'testo_lungo']),
      );
      expect(s.questions.map((q) => q.position)).toEqual(s.questions.map((_, i) => i + 1));
    }
  });
});

describe('staff build surveys', () => {
  it('every role: staff allowed, guest 401, every other account 403', async () => {
    const survey = await newSurvey();
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/surveys'],
      ['GET', '/api/surveys/export?format=csv'],
      ['GET', `/api/surveys/${survey.id}`],
      ['PATCH', `/api/surveys/${survey.id}`, { audience: 'Docenti delle scuole primarie' }],
      ['PUT', `/api/surveys/${survey.id}/questions`, { questions: QUESTIONS }],
    ];
    for (const [method, url, payload] of calls) {
      expect(
        (
          await (
            await guestClient(t)
          ).send(method as 'GET', url, payload ? { payload: payload as object } : {})
        ).statusCode,
        url,
      ).toBe(401);
      for (const account of DEMO_ACCOUNTS) {
        const res = await as(account.email).send(
          method as 'GET',
          url,
          payload ? { payload: payload as object } : {},
        );
        expect(res.statusCode, `${method} ${url} ${account.email}`).toBe(
          STAFF.has(account.email) ? 200 : 403,
        );
      }
    }
    for (const account of DEMO_ACCOUNTS.filter((a) => !STAFF.has(a.email))) {
      expect((await as(account.email).post('/api/surveys', surveyInput())).statusCode, account.email).toBe(
        403,
      );
      expect(
        (await as(account.email).post(`/api/surveys/${survey.id}/transition`, { to: 'aperta' })).statusCode,
        account.email,
      ).toBe(403);
    }
    expect((await (await guestClient(t)).post('/api/surveys', {})).statusCode).toBe(401);
  });

  it('creates a draft (audited), edits it, refuses bad input per field, 404 for an unknown survey', async () => {
    const survey = await newSurvey();
    expect(survey).toMatchObject({
      state: 'bozza',
      questionCount: 0,
      responseCount: 0,
      questionsEditable: true,
    });
    expect(survey.slug).toMatch(/^indagine-di-prova-/);
    const bad = await staff().post('/api/surveys', {
      title: 'x',
      purpose: 'breve',
      audience: '',
      opensOn: '2026-02-30',
      closesOn: 'domani',
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json<{ errors: Record<string, string[]> }>().errors).sort()).toEqual([
      'audience',
      'closesOn',
      'opensOn',
      'purpose',
      'title',
    ]);
    const before = await staff().send('PATCH', `/api/surveys/${survey.id}`, {
      payload: { closesOn: '2026-11-01' },
    });
    expect(before.statusCode).toBe(422);
    expect(before.json()).toMatchObject({ errors: { closesOn: [SURVEY_MESSAGES.closesBeforeOpens] } });

    const ok = await staff().send('PATCH', `/api/surveys/${survey.id}`, {
      payload: { title: 'Titolo corretto', closesOn: '2027-02-28' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ title: 'Titolo corretto', closesOn: '2027-02-28' });
    const audits = await sqlRows<{ action: string; after: Record<string, unknown> }>(
      t,
      sql`select action, after from audit_log where entity = 'survey' and entity_id = ${String(survey.id)} order by id`,
    );
    expect(audits.map((a) => a.action)).toEqual(['survey.created', 'survey.updated']);
    expect(audits[1]!.after).toEqual({ title: 'Titolo corretto', closesOn: '2027-02-28' });

    expect((await staff().get('/api/surveys/987654')).statusCode).toBe(404);
    expect(
      (await staff().send('PATCH', '/api/surveys/987654', { payload: { title: 'Nuovo titolo' } })).statusCode,
    ).toBe(404);
    expect((await setQuestions(987654)).statusCode).toBe(404);
    expect((await transition(987654, 'aperta')).statusCode).toBe(404);
  });

  it('lists with search, state filter, sort and pages; exports CSV and XLSX', async () => {
    const list = SurveyListResponseSchema.parse((await staff().get('/api/surveys?state=chiusa')).json());
    expect(list.items.map((s) => s.id)).toContain(demo.closedId);
    expect(list.items.every((s) => s.state === 'chiusa')).toBe(true);
    const search = SurveyListResponseSchema.parse((await staff().get('/api/surveys?q=pilota')).json());
    expect(search.items.map((s) => s.id)).toEqual([demo.closedId]);
    expect(search.items[0]).toMatchObject({ questionCount: 6 });
    const sorted = SurveyListResponseSchema.parse(
      (await staff().get('/api/surveys?sort=title&pageSize=25')).json(),
    );
    expect(sorted.items.map((s) => s.title)).toEqual(
      [...sorted.items.map((s) => s.title)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    expect((await staff().get('/api/surveys?state=nessuno')).statusCode).toBe(422);
    // Who answers (decision 046): each filter keeps only its surveys, and together they are all.
    const byParticipants = await Promise.all(
      SURVEY_PARTICIPANTS.map(async (p) =>
        SurveyListResponseSchema.parse(
          (await staff().get(`/api/surveys?participants=${p}&pageSize=100`)).json(),
        ),
      ),
    );
    SURVEY_PARTICIPANTS.forEach((p, i) =>
      expect(byParticipants[i]!.items.every((s) => s.participants === p)).toBe(true),
    );
    const all = SurveyListResponseSchema.parse((await staff().get('/api/surveys?pageSize=100')).json());
    expect(byParticipants.reduce((n, l) => n + l.total, 0)).toBe(all.total);
    expect((await staff().get('/api/surveys?participants=studenti')).statusCode).toBe(422);
    expect((await staff().get('/api/surveys?sort=slug')).statusCode).toBe(422);
    const csv = await staff().get('/api/surveys/export?format=csv&q=pilota');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Indagine pilota 2025');
    expect(csv.body).toContain('Chiusa');
    const xlsx = await staff().get('/api/surveys/export?format=xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('replaces the ordered questions (audited) and refuses bad questions per field', async () => {
    const survey = await newSurvey();
    const res = await setQuestions(survey.id);
    expect(res.statusCode, res.body).toBe(200);
    const detail = SurveyDetailSchema.parse(res.json());
    expect(detail.questions.map((q) => [q.position, q.type, q.required])).toEqual([
      [1, 'scelta_singola', true],
      [2, 'scelta_multipla', false],
      [3, 'scala', true],
      [4, 'testo_breve', false],
      [5, 'testo_lungo', false],
    ]);
    // Reordered: the last question first.
    const reordered = await setQuestions(survey.id, [QUESTIONS[4], ...QUESTIONS.slice(0, 4)]);
    expect(SurveyDetailSchema.parse(reordered.json()).questions.map((q) => q.label)).toEqual([
      'Un commento',
      'Quale ordine di scuola?',
      'Quali spazi usi?',
      'Quanto sei soddisfatto?',
      'Una parola',
    ]);

    const bad = await setQuestions(survey.id, [
      { type: 'scelta_singola', label: 'Una sola opzione', options: ['A'] },
      { type: 'scelta_multipla', label: 'Opzioni ripetute', options: ['A', 'a'] },
      { type: 'domanda', label: 'Tipo sconosciuto' },
      { type: 'scala', label: '' },
    ]);
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json<{ errors: Record<string, string[]> }>().errors).sort()).toEqual([
      'questions.0.options',
      'questions.1.options',
      'questions.2.type',
      'questions.3.label',
    ]);
    // Nothing half-written.
    expect(
      SurveyDetailSchema.parse((await staff().get(`/api/surveys/${survey.id}`)).json()).questions,
    ).toHaveLength(5);
    const audits = await sqlRows<{ action: string }>(
      t,
      sql`select action from audit_log where entity = 'survey' and entity_id = ${String(survey.id)} and action = 'survey.questions-replaced'`,
    );
    expect(audits).toHaveLength(2);
  });

  it('moves only along bozza → aperta → chiusa, one open survey at a time', async () => {
    const empty = await newSurvey();
    expect((await transition(empty.id, 'chiusa')).statusCode).toBe(409);
    const noQuestions = await transition(empty.id, 'aperta');
    expect(noQuestions.statusCode).toBe(409);
    expect(noQuestions.json().message).toBe(SURVEY_MESSAGES.openNeedsQuestions);

    const survey = await newSurvey();
    await setQuestions(survey.id);
    const another = await transition(survey.id, 'aperta');
    expect(another.statusCode).toBe(409);
    expect(another.json().message).toBe(
      SURVEY_MESSAGES.anotherOpen('Indagine nazionale sulle scuole 2026', 'insegnanti'),
    );
    expect((await transition(demo.closedId, 'aperta')).statusCode).toBe(409);
    expect((await transition(survey.id, 'bozza')).statusCode).toBe(409);
    expect(
      (await staff().post(`/api/surveys/${survey.id}/transition`, { to: 'pubblicata' })).statusCode,
    ).toBe(422);
  });
});

describe('a logged-in participant answers the open survey once', () => {
  let survey: SurveyDetail;
  const valid = () => {
    const [single, multiple, scale, short] = survey.questions;
    return {
      [single!.id]: 'Primaria',
      [multiple!.id]: ['Palestra', 'Aula'],
      [scale!.id]: 4,
      [short!.id]: '  Laboratori ',
    };
  };

  it('staff close the demo open survey and open theirs (audited)', async () => {
    survey = await newSurvey({ title: 'Indagine aperta dal test' });
    await setQuestions(survey.id);
    expect((await transition(demo.openId, 'chiusa')).statusCode).toBe(200);
    const opened = await transition(survey.id, 'aperta');
    expect(opened.statusCode).toBe(200);
    survey = SurveyDetailSchema.parse(opened.json());
    expect(survey).toMatchObject({ state: 'aperta', questionsEditable: true });
    expect(survey.openedAt).not.toBeNull();
    expect((await transition(survey.id, 'aperta')).statusCode).toBe(409);
    const audits = await sqlRows<{ before: unknown; after: unknown }>(
      t,
      sql`select before, after from audit_log where action = 'survey.transitioned' and entity_id = ${String(survey.id)}`,
    );
    expect(audits).toEqual([{ before: { state: 'bozza' }, after: { state: 'aperta' } }]);

    const current = await (await guestClient(t)).get('/api/surveys/current');
    expect(current.statusCode).toBe(200);
    expect(current.json().survey).toMatchObject({ id: survey.id, title: 'Indagine aperta dal test' });
    expect(current.json().survey.questions).toHaveLength(5);
  });

  it('guest 401; staff and accounts without the grant or with a pending condition 403', async () => {
    expect(
      (await (await guestClient(t)).post('/api/surveys/current/responses', { answers: valid() })).statusCode,
    ).toBe(401);
    expect((await (await guestClient(t)).get('/api/surveys/current/my-response')).statusCode).toBe(401);
    for (const account of DEMO_ACCOUNTS.filter((a) => !PARTICIPANTS.has(a.email))) {
      expect(
        (await as(account.email).post('/api/surveys/current/responses', { answers: valid() })).statusCode,
        account.email,
      ).toBe(403);
      expect(
        (await as(account.email).get('/api/surveys/current/my-response')).statusCode,
        account.email,
      ).toBe(403);
    }
    expect((await teacher().get('/api/surveys/current/my-response')).json()).toEqual({ response: null });
  });

  it('refuses invalid answers per question (422), nothing stored', async () => {
    const [single, multiple, scale, short, long] = survey.questions;
    const res = await teacher().post('/api/surveys/current/responses', {
      answers: {
        [single!.id]: 'Infanzia',
        [multiple!.id]: ['Aula', 'Cortile'],
        [scale!.id]: 7,
        [short!.id]: 'x'.repeat(201),
        [long!.id]: 'ok',
        '999999': 'x',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      [`answers.${single!.id}`]: [SURVEY_MESSAGES.answerChoice],
      [`answers.${multiple!.id}`]: [SURVEY_MESSAGES.answerChoices],
      [`answers.${scale!.id}`]: [SURVEY_MESSAGES.answerScale],
      [`answers.${short!.id}`]: [SURVEY_MESSAGES.answerTooLong(200)],
      'answers.999999': [SURVEY_MESSAGES.answerUnknown],
    });
    const missing = await teacher().post('/api/surveys/current/responses', { answers: {} });
    expect(missing.json().errors).toEqual({
      [`answers.${single!.id}`]: [SURVEY_MESSAGES.answerRequired],
      [`answers.${scale!.id}`]: [SURVEY_MESSAGES.answerRequired],
    });
    expect(
      (await teacher().post('/api/surveys/current/responses', { answers: 'tutto bene' })).statusCode,
    ).toBe(422);
    expect(
      await sqlRows(t, sql`select id from survey_responses where survey_id = ${survey.id}`),
    ).toHaveLength(0);
  });

  it('concurrent duplicate submissions: exactly one is stored, the others are 409', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => teacher().post('/api/surveys/current/responses', { answers: valid() })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const refused = results.find((r) => r.statusCode === 409)!;
    expect(refused.json()).toMatchObject({
      code: 'already_answered',
      message: SURVEY_MESSAGES.alreadyAnswered,
    });
    expect(
      await sqlRows(t, sql`select id from survey_responses where survey_id = ${survey.id}`),
    ).toHaveLength(1);
    const again = await teacher().post('/api/surveys/current/responses', { answers: valid() });
    expect(again.statusCode).toBe(409);
  });

  it('reviews what was sent (normalised)', async () => {
    const [single, multiple, scale, short] = survey.questions;
    const mine = await teacher().get('/api/surveys/current/my-response');
    expect(mine.statusCode).toBe(200);
    expect(mine.json().response).toMatchObject({
      surveyId: survey.id,
      answers: {
        [single!.id]: 'Primaria',
        [multiple!.id]: ['Aula', 'Palestra'],
        [scale!.id]: 4,
        [short!.id]: 'Laboratori',
      },
    });
  });

  it('refuses question changes once answers exist; shows the count; closes', async () => {
    const locked = await setQuestions(survey.id);
    expect(locked.statusCode).toBe(409);
    expect(locked.json().message).toBe(SURVEY_MESSAGES.questionsLocked);
    const detail = SurveyDetailSchema.parse((await staff().get(`/api/surveys/${survey.id}`)).json());
    expect(detail).toMatchObject({ responseCount: 1, questionsEditable: false });
    expect((await transition(survey.id, 'chiusa')).statusCode).toBe(200);
    expect((await transition(survey.id, 'aperta')).statusCode).toBe(409);
    expect((await (await guestClient(t)).get('/api/surveys/current')).json()).toEqual({
      survey: null,
      codeSurvey: null,
    });
    const closed = await teacher().post('/api/surveys/current/responses', { answers: valid() });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().message).toBe(SURVEY_MESSAGES.noOpenSurvey);
    expect((await setQuestions(survey.id)).statusCode).toBe(409);
  });

  it('two drafts opened at the same time: exactly one opens', async () => {
    const drafts = [await newSurvey(), await newSurvey(), await newSurvey()];
    for (const d of drafts) expect((await setQuestions(d.id)).statusCode).toBe(200);
    const results = await Promise.all(drafts.map((d) => transition(d.id, 'aperta')));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const winner = drafts[results.findIndex((r) => r.statusCode === 200)]!;
    expect(
      (await sqlRows(t, sql`select id from surveys where state = 'aperta'`)).map((r) =>
        Number((r as { id: number }).id),
      ),
    ).toEqual([winner.id]);
    expect((await (await guestClient(t)).get('/api/surveys/current')).json().survey.id).toBe(winner.id);
  });
});
