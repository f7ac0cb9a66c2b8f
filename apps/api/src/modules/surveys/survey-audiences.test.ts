// Issue 35 item 6, decision 046: a survey is for teachers, for code holders or both (and per question
// when both); each group answers only its questions; one open survey per group; results per group.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_CODE_MESSAGES,
  AccessCodeOptionsSchema,
  CurrentSurveySchema,
  DEMO_ACCESS_CODE,
  PublicAccessCodeSchema,
  RESPONDENT_GROUP_LABELS,
  RESULTS_MESSAGES,
  ResultsResponseSchema,
  SURVEY_MESSAGES,
  SurveyDetailSchema,
  type SurveyDetail,
} from '@portale/shared/surveys';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { institutes, schoolSites } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp, sqlRows } from '../../../test/build-test-app.ts';
import { ApiClient, guestClient, nextIp } from '../../../test/http-client.ts';
import { seedDemoAccessCodes } from './access-codes-seed.ts';
import { seedDemoSurveys } from './surveys-seed.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const staff = () => as('sylla@demo.test');
const teacher = () => as('insegnante@demo.test');
const STAFF = new Set(['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test']);
let demo: { closedId: number; openId: number };
let site = 0;

const day = (days: number) =>
  new Date(t.clock.now().getTime() + days * 86_400_000).toLocaleDateString('sv-SE', {
    timeZone: 'Europe/Rome',
  });

async function newSurvey(participants: string, title: string): Promise<SurveyDetail> {
  const res = await staff().post('/api/surveys', {
    title,
    purpose: 'Capire come va la scuola quest’anno.',
    audience: 'Chi partecipa, a parole',
    opensOn: day(-1),
    closesOn: day(30),
    participants,
  });
  expect(res.statusCode, res.body).toBe(201);
  return SurveyDetailSchema.parse(res.json());
}

const TEACHER_Q = {
  type: 'scelta_singola',
  label: 'Da quanti anni insegni?',
  required: true,
  options: ['Meno di 5', 'Più di 5'],
  participants: 'insegnanti',
};
const CODE_Q = {
  type: 'scelta_singola',
  label: 'In che classe sei?',
  required: true,
  options: ['Prima', 'Seconda'],
  participants: 'codici',
};
const BOTH_Q = {
  type: 'scala',
  label: 'Quanto stai bene a scuola?',
  required: true,
  participants: 'entrambi',
};

const setQuestions = (id: number, questions: unknown[]) =>
  staff().send('PUT', `/api/surveys/${id}/questions`, { payload: { questions } });
const transition = (id: number, to: string) => staff().post(`/api/surveys/${id}/transition`, { to });
const current = async () =>
  CurrentSurveySchema.parse((await (await guestClient(t)).get('/api/surveys/current')).json());

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const [a] = await db.select({ id: institutes.id }).from(institutes).orderBy(institutes.ministryCode);
  [{ id: site }] = (await db
    .insert(schoolSites)
    .values({
      ministryCode: 'RMEE8AU01X',
      instituteId: a!.id,
      name: 'Plesso del pubblico',
      schoolLevel: 'primaria',
      typeLabel: 'Scuola primaria',
      municipalityCode: 'H501',
      municipalityName: 'Roma',
      province: 'RM',
      region: 'Lazio',
      participating: true,
    })
    .returning({ id: schoolSites.id })) as [{ id: number }];
  demo = await seedDemoSurveys(db, t.clock.now());
  expect(await seedDemoAccessCodes(db, t.clock.now())).toBe(DEMO_ACCESS_CODE);
  for (const account of DEMO_ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    expect((await client.login(account.email)).statusCode, account.email).toBe(200);
    clients.set(account.email, client);
  }
}, 120_000);
afterAll(() => t.close());

describe('the demo survey for both: each group sees its own questions', () => {
  it('a code holder is not asked how long they have worked in a school; a teacher is', async () => {
    const viaCode = PublicAccessCodeSchema.parse(
      (await (await guestClient(t)).get(`/api/access-codes/${DEMO_ACCESS_CODE}`)).json(),
    );
    const codeLabels = viaCode.survey.questions.map((q) => q.label);
    expect(codeLabels).not.toContain('Da quanti anni lavori nella scuola?');
    expect(codeLabels).toEqual([
      'Quanto ti senti coinvolto nelle decisioni della scuola?',
      'Quale attività della tua scuola consiglieresti ad altre?',
      'Che cosa cambieresti per migliorare la tua giornata a scuola?',
    ]);
    const { survey, codeSurvey } = await current();
    expect(survey?.id).toBe(demo.openId);
    expect(survey?.participants).toBe('entrambi');
    expect(survey?.questions.map((q) => q.label)).toContain('Da quanti anni lavori nella scuola?');
    expect(survey?.questions).toHaveLength(6);
    expect(codeSurvey).toBeNull();
  });

  it('an answer to a teachers’ question through a code is a 422 by name: no use taken, nothing stored', async () => {
    const full = SurveyDetailSchema.parse((await staff().get(`/api/surveys/${demo.openId}`)).json());
    const years = full.questions.find((q) => q.label === 'Da quanti anni lavori nella scuola?')!;
    const involved = full.questions.find((q) => q.label.startsWith('Quanto ti senti coinvolto'))!;
    const uses = async () =>
      Number(
        (
          await sqlRows<{ uses: number }>(
            t,
            sql`select uses from access_codes where code = ${DEMO_ACCESS_CODE}`,
          )
        )[0]!.uses,
      );
    const before = await uses();
    const res = await (
      await guestClient(t)
    ).post(`/api/access-codes/${DEMO_ACCESS_CODE}/responses`, {
      answers: { [involved.id]: 4, [years.id]: 'Meno di 5' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ [`answers.${years.id}`]: [SURVEY_MESSAGES.answerNotForYou] });
    expect(await uses()).toBe(before);
    // Without it: stored as a code holder's answer.
    const ok = await (
      await guestClient(t)
    ).post(`/api/access-codes/${DEMO_ACCESS_CODE}/responses`, { answers: { [involved.id]: 4 } });
    expect(ok.statusCode, ok.body).toBe(201);
    const [row] = await sqlRows<{ participant_group: string }>(
      t,
      sql`select participant_group from survey_responses where access_code_id is not null order by id desc limit 1`,
    );
    expect(row!.participant_group).toBe('codici');
  });
});

describe('staff say who answers a survey and each question', () => {
  let forCodes: SurveyDetail;
  let forTeachers: SurveyDetail;

  it('every role: staff may set who answers, guest 401, the others 403', async () => {
    const survey = await newSurvey('entrambi', 'Indagine dei ruoli');
    const body = { participants: 'codici' };
    expect(
      (await (await guestClient(t)).send('PATCH', `/api/surveys/${survey.id}`, { payload: body })).statusCode,
    ).toBe(401);
    for (const account of DEMO_ACCOUNTS) {
      const res = await as(account.email).send('PATCH', `/api/surveys/${survey.id}`, { payload: body });
      expect(res.statusCode, account.email).toBe(STAFF.has(account.email) ? 200 : 403);
    }
    const detail = SurveyDetailSchema.parse((await staff().get(`/api/surveys/${survey.id}`)).json());
    expect(detail.participants).toBe('codici');
    const audits = await sqlRows<{ before: unknown; after: unknown }>(
      t,
      sql`select before, after from audit_log where action = 'survey.updated' and entity_id = ${String(survey.id)} order by id`,
    );
    expect(audits[0]).toEqual({ before: { participants: 'entrambi' }, after: { participants: 'codici' } });
  });

  it('bad values are a 422 in Italian; a question outside the survey’s participants too; nothing written', async () => {
    const survey = await newSurvey('codici', 'Indagine solo codici');
    const bad = await staff().send('PATCH', `/api/surveys/${survey.id}`, {
      payload: { participants: 'tutti' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ participants: [SURVEY_MESSAGES.participants] });
    const outside = await setQuestions(survey.id, [CODE_Q, TEACHER_Q]);
    expect(outside.statusCode).toBe(422);
    expect(outside.json().errors).toEqual({
      'questions.1.participants': [SURVEY_MESSAGES.questionOutsideSurvey('insegnanti')],
    });
    const badQuestion = await setQuestions(survey.id, [{ ...CODE_Q, participants: 'nessuno' }]);
    expect(badQuestion.statusCode).toBe(422);
    expect(Object.keys(badQuestion.json().errors)).toEqual(['questions.0.participants']);
    expect(
      SurveyDetailSchema.parse((await staff().get(`/api/surveys/${survey.id}`)).json()).questions,
    ).toHaveLength(0);
    // A survey for both with a teachers' question cannot become a survey for code holders only.
    const both = await newSurvey('entrambi', 'Indagine per entrambi');
    expect((await setQuestions(both.id, [TEACHER_Q])).statusCode).toBe(200);
    const narrowed = await staff().send('PATCH', `/api/surveys/${both.id}`, {
      payload: { participants: 'codici' },
    });
    expect(narrowed.statusCode).toBe(422);
    expect(narrowed.json().errors).toEqual({
      participants: [SURVEY_MESSAGES.participantsQuestionsOutside('insegnanti')],
    });
    // A survey for both opens only with questions for each group.
    const opening = await transition(both.id, 'aperta');
    expect(opening.statusCode).toBe(409);
    expect(opening.json().message).toBe(SURVEY_MESSAGES.openNeedsGroupQuestions('codici'));
  });

  it('two open surveys for the same group: 409 naming it; for different groups: both open', async () => {
    forCodes = await newSurvey('codici', 'Indagine per studenti e famiglie');
    expect((await setQuestions(forCodes.id, [CODE_Q, BOTH_Q])).statusCode).toBe(200);
    const clash = await transition(forCodes.id, 'aperta');
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({
      code: 'another_survey_open',
      message: SURVEY_MESSAGES.anotherOpen('Indagine nazionale sulle scuole 2026', 'codici'),
    });
    expect((await transition(demo.openId, 'chiusa')).statusCode).toBe(200);
    expect((await transition(forCodes.id, 'aperta')).statusCode).toBe(200);

    forTeachers = await newSurvey('insegnanti', 'Indagine per insegnanti');
    expect((await setQuestions(forTeachers.id, [TEACHER_Q, BOTH_Q])).statusCode).toBe(200);
    expect((await transition(forTeachers.id, 'aperta')).statusCode).toBe(200);

    const second = await newSurvey('insegnanti', 'Seconda indagine per insegnanti');
    expect((await setQuestions(second.id, [TEACHER_Q])).statusCode).toBe(200);
    const refused = await transition(second.id, 'aperta');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(SURVEY_MESSAGES.anotherOpen('Indagine per insegnanti', 'insegnanti'));
    const both = await newSurvey('entrambi', 'Indagine per tutti, dopo');
    expect((await setQuestions(both.id, [BOTH_Q])).statusCode).toBe(200);
    expect((await transition(both.id, 'aperta')).statusCode).toBe(409);
    expect(
      (
        await sqlRows<{ id: number }>(
          t,
          sql`select id::int as id from surveys where state = 'aperta' order by id`,
        )
      ).map((r) => Number(r.id)),
    ).toEqual([forCodes.id, forTeachers.id]);
    // Who answers is fixed once open.
    const locked = await staff().send('PATCH', `/api/surveys/${forTeachers.id}`, {
      payload: { participants: 'entrambi' },
    });
    expect(locked.statusCode).toBe(409);
    expect(locked.json().message).toBe(SURVEY_MESSAGES.participantsLocked);
  });

  it('/indagine offers teachers their survey and names the code holders’ one; a teacher answers only theirs', async () => {
    const { survey, codeSurvey } = await current();
    expect(survey?.id).toBe(forTeachers.id);
    expect(survey?.questions.map((q) => q.label)).toEqual([TEACHER_Q.label, BOTH_Q.label]);
    expect(codeSurvey).toMatchObject({ id: forCodes.id, participants: 'codici' });
    expect(codeSurvey).not.toHaveProperty('questions');

    const codeQuestion = SurveyDetailSchema.parse((await staff().get(`/api/surveys/${forCodes.id}`)).json())
      .questions[0]!;
    const [years, wellbeing] = survey!.questions;
    const foreign = await teacher().post('/api/surveys/current/responses', {
      answers: { [years!.id]: 'Più di 5', [wellbeing!.id]: 3, [codeQuestion.id]: 'Prima' },
    });
    expect(foreign.statusCode).toBe(422);
    expect(Object.keys(foreign.json().errors)).toEqual([`answers.${codeQuestion.id}`]);
    const ok = await teacher().post('/api/surveys/current/responses', {
      answers: { [years!.id]: 'Più di 5', [wellbeing!.id]: 3 },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect((await teacher().get('/api/surveys/current/my-response')).json().response.surveyId).toBe(
      forTeachers.id,
    );
  });

  it('codes are made only for a survey code holders answer; a code opens only their questions', async () => {
    const options = AccessCodeOptionsSchema.parse((await teacher().get('/api/access-codes/options')).json());
    expect(options.surveys.map((s) => s.id)).toEqual([forCodes.id]);
    const refused = await staff().post('/api/access-codes', {
      surveyId: forTeachers.id,
      schoolSiteId: site,
      classLabel: '3ª A',
      count: 1,
      maxUses: 5,
      expiresOn: day(5),
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ surveyId: [ACCESS_CODE_MESSAGES.surveyNotForCodes] });
    const made = await staff().post('/api/access-codes', {
      surveyId: forCodes.id,
      schoolSiteId: site,
      classLabel: '3ª A',
      count: 1,
      maxUses: 5,
      expiresOn: day(5),
    });
    expect(made.statusCode, made.body).toBe(201);
    const code = made.json().items[0].code as string;
    const opened = PublicAccessCodeSchema.parse(
      (await (await guestClient(t)).get(`/api/access-codes/${code}`)).json(),
    );
    expect(opened.survey.questions.map((q) => q.label)).toEqual([CODE_Q.label, BOTH_Q.label]);
  });

  it('with only a code holders’ survey open, a teacher is told so (409 in Italian), not offered a form', async () => {
    expect((await transition(forTeachers.id, 'chiusa')).statusCode).toBe(200);
    const { survey, codeSurvey } = await current();
    expect(survey).toBeNull();
    expect(codeSurvey?.id).toBe(forCodes.id);
    const res = await teacher().post('/api/surveys/current/responses', { answers: {} });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'survey_not_open',
      message: SURVEY_MESSAGES.noOpenSurveyForTeachers,
    });
    expect((await teacher().get('/api/surveys/current/my-response')).json()).toEqual({ response: null });
  });
});

describe('results per group of respondents (decisions 035, 046)', () => {
  let surveyId = 0;
  let q: { both: number; teacher: number };

  beforeAll(async () => {
    const [row] = await sqlRows<{ id: number }>(
      t,
      sql`insert into surveys (slug, title, purpose, audience, participants, state, opens_on, closes_on, closed_at)
      values ('per-pubblico', 'Indagine per pubblico', 'Scopo di prova abbastanza lungo.', 'Tutti', 'entrambi', 'chiusa', '2026-01-10', '2026-03-10', now()) returning id::int as id`,
    );
    surveyId = Number(row!.id);
    const question = async (position: number, label: string, participants: string) =>
      Number(
        (
          await sqlRows<{ id: number }>(
            t,
            sql`insert into survey_questions (survey_id, position, type, label, required, options, participants)
            values (${surveyId}, ${position}, 'scelta_singola', ${label}, true, ${JSON.stringify(['Sì', 'No'])}::jsonb, ${participants}) returning id::int as id`,
          )
        )[0]!.id,
      );
    q = {
      both: await question(1, 'Ti piace la scuola?', 'entrambi'),
      teacher: await question(2, 'Insegni da più di 5 anni?', 'insegnanti'),
    };
    const insert = async (group: string, answers: Record<string, string>) =>
      sqlRows(
        t,
        sql`insert into survey_responses (survey_id, school_site_id, participant_group, answers) values (${surveyId}, ${site}, ${group}, ${JSON.stringify(answers)}::jsonb)`,
      );
    for (let i = 0; i < 12; i++)
      await insert('insegnanti', { [q.both]: i % 2 ? 'Sì' : 'No', [q.teacher]: i % 3 ? 'Sì' : 'No' });
    // Three code holders: too few to show; one of them answered the teachers' question (as before decision 046).
    for (let i = 0; i < 3; i++) await insert('codici', { [q.both]: 'Sì', [q.teacher]: 'No' });
  });

  const results = async (query: string) => {
    const res = await (await guestClient(t)).get(`/api/results?survey=${surveyId}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return ResultsResponseSchema.parse(res.json());
  };

  it('teachers by default: their respondents and questions only; the groups the survey asked are listed', async () => {
    const data = await results('');
    expect(data).toMatchObject({
      participants: 'insegnanti',
      participantGroups: ['insegnanti', 'codici'],
      status: 'shown',
      respondents: 12,
    });
    expect(data.questions.map((x) => x.id)).toEqual([q.both, q.teacher]);
    expect(data.questions[0]!.rows.map((r) => r.count)).toEqual([6, 6]);
    expect(await results('&participants=insegnanti')).toEqual(data);
  });

  it('a group of 3 code holders is withheld on its own; the whole (15) is published nowhere', async () => {
    const codes = await results('&participants=codici');
    expect(codes).toMatchObject({
      participants: 'codici',
      status: 'suppressed',
      respondents: null,
      questions: [],
    });
    for (const query of ['', '&participants=insegnanti', '&region=Lazio', '&schoolLevel=primaria']) {
      const data = await results(query);
      expect(data.respondents, query).not.toBe(15);
    }
  });

  it('with 6 code holders all answering «Sì», their row is withheld (dominance, per group) and the teachers’ question is not theirs', async () => {
    for (let i = 0; i < 3; i++)
      await sqlRows(
        t,
        sql`insert into survey_responses (survey_id, school_site_id, participant_group, answers) values (${surveyId}, ${site}, 'codici', ${JSON.stringify({ [q.both]: 'Sì' })}::jsonb)`,
      );
    const codes = await results('&participants=codici');
    expect(codes).toMatchObject({ status: 'shown', respondents: 6 });
    expect(codes.questions.map((x) => x.id)).toEqual([q.both]);
    expect(codes.questions[0]!.rows.map((r) => r.count)).toEqual([null, null]);
    const teachers = await results('');
    expect(teachers.respondents).toBe(12);
    expect(teachers.questions[0]!.rows.map((r) => r.count)).toEqual([6, 6]);
  });

  it('the export names the group; a group the survey did not ask, or a bad value, is a 422 in Italian', async () => {
    const csv = await (
      await guestClient(t)
    ).get(`/api/results/export?survey=${surveyId}&participants=codici`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(RESPONDENT_GROUP_LABELS.codici);
    expect(csv.body).not.toContain('Insegni da più di 5 anni?');
    const bad = await (await guestClient(t)).get(`/api/results?survey=${surveyId}&participants=tutti`);
    expect(bad.statusCode).toBe(422);
    const pilot = await (
      await guestClient(t)
    ).get(`/api/results?survey=${demo.closedId}&participants=codici`);
    expect(pilot.statusCode).toBe(200);
    await sqlRows(t, sql`update surveys set participants = 'insegnanti' where id = ${surveyId}`);
    const notAsked = await (await guestClient(t)).get(`/api/results?survey=${surveyId}&participants=codici`);
    expect(notAsked.statusCode).toBe(422);
    expect(notAsked.json().errors).toEqual({
      participants: [RESULTS_MESSAGES.groupNotAsked(RESPONDENT_GROUP_LABELS.codici)],
    });
    await sqlRows(t, sql`update surveys set participants = 'entrambi' where id = ${surveyId}`);
  });
});
