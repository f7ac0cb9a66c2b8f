// Issue 32, defect 3 (decision 029): only an approved teacher makes access codes, for the plesso they
// were approved for; a change of plesso goes back to review; codes, plesso answers and a teacher's codes
// per day are capped; a teacher's own answer counts once approved; a rejection revokes their codes,
// takes them off the plesso's lists and holds the answers collected through their codes until staff decide.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_CODE_MESSAGES,
  AccessCodesCreatedSchema,
  CurrentSurveySchema,
  PublicAccessCodeSchema,
  SURVEY_MESSAGES,
  type AccessCodeSummary,
  type SurveyQuestion,
} from '@portale/shared/surveys';
import {
  HELD_RESPONSE_MESSAGES,
  HeldResponsesDecidedSchema,
  TeacherDetailSchema,
} from '@portale/shared/teachers';
import type { ReviewState } from '@portale/shared/reviews';
import {
  institutes,
  reviews,
  roles,
  schoolSites,
  teacherProfiles,
  userRoles,
  users,
} from '../../db/schema/index.ts';
import { buildTestApp, type TestApp, sqlRows } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp, guestClient } from '../../../test/http-client.ts';
import { listSiteTeachers } from '../field-work/detector-sites.repository.ts';
import { responsesForResults, resultsVersion } from '../results/results.repository.ts';
import { submitForReview } from '../review-queue/review-submission.repository.ts';
import { candidatesOf, teacherOfSite } from '../substitutions/substitutions.repository.ts';
import { seedDemoSurveys } from '../surveys/surveys-seed.ts';

const CAPS = {
  ACCESS_CODE_TEACHER_MAX_USES: '30',
  ACCESS_CODE_TEACHER_MAX_CODES_PER_DAY: '6',
  ACCESS_CODE_SITE_MAX_USES_PER_DAY: '3',
};

let t: TestApp;
let staff: ApiClient;
let admin: ApiClient;
let siteA = 0;
let siteB = 0;
let siteC = 0;
let principalId = 0;
let openSurveyId = 0;
let seq = 0;

interface Teacher {
  userId: number;
  profileId: number;
  client: ApiClient;
}

/** A signed-in teacher with verified contacts, a profile on `siteId` in `state` (queued when pending). */
async function addTeacher(siteId: number | null, state: ReviewState): Promise<Teacher> {
  const db = t.database.db;
  const email = `docente${++seq}@esempio.it`;
  const [demo] = await db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(eq(users.email, 'insegnante@demo.test'));
  const now = t.clock.now();
  const [user] = await db
    .insert(users)
    .values({
      email,
      firstName: 'Dora',
      lastName: `Docente${seq}`,
      passwordHash: demo!.hash,
      phone: '+393331112233',
      emailVerifiedAt: now,
      phoneVerifiedAt: now,
    })
    .returning({ id: users.id });
  const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'teacher'));
  await db.insert(userRoles).values({ userId: user!.id, roleId: role!.id });
  const [profile] = await db
    .insert(teacherProfiles)
    .values({ userId: user!.id, kind: 'insegnante', schoolSiteId: siteId, reviewState: state })
    .returning({ id: teacherProfiles.id });
  if (state === 'in_attesa')
    await submitForReview(db, { type: 'insegnanti', subjectId: profile!.id, at: now });
  const client = new ApiClient(t, nextIp());
  expect((await client.login(email)).statusCode).toBe(200);
  return { userId: user!.id, profileId: profile!.id, client };
}

const day = (days: number) =>
  new Date(t.clock.now().getTime() + days * 86_400_000).toLocaleDateString('sv-SE', {
    timeZone: 'Europe/Rome',
  });
const input = (overrides: Record<string, unknown> = {}) => ({
  surveyId: openSurveyId,
  classLabel: '1ª A',
  count: 1,
  maxUses: 25,
  expiresOn: day(5),
  ...overrides,
});

async function codes(
  client: ApiClient,
  overrides: Record<string, unknown> = {},
): Promise<AccessCodeSummary[]> {
  const res = await client.post('/api/access-codes', input(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return AccessCodesCreatedSchema.parse(res.json()).items;
}

const codeCount = async () =>
  Number((await sqlRows<{ n: string }>(t, sql`select count(*) as n from access_codes`))[0]!.n);
const stateOf = async (profileId: number) =>
  (
    await t.database.db
      .select({ s: teacherProfiles.reviewState })
      .from(teacherProfiles)
      .where(eq(teacherProfiles.id, profileId))
  )[0]!.s;
const pendingReview = async (profileId: number) =>
  (
    await t.database.db
      .select({ id: reviews.id })
      .from(reviews)
      .where(
        and(eq(reviews.type, 'insegnanti'), eq(reviews.subjectId, profileId), eq(reviews.state, 'in_attesa')),
      )
  )[0]?.id;

async function decide(profileId: number, decision: 'approve' | 'reject') {
  const reviewId = await pendingReview(profileId);
  expect(reviewId).toBeDefined();
  const res = await staff.post(
    `/api/reviews/insegnanti/${reviewId}/decision`,
    decision === 'reject' ? { decision, note: 'Non insegna in questo plesso.' } : { decision },
  );
  expect(res.statusCode, res.body).toBe(200);
}

/** Answers valid for the open survey as a code opens it (its required questions for code holders). */
async function answersFor(code: string): Promise<Record<string, unknown>> {
  const { survey } = PublicAccessCodeSchema.parse(
    (await (await guestClient(t)).get(`/api/access-codes/${code}`)).json(),
  );
  return requiredAnswers(survey.questions);
}

/** Answers valid for the open survey as a teacher sees it (decision 046: the teachers' questions). */
async function teacherAnswers(): Promise<Record<string, unknown>> {
  const { survey } = CurrentSurveySchema.parse(
    (await (await guestClient(t)).get('/api/surveys/current')).json(),
  );
  return requiredAnswers(survey!.questions);
}

function requiredAnswers(questions: SurveyQuestion[]): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const q of questions) {
    if (!q.required) continue;
    answers[String(q.id)] =
      q.type === 'scala'
        ? 4
        : q.type === 'scelta_multipla'
          ? [q.options[0]]
          : q.type.startsWith('scelta')
            ? q.options[0]
            : 'Una risposta';
  }
  return answers;
}

const answer = async (code: string) =>
  (await guestClient(t)).post(`/api/access-codes/${code}/responses`, { answers: await answersFor(code) });
const counted = async () => (await responsesForResults(t.database.db, openSurveyId)).length;

beforeAll(async () => {
  t = await buildTestApp(CAPS);
  const db = t.database.db;
  const [a, b] = await db.select({ id: institutes.id }).from(institutes).orderBy(institutes.ministryCode);
  const sites = await db
    .insert(schoolSites)
    .values(
      [a!.id, a!.id, b!.id].map((instituteId, i) => ({
        ministryCode: `RMEE8AC0${i}X`,
        instituteId,
        name: `Plesso ${['A', 'B', 'C'][i]}`,
        schoolLevel: 'primaria' as const,
        typeLabel: 'Scuola primaria',
        municipalityCode: 'H501',
        municipalityName: 'Roma',
        province: 'RM',
        region: 'Lazio',
        participating: true,
      })),
    )
    .returning({ id: schoolSites.id });
  [siteA, siteB, siteC] = sites.map((s) => s.id) as [number, number, number];
  const [principal] = await db
    .insert(users)
    .values({ email: 'preside.prova@esempio.it', firstName: 'Pia', lastName: 'Preside', passwordHash: 'x' })
    .returning({ id: users.id });
  principalId = principal!.id;
  await db.update(institutes).set({ principalUserId: principalId }).where(eq(institutes.id, a!.id));
  ({ openId: openSurveyId } = await seedDemoSurveys(db, t.clock.now()));
  staff = new ApiClient(t, nextIp());
  expect((await staff.login('sylla@demo.test')).statusCode).toBe(200);
  admin = new ApiClient(t, nextIp());
  expect((await admin.login('superadmin@demo.test')).statusCode).toBe(200);
}, 120_000);
afterAll(() => t.close());

describe('who makes access codes', () => {
  it('a teacher still in review or rejected gets an Italian 403 and nothing is written; an approved one only for their plesso', async () => {
    const pending = await addTeacher(siteA, 'in_attesa');
    const rejected = await addTeacher(siteA, 'respinta');
    const sentBack = await addTeacher(siteA, 'da_correggere');
    const before = await codeCount();
    for (const [teacher, message] of [
      [pending, ACCESS_CODE_MESSAGES.notApproved],
      [sentBack, ACCESS_CODE_MESSAGES.notApproved],
      [rejected, ACCESS_CODE_MESSAGES.rejected],
    ] as const) {
      for (const body of [input(), input({ schoolSiteId: siteA }), input({ schoolSiteId: siteB })]) {
        const res = await teacher.client.post('/api/access-codes', body);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toMatchObject({ code: 'teacher_not_approved', message });
      }
    }
    expect(await codeCount()).toBe(before);
    // The teacher's home says why before they try.
    expect((await pending.client.get('/api/access-codes/options')).json()).toMatchObject({
      blockedReason: ACCESS_CODE_MESSAGES.notApproved,
      maxUses: 30,
    });
    expect((await rejected.client.get('/api/access-codes/options')).json()).toMatchObject({
      blockedReason: ACCESS_CODE_MESSAGES.rejected,
    });
    expect((await staff.get('/api/access-codes/options')).json()).toMatchObject({
      blockedReason: null,
      maxUses: 500,
    });

    const approved = await addTeacher(siteA, 'approvata');
    expect((await approved.client.get('/api/access-codes/options')).json()).toMatchObject({
      blockedReason: null,
      maxUses: 30,
      schoolSite: { id: siteA },
    });
    expect((await codes(approved.client))[0]).toMatchObject({
      schoolSiteId: siteA,
      ownerUserId: approved.userId,
    });
    expect((await approved.client.post('/api/access-codes', input({ schoolSiteId: siteB }))).statusCode).toBe(
      403,
    );
  });

  it('an approved teacher who moves to another plesso goes back to review (queued) and makes no codes for either until approved for the new one', async () => {
    const teacher = await addTeacher(siteA, 'approvata');
    const stays = await addTeacher(siteA, 'approvata');
    // Saving the same plesso changes nothing.
    expect(
      (await stays.client.send('PATCH', '/api/account/profile', { payload: { schoolSiteId: siteA } }))
        .statusCode,
    ).toBe(200);
    expect(await stateOf(stays.profileId)).toBe('approvata');
    expect(await pendingReview(stays.profileId)).toBeUndefined();

    const moved = await teacher.client.send('PATCH', '/api/account/profile', {
      payload: { schoolSiteId: siteC },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      teacherProfile: { reviewState: 'in_attesa', schoolSite: { id: siteC } },
    });
    expect(await stateOf(teacher.profileId)).toBe('in_attesa');
    const reviewId = await pendingReview(teacher.profileId);
    expect(reviewId).toBeDefined();
    const queue = (await staff.get('/api/reviews/insegnanti?pageSize=100')).json<{
      items: { id: number; state: string }[];
    }>();
    expect(queue.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: reviewId, state: 'in_attesa' })]),
    );
    const [audit] = await sqlRows<{ after: { reviewState?: string } }>(
      t,
      sql`select after from audit_log where action = 'account.profile.updated' and entity_id = ${String(teacher.userId)} order by id desc limit 1`,
    );
    expect(audit!.after.reviewState).toBe('in_attesa');

    for (const body of [input(), input({ schoolSiteId: siteA }), input({ schoolSiteId: siteC })]) {
      const res = await teacher.client.post('/api/access-codes', body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: ACCESS_CODE_MESSAGES.notApproved });
    }
    await decide(teacher.profileId, 'approve');
    expect((await codes(teacher.client))[0]).toMatchObject({ schoolSiteId: siteC });
    expect((await teacher.client.post('/api/access-codes', input({ schoolSiteId: siteA }))).statusCode).toBe(
      403,
    );
  });
});

describe('caps', () => {
  it('a teacher’s code serves a class: more uses than the cap is a 422 on the field; staff codes keep the 500 ceiling', async () => {
    const teacher = await addTeacher(siteA, 'approvata');
    const before = await codeCount();
    const res = await teacher.client.post('/api/access-codes', input({ maxUses: 31 }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: { maxUses: [ACCESS_CODE_MESSAGES.teacherMaxUses(30)] } });
    expect(await codeCount()).toBe(before);
    expect((await codes(teacher.client, { maxUses: 30 }))[0]!.maxUses).toBe(30);
    expect((await codes(staff, { schoolSiteId: siteA, maxUses: 500 }))[0]!.maxUses).toBe(500);
  });

  it('codes per teacher per day: beyond the cap an Italian 429 writes nothing; the next day they can again', async () => {
    const teacher = await addTeacher(siteB, 'approvata');
    await codes(teacher.client, { count: 4 });
    const before = await codeCount();
    const res = await teacher.client.post('/api/access-codes', input({ count: 3 }));
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({
      code: 'access_code_daily_limit',
      message: ACCESS_CODE_MESSAGES.teacherDailyCodes(6),
    });
    expect(await codeCount()).toBe(before);
    await codes(teacher.client, { count: 2 });
    expect((await teacher.client.post('/api/access-codes', input())).statusCode).toBe(429);
    // Staff are not capped.
    await codes(staff, { schoolSiteId: siteB, count: 10 });
    t.clock.advance(86_400_000);
    await codes(teacher.client, { count: 6 });
  });

  it('answers per plesso per day through teachers’ codes: beyond the cap an Italian 429 takes no use; staff codes and the next day still work', async () => {
    const teacher = await addTeacher(siteC, 'approvata');
    const [first, second] = await codes(teacher.client, { count: 2, maxUses: 10 });
    for (const code of [first!.code, first!.code, second!.code])
      expect((await answer(code)).statusCode).toBe(201);
    const refused = await answer(second!.code);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'access_code_site_daily_limit',
      message: ACCESS_CODE_MESSAGES.siteDailyUses,
    });
    expect(
      Number(
        (await sqlRows<{ uses: number }>(t, sql`select uses from access_codes where id = ${second!.id}`))[0]!
          .uses,
      ),
    ).toBe(1);
    const [staffCode] = await codes(staff, { schoolSiteId: siteC, count: 1, maxUses: 5 });
    expect((await answer(staffCode!.code)).statusCode).toBe(201);
    t.clock.advance(86_400_000);
    expect((await answer(second!.code)).statusCode).toBe(201);
  });
});

describe('a teacher’s own answer', () => {
  it('is kept but counts in the results only once the teacher is approved (and the results cache sees it)', async () => {
    const teacher = await addTeacher(siteA, 'in_attesa');
    const [code] = await codes(staff, { schoolSiteId: siteA, count: 1, maxUses: 1 });
    expect(code).toBeDefined();
    const answers = await teacherAnswers();
    const before = await counted();
    const stamp = await resultsVersion(t.database.db, openSurveyId);
    const res = await teacher.client.post('/api/surveys/current/responses', { answers });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ message: SURVEY_MESSAGES.respondedPendingApproval });
    expect(await counted()).toBe(before);
    expect(await resultsVersion(t.database.db, openSurveyId)).toBe(stamp);
    await decide(teacher.profileId, 'approve');
    expect(await counted()).toBe(before + 1);
    expect(await resultsVersion(t.database.db, openSurveyId)).not.toBe(stamp);

    const approved = await addTeacher(siteA, 'approvata');
    const ok = await approved.client.post('/api/surveys/current/responses', { answers });
    expect(ok.json()).toMatchObject({ message: SURVEY_MESSAGES.responded });
    expect(await counted()).toBe(before + 2);
  });
});

describe('rejecting a teacher', () => {
  it('revokes their codes, takes them off the plesso’s lists and holds their codes’ answers and their own until staff decide', async () => {
    // Approved on A: codes, two class answers and their own; then a move to B puts them back in review, and staff reject.
    const teacher = await addTeacher(siteA, 'approvata');
    const [code, unused] = await codes(teacher.client, { count: 2, maxUses: 5 });
    t.clock.advance(86_400_000);
    expect((await answer(code!.code)).statusCode).toBe(201);
    expect((await answer(code!.code)).statusCode).toBe(201);
    expect(
      (
        await teacher.client.post('/api/surveys/current/responses', {
          answers: await teacherAnswers(),
        })
      ).statusCode,
    ).toBe(201);
    // A teacher registered on A and still pending is listed for the plesso until rejected.
    const newcomer = await addTeacher(siteA, 'in_attesa');
    const siteTeachers = async (siteId: number) =>
      (await listSiteTeachers(t.database.db, siteId)).map((r) => r.userId);
    expect(await siteTeachers(siteA)).toEqual(expect.arrayContaining([teacher.userId, newcomer.userId]));

    const before = await counted();
    expect(
      (await teacher.client.send('PATCH', '/api/account/profile', { payload: { schoolSiteId: siteB } }))
        .statusCode,
    ).toBe(200);
    await decide(teacher.profileId, 'reject');
    await decide(newcomer.profileId, 'reject');

    for (const c of [code!, unused!])
      expect((await (await guestClient(t)).get(`/api/access-codes/${c.code}`)).statusCode).toBe(404);
    expect(
      (await (await guestClient(t)).post(`/api/access-codes/${code!.code}/responses`, { answers: {} }))
        .statusCode,
    ).toBe(404);
    expect((await teacher.client.post('/api/access-codes', input())).json()).toMatchObject({
      message: ACCESS_CODE_MESSAGES.rejected,
    });
    expect(await counted()).toBe(before - 3);
    const [audit] = await sqlRows<{ after: { revokedCodeIds: number[]; heldResponses: number } }>(
      t,
      sql`select after from audit_log where action = 'teacher.rejected-codes-revoked' and entity_id = ${String(teacher.profileId)}`,
    );
    expect(audit!.after).toMatchObject({
      revokedCodeIds: expect.arrayContaining([code!.id, unused!.id]),
      heldResponses: 3,
    });

    // Off the plesso's lists: the detector's list (and its HTTP route), the substitution candidates and requests.
    for (const siteId of [siteA, siteB]) {
      expect(await siteTeachers(siteId)).not.toContain(teacher.userId);
      expect(await siteTeachers(siteId)).not.toContain(newcomer.userId);
    }
    const http = (await admin.get(`/api/school-sites/${siteA}/teachers`)).json<{
      items: { userId: number }[];
    }>();
    expect(http.items.map((r) => r.userId)).not.toContain(newcomer.userId);
    const candidates = (await candidatesOf(t.database.db, principalId)).sites.flatMap((s) =>
      s.teachers.map((x) => x.userId),
    );
    expect(candidates).not.toContain(newcomer.userId);
    expect(candidates).not.toContain(teacher.userId);
    expect(await teacherOfSite(t.database.db, newcomer.userId, siteA)).toBeUndefined();

    const detail = TeacherDetailSchema.parse((await staff.get(`/api/teachers/${teacher.profileId}`)).json());
    expect(detail).toMatchObject({ reviewState: 'respinta', heldResponses: 3 });

    // Staff count the class's answers again; the rejected teacher's own answer still does not count.
    const include = await staff.post(`/api/teachers/${teacher.profileId}/held-responses`, {
      decision: 'include',
    });
    expect(include.statusCode, include.body).toBe(200);
    expect(HeldResponsesDecidedSchema.parse(include.json())).toEqual({
      decision: 'include',
      count: 3,
      message: HELD_RESPONSE_MESSAGES.included(3),
    });
    expect(await counted()).toBe(before - 1);
    const again = await staff.post(`/api/teachers/${teacher.profileId}/held-responses`, {
      decision: 'discard',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'no_held_responses',
      message: HELD_RESPONSE_MESSAGES.nothingHeld,
    });
    const [decided] = await sqlRows<{ after: { decision: string; count: number } }>(
      t,
      sql`select after from audit_log where action = 'teacher.held-responses-decided' and entity_id = ${String(teacher.profileId)}`,
    );
    expect(decided!.after).toEqual({ decision: 'include', count: 3 });
  });

  it('staff may discard the held answers instead; the decision route: guest 401, teachers and detectors 403, unknown 404, bad decision 422', async () => {
    const teacher = await addTeacher(siteB, 'approvata');
    const [code] = await codes(teacher.client, { count: 1, maxUses: 5 });
    t.clock.advance(86_400_000);
    expect((await answer(code!.code)).statusCode).toBe(201);
    await t.database.db
      .update(teacherProfiles)
      .set({ reviewState: 'in_attesa' })
      .where(eq(teacherProfiles.id, teacher.profileId));
    await submitForReview(t.database.db, {
      type: 'insegnanti',
      subjectId: teacher.profileId,
      at: t.clock.now(),
    });
    const before = await counted();
    await decide(teacher.profileId, 'reject');
    expect(await counted()).toBe(before - 1);

    const url = `/api/teachers/${teacher.profileId}/held-responses`;
    expect((await (await guestClient(t)).post(url, { decision: 'include' })).statusCode).toBe(401);
    for (const email of ['insegnante@demo.test', 'rilevatore@demo.test', 'dirigente@demo.test']) {
      const client = new ApiClient(t, nextIp());
      await client.login(email);
      expect((await client.post(url, { decision: 'include' })).statusCode, email).toBe(403);
    }
    // The teacher themself cannot count their answers back in.
    expect((await teacher.client.post(url, { decision: 'include' })).statusCode).toBe(403);
    expect(
      (await staff.post('/api/teachers/987654/held-responses', { decision: 'include' })).statusCode,
    ).toBe(404);
    const bad = await staff.post(url, { decision: 'forse' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ errors: { decision: [HELD_RESPONSE_MESSAGES.decision] } });
    expect(await counted()).toBe(before - 1);

    const res = await admin.post(url, { decision: 'discard' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      decision: 'discard',
      count: 1,
      message: HELD_RESPONSE_MESSAGES.discarded(1),
    });
    expect(await counted()).toBe(before - 1);
    const [row] = await sqlRows<{ hold: string }>(
      t,
      sql`select hold from survey_responses where access_code_id = ${code!.id}`,
    );
    expect(row!.hold).toBe('scartata');
  });
});
