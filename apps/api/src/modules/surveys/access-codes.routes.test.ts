import { sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_CODE_MESSAGES,
  ACCESS_CODES_PER_REQUEST_MAX,
  AccessCodeListResponseSchema,
  AccessCodesCreatedSchema,
  AccessCodeSummarySchema,
  DEMO_ACCESS_CODE,
  PublicAccessCodeSchema,
  type AccessCodeSummary,
} from '@portale/shared/surveys';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { institutes, schoolSites } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp, sqlRows } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp, guestClient } from '../../../test/http-client.ts';
import { ACCESS_CODE_SHEET_TEMPLATE_KEY } from './surveys.templates.ts';
import { DEMO_ACCESS_CODE_USES, DEMO_CODES_TEACHER, seedDemoAccessCodes } from './access-codes-seed.ts';
import { ACCESS_CODE_RATE_LIMITS } from './access-codes.routes.ts';
import { seedDemoSurveys } from './surveys-seed.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const staff = () => as('sylla@demo.test');
const teacher = () => as(DEMO_CODES_TEACHER);
const STAFF = new Set(['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test']);
let openSurveyId = 0;
let closedSurveyId = 0;
let closesOn = '';
let ownSite = 0;
let otherSite = 0;

/** Rome's calendar date `days` after the test clock. */
const day = (days: number) =>
  new Date(t.clock.now().getTime() + days * 86_400_000).toLocaleDateString('sv-SE', {
    timeZone: 'Europe/Rome',
  });

const input = (overrides: Record<string, unknown> = {}) => ({
  surveyId: openSurveyId,
  classLabel: '2ª C',
  count: 2,
  maxUses: 20,
  expiresOn: day(10),
  ...overrides,
});

async function createAs(
  client: ApiClient,
  overrides: Record<string, unknown> = {},
): Promise<AccessCodeSummary[]> {
  const res = await client.post('/api/access-codes', input(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return AccessCodesCreatedSchema.parse(res.json()).items;
}

/** Answers valid for the open demo survey (its required questions answered). */
async function validAnswers(code: string): Promise<Record<string, unknown>> {
  const res = await (await guestClient(t)).get(`/api/access-codes/${code}`);
  expect(res.statusCode, res.body).toBe(200);
  const { survey } = PublicAccessCodeSchema.parse(res.json());
  const answers: Record<string, unknown> = {};
  for (const q of survey.questions) {
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

const usesOf = async (id: number) =>
  Number((await sqlRows<{ uses: number }>(t, sql`select uses from access_codes where id = ${id}`))[0]!.uses);
const responsesOf = async (id: number) =>
  Number(
    (
      await sqlRows<{ n: string }>(
        t,
        sql`select count(*) as n from survey_responses where access_code_id = ${id}`,
      )
    )[0]!.n,
  );

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const [a, b] = await db.select({ id: institutes.id }).from(institutes).orderBy(institutes.ministryCode);
  const sites = await db
    .insert(schoolSites)
    .values(
      [a!.id, b!.id].map((instituteId, i) => ({
        ministryCode: `RMEE8AB0${i}X`,
        instituteId,
        name: `Plesso di prova ${i + 1}`,
        schoolLevel: 'primaria' as const,
        typeLabel: 'Scuola primaria',
        municipalityCode: 'H501',
        municipalityName: 'Roma',
        province: 'RM',
        region: 'Lazio',
        participating: i === 0,
      })),
    )
    .returning({ id: schoolSites.id });
  ownSite = sites[0]!.id;
  otherSite = sites[1]!.id;
  ({ openId: openSurveyId, closedId: closedSurveyId } = await seedDemoSurveys(db, t.clock.now()));
  closesOn = (
    await sqlRows<{ closes_on: string }>(
      t,
      sql`select closes_on::text from surveys where id = ${openSurveyId}`,
    )
  )[0]!.closes_on;
  // The demo teacher gets the participating plesso and three class codes; PROVA01 is there.
  expect(await seedDemoAccessCodes(db, t.clock.now())).toBe(DEMO_ACCESS_CODE);
  for (const account of DEMO_ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    expect((await client.login(account.email)).statusCode, account.email).toBe(200);
    clients.set(account.email, client);
  }
}, 120_000);
afterAll(() => t.close());

describe('a teacher’s and staff’s codes', () => {
  it('every role: staff and the teacher allowed, guest 401, the others 403', async () => {
    const [own] = await createAs(teacher());
    const calls: [string, string][] = [
      ['GET', '/api/access-codes'],
      ['GET', '/api/access-codes/export?format=csv'],
      ['GET', '/api/access-codes/options'],
      ['GET', `/api/access-codes/sheet.pdf?ids=${own!.id}`],
    ];
    for (const [method, url] of calls) {
      expect((await (await guestClient(t)).send(method as 'GET', url)).statusCode, url).toBe(401);
      for (const account of DEMO_ACCOUNTS) {
        const res = await as(account.email).send(method as 'GET', url);
        const allowed = STAFF.has(account.email) || account.email === DEMO_CODES_TEACHER;
        expect(res.statusCode, `${method} ${url} ${account.email}`).toBe(allowed ? 200 : 403);
      }
    }
    expect((await (await guestClient(t)).post('/api/access-codes', input())).statusCode).toBe(401);
    expect((await as('rilevatore@demo.test').post('/api/access-codes', input())).statusCode).toBe(403);
    expect((await as('dirigente@demo.test').post(`/api/access-codes/${own!.id}/revoke`)).statusCode).toBe(
      403,
    );
    expect((await (await guestClient(t)).post(`/api/access-codes/${own!.id}/revoke`)).statusCode).toBe(401);
  });

  it('a teacher creates codes for their own plesso (audited); the list shows them theirs, staff every code', async () => {
    const made = await createAs(teacher(), { count: 3, maxUses: 25, classLabel: '4ª A' });
    expect(made).toHaveLength(3);
    for (const c of made) {
      expect(c.code).toMatch(/^[A-Za-z0-9]{7}$/);
      expect(c).toMatchObject({
        schoolSiteId: ownSite,
        classLabel: '4ª A',
        maxUses: 25,
        uses: 0,
        state: 'usable',
        surveyId: openSurveyId,
      });
      expect(c.ownerUserId).not.toBeNull();
    }
    expect(new Set(made.map((c) => c.code)).size).toBe(3);
    const [audit] = await sqlRows<{ action: string; after: { ids: number[] } }>(
      t,
      sql`select action, after from audit_log where entity = 'access-code' and entity_id = ${String(made[0]!.id)}`,
    );
    expect(audit).toMatchObject({ action: 'access-code.created', after: { ids: made.map((c) => c.id) } });

    const staffMade = await createAs(staff(), { schoolSiteId: otherSite, count: 1 });
    expect(staffMade[0]).toMatchObject({ schoolSiteId: otherSite, ownerUserId: null });

    const mine = AccessCodeListResponseSchema.parse(
      (await teacher().get('/api/access-codes?pageSize=100')).json(),
    );
    expect(mine.items.every((c) => c.ownerUserId === mine.items[0]!.ownerUserId)).toBe(true);
    expect(mine.items.map((c) => c.id)).toEqual(expect.arrayContaining(made.map((c) => c.id)));
    expect(mine.items.map((c) => c.id)).not.toContain(staffMade[0]!.id);
    const all = AccessCodeListResponseSchema.parse(
      (await staff().get('/api/access-codes?pageSize=100')).json(),
    );
    expect(all.total).toBeGreaterThan(mine.total);
    expect(all.items.map((c) => c.id)).toContain(staffMade[0]!.id);

    const filtered = AccessCodeListResponseSchema.parse(
      (await teacher().get('/api/access-codes?q=4ª A&state=usable&sort=-uses')).json(),
    );
    expect(filtered.items.map((c) => c.id).sort()).toEqual(made.map((c) => c.id).sort());
    expect((await teacher().get('/api/access-codes?state=altro')).statusCode).toBe(422);

    const options = (await teacher().get('/api/access-codes/options')).json<{
      surveys: { id: number }[];
      schoolSite: { id: number } | null;
    }>();
    expect(options.surveys.map((s) => s.id)).toEqual([openSurveyId]);
    expect(options.schoolSite?.id).toBe(ownSite);
    expect((await staff().get('/api/access-codes/options')).json()).toMatchObject({ schoolSite: null });

    const csv = await teacher().get('/api/access-codes/export?format=csv&q=4ª A');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.trim().split('\r\n')).toHaveLength(4);
  });

  it('a teacher cannot make codes for another plesso (403); staff must name one (422)', async () => {
    expect((await teacher().post('/api/access-codes', input({ schoolSiteId: otherSite }))).statusCode).toBe(
      403,
    );
    expect((await teacher().post('/api/access-codes', input({ schoolSiteId: 987654 }))).statusCode).toBe(403);
    expect((await teacher().post('/api/access-codes', input({ schoolSiteId: ownSite }))).statusCode).toBe(
      201,
    );
    const missing = await staff().post('/api/access-codes', input());
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ errors: { schoolSiteId: [ACCESS_CODE_MESSAGES.schoolSite] } });
    const unknown = await staff().post('/api/access-codes', input({ schoolSiteId: 987654 }));
    expect(unknown.json()).toMatchObject({
      errors: { schoolSiteId: [ACCESS_CODE_MESSAGES.schoolSiteUnknown] },
    });
  });

  it('refuses bad input per field and writes nothing', async () => {
    const [before] = await sqlRows<{ n: string }>(t, sql`select count(*) as n from access_codes`);
    const bad = await teacher().post(
      '/api/access-codes',
      input({ count: 0, maxUses: 501, classLabel: '', expiresOn: '2026-02-30' }),
    );
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json<{ errors: Record<string, string[]> }>().errors).sort()).toEqual([
      'classLabel',
      'count',
      'expiresOn',
      'maxUses',
    ]);
    expect(
      (await teacher().post('/api/access-codes', input({ count: ACCESS_CODES_PER_REQUEST_MAX + 1 })))
        .statusCode,
    ).toBe(422);
    const late = await teacher().post('/api/access-codes', input({ expiresOn: day(400) }));
    expect(late.json()).toMatchObject({
      errors: {
        expiresOn: [ACCESS_CODE_MESSAGES.expiresAfterClose(closesOn.split('-').reverse().join('/'))],
      },
    });
    const past = await teacher().post('/api/access-codes', input({ expiresOn: day(-1) }));
    expect(past.json()).toMatchObject({ errors: { expiresOn: [ACCESS_CODE_MESSAGES.expiresInPast] } });
    const closed = await teacher().post('/api/access-codes', input({ surveyId: closedSurveyId }));
    expect(closed.json()).toMatchObject({ errors: { surveyId: [ACCESS_CODE_MESSAGES.surveyNotOpen] } });
    expect((await teacher().post('/api/access-codes', { ...input(), extra: 1 })).statusCode).toBe(400);
    const [after] = await sqlRows<{ n: string }>(t, sql`select count(*) as n from access_codes`);
    expect(after!.n).toBe(before!.n);
    // The last day allowed is the survey's closing day; the code works until the midnight after it.
    const [last] = await createAs(teacher(), { expiresOn: closesOn, count: 1 });
    expect(new Date(last!.expiresAt).toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' })).not.toBe(
      closesOn,
    );
    expect(
      new Date(new Date(last!.expiresAt).getTime() - 1).toLocaleDateString('sv-SE', {
        timeZone: 'Europe/Rome',
      }),
    ).toBe(closesOn);
  });

  it('revokes a code (audited): once, only the owner or staff, unknown 404', async () => {
    const [code] = await createAs(teacher(), { count: 1 });
    const [staffCode] = await createAs(staff(), { count: 1, schoolSiteId: ownSite });
    expect((await teacher().post(`/api/access-codes/${staffCode!.id}/revoke`)).statusCode).toBe(403);
    const res = await teacher().post(`/api/access-codes/${code!.id}/revoke`);
    expect(res.statusCode, res.body).toBe(200);
    expect(AccessCodeSummarySchema.parse(res.json())).toMatchObject({ state: 'revoked' });
    const again = await teacher().post(`/api/access-codes/${code!.id}/revoke`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: ACCESS_CODE_MESSAGES.alreadyRevoked });
    expect((await staff().post(`/api/access-codes/${staffCode!.id}/revoke`)).statusCode).toBe(200);
    expect((await staff().post('/api/access-codes/987654/revoke')).statusCode).toBe(404);
    const [audit] = await sqlRows<{ action: string }>(
      t,
      sql`select action from audit_log where entity = 'access-code' and entity_id = ${String(code!.id)} and action = 'access-code.revoked'`,
    );
    expect(audit).toBeDefined();
    expect((await (await guestClient(t)).get(`/api/access-codes/${code!.code}`)).statusCode).toBe(404);
  });

  it('prints the sheet as a PDF; only the caller’s own codes, unknown 404, bad ids 422', async () => {
    const made = await createAs(teacher(), { count: 9 });
    const res = await teacher().get(`/api/access-codes/sheet.pdf?ids=${made.map((c) => c.id).join(',')}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="codici-di-accesso-\d{4}-\d{2}-\d{2}\.pdf"/,
    );
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(res.rawPayload.length).toBeGreaterThan(2000);
    const [staffCode] = await createAs(staff(), { count: 1, schoolSiteId: ownSite });
    expect(
      (await teacher().get(`/api/access-codes/sheet.pdf?ids=${made[0]!.id},${staffCode!.id}`)).statusCode,
    ).toBe(403);
    expect(
      (await staff().get(`/api/access-codes/sheet.pdf?ids=${made[0]!.id},${staffCode!.id}`)).statusCode,
    ).toBe(200);
    expect((await teacher().get(`/api/access-codes/sheet.pdf?ids=${made[0]!.id},987654`)).statusCode).toBe(
      404,
    );
    expect((await teacher().get('/api/access-codes/sheet.pdf?ids=uno')).statusCode).toBe(422);
    expect((await teacher().get('/api/access-codes/sheet.pdf')).statusCode).toBe(422);
  });

  it('is rendered from the stored template documento.codici-accesso: an edit changes the next sheet, the preview is the sheet', async () => {
    const admin = as('superadmin@demo.test');
    const current = await admin.get(`/api/templates/${ACCESS_CODE_SHEET_TEMPLATE_KEY}`);
    expect(current.statusCode, current.body).toBe(200);
    const saved = await admin.send('PUT', `/api/templates/${ACCESS_CODE_SHEET_TEMPLATE_KEY}`, {
      payload: {
        baseVersion: current.json().version,
        subject: 'Codici della classe',
        textBody: 'Rispondi a {{surveyTitle}} con {{code}} entro il {{lastDay}}.',
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const [made] = await createAs(teacher(), { count: 1 });
    const sheet = await teacher().get(`/api/access-codes/sheet.pdf?ids=${made!.id}`);
    expect((await PDFDocument.load(sheet.rawPayload)).getTitle()).toBe('Codici della classe');
    const unknown = await admin.send('PUT', `/api/templates/${ACCESS_CODE_SHEET_TEMPLATE_KEY}`, {
      payload: { baseVersion: saved.json().version, subject: 'Codici', textBody: 'Ciao {{firstName}}' },
    });
    expect(unknown.statusCode).toBe(422);
    const preview = await admin.post(`/api/templates/${ACCESS_CODE_SHEET_TEMPLATE_KEY}/preview`, {
      subject: 'Anteprima dei codici',
      textBody: 'Usa {{code}}.',
    });
    expect(preview.headers['content-type']).toMatch(/^application\/pdf/);
    expect((await PDFDocument.load(preview.rawPayload)).getTitle()).toBe('Anteprima dei codici');
  });
});

describe('the public questionnaire of a code', () => {
  it('a valid code opens its survey and plesso; malformed, unknown, expired, revoked or used up: one identical 404', async () => {
    const [valid, expired, exhausted, revoked] = await createAs(teacher(), { count: 4, maxUses: 2 });
    const ok = await (await guestClient(t)).get(`/api/access-codes/${valid!.code}`);
    expect(ok.statusCode).toBe(200);
    const opened = PublicAccessCodeSchema.parse(ok.json());
    expect(opened).toMatchObject({
      code: valid!.code,
      classLabel: '2ª C',
      schoolSite: { name: 'Plesso di prova 1', municipality: 'Roma' },
      survey: { id: openSurveyId },
    });
    expect(opened.survey.questions.length).toBeGreaterThan(0);
    expect(ok.headers['cache-control']).toBe('no-store');

    await t.database.db.execute(
      sql`update access_codes set expires_at = ${t.clock.now()} where id = ${expired!.id}`,
    );
    await t.database.db.execute(sql`update access_codes set uses = max_uses where id = ${exhausted!.id}`);
    expect((await teacher().post(`/api/access-codes/${revoked!.id}/revoke`)).statusCode).toBe(200);
    const unknownCode = valid!.code === 'Zz9Zz9Z' ? 'Zz9Zz9Y' : 'Zz9Zz9Z';
    const bodies = [];
    for (const code of [
      unknownCode,
      expired!.code,
      exhausted!.code,
      revoked!.code,
      'abc',
      'abc-123',
      'abcdefgh',
      'abc.123',
    ]) {
      for (const method of ['GET', 'POST'] as const) {
        const client = await guestClient(t);
        const res =
          method === 'GET'
            ? await client.get(`/api/access-codes/${code}`)
            : await client.post(`/api/access-codes/${code}/responses`, { answers: {} });
        expect(res.statusCode, `${method} ${code}`).toBe(404);
        bodies.push(res.json());
      }
    }
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(bodies[0]).toMatchObject({ message: ACCESS_CODE_MESSAGES.notFound });
    // A closed survey's codes open nothing either.
    await t.database.db.execute(
      sql`update access_codes set survey_id = ${closedSurveyId} where id = ${valid!.id}`,
    );
    expect((await (await guestClient(t)).get(`/api/access-codes/${valid!.code}`)).json()).toEqual(bodies[0]);
  });

  it('codes are typed in any case; new ones have no look-alike characters; older codes keep working (decision 037)', async () => {
    const made = await createAs(teacher(), { count: 20, maxUses: 3 });
    for (const c of made) expect(c.code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{7}$/);
    const typed = made[0]!.code.toLowerCase();
    const opened = await (await guestClient(t)).get(`/api/access-codes/${typed}`);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(PublicAccessCodeSchema.parse(opened.json()).code).toBe(made[0]!.code);
    const answers = await validAnswers(typed);
    expect(
      (await (await guestClient(t)).post(`/api/access-codes/${typed}/responses`, { answers })).statusCode,
    ).toBe(201);
    expect(await usesOf(made[0]!.id)).toBe(1);
    // The seed's code, made before, in any case.
    expect(
      (await (await guestClient(t)).get(`/api/access-codes/${DEMO_ACCESS_CODE.toLowerCase()}`)).json(),
    ).toMatchObject({ code: DEMO_ACCESS_CODE });
    // Two older codes differing only by case: each opens as written; typed another way they are ambiguous (the same 404).
    const expires = new Date(t.clock.now().getTime() + 5 * 86_400_000);
    await t.database.db.execute(
      sql`insert into access_codes (code, survey_id, school_site_id, max_uses, expires_at) values ('AbCdEf7', ${openSurveyId}, ${ownSite}, 5, ${expires}), ('aBcDeF7', ${openSurveyId}, ${otherSite}, 5, ${expires})`,
    );
    expect((await (await guestClient(t)).get('/api/access-codes/AbCdEf7')).json()).toMatchObject({
      code: 'AbCdEf7',
      schoolSite: { name: 'Plesso di prova 1' },
    });
    expect((await (await guestClient(t)).get('/api/access-codes/aBcDeF7')).json()).toMatchObject({
      code: 'aBcDeF7',
      schoolSite: { name: 'Plesso di prova 2' },
    });
    const ambiguous = await (await guestClient(t)).get('/api/access-codes/ABCDEF7');
    expect(ambiguous.statusCode).toBe(404);
    expect(ambiguous.json()).toMatchObject({ message: ACCESS_CODE_MESSAGES.notFound });
  });

  it('invalid answers: 422 per question, no use taken, nothing written; valid: 201, one use, one response for the plesso', async () => {
    const [code] = await createAs(teacher(), { count: 1, maxUses: 2 });
    const answers = await validAnswers(code!.code);
    const opened = PublicAccessCodeSchema.parse(
      (await (await guestClient(t)).get(`/api/access-codes/${code!.code}`)).json(),
    );
    const required = opened.survey.questions.find((q) => q.required)!;
    const short = opened.survey.questions.find((q) => q.type === 'testo_breve')!;
    const bad = await (
      await guestClient(t)
    ).post(`/api/access-codes/${code!.code}/responses`, {
      answers: {
        ...answers,
        [String(required.id)]: undefined,
        [String(short.id)]: 'x'.repeat(201),
        '999999': 'x',
      },
    });
    expect(bad.statusCode).toBe(422);
    const errors = bad.json<{ errors: Record<string, string[]> }>().errors;
    expect(Object.keys(errors).sort()).toEqual(
      [`answers.${required.id}`, `answers.${short.id}`, 'answers.999999'].sort(),
    );
    expect(
      (
        await (
          await guestClient(t)
        ).post(`/api/access-codes/${code!.code}/responses`, { answers: 'tutto bene' })
      ).statusCode,
    ).toBe(422);
    expect(await usesOf(code!.id)).toBe(0);
    expect(await responsesOf(code!.id)).toBe(0);

    const ok = await (await guestClient(t)).post(`/api/access-codes/${code!.code}/responses`, { answers });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toEqual({ message: ACCESS_CODE_MESSAGES.thanks });
    expect(await usesOf(code!.id)).toBe(1);
    const [stored] = await sqlRows<{
      school_site_id: number | string;
      user_id: number | null;
      survey_id: number | string;
    }>(
      t,
      sql`select school_site_id, user_id, survey_id from survey_responses where access_code_id = ${code!.id}`,
    );
    expect({
      site: Number(stored!.school_site_id),
      user: stored!.user_id,
      survey: Number(stored!.survey_id),
    }).toEqual({ site: ownSite, user: null, survey: openSurveyId });

    // The second and last use, then the code opens nothing.
    expect(
      (await (await guestClient(t)).post(`/api/access-codes/${code!.code}/responses`, { answers }))
        .statusCode,
    ).toBe(201);
    expect(
      (await (await guestClient(t)).post(`/api/access-codes/${code!.code}/responses`, { answers }))
        .statusCode,
    ).toBe(404);
    expect((await (await guestClient(t)).get(`/api/access-codes/${code!.code}`)).statusCode).toBe(404);
    expect(await responsesOf(code!.id)).toBe(2);
  });

  it('50 concurrent submissions on a code with 3 uses left: exactly 3 accepted, the others the same 404', async () => {
    const [code] = await createAs(teacher(), { count: 1, maxUses: 10 });
    const answers = await validAnswers(code!.code);
    await t.database.db.execute(sql`update access_codes set uses = 7 where id = ${code!.id}`);
    const guests = await Promise.all(Array.from({ length: 50 }, () => guestClient(t)));
    const results = await Promise.all(
      guests.map((g) => g.post(`/api/access-codes/${code!.code}/responses`, { answers })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.filter((c) => c === 404)).toHaveLength(47);
    expect(await usesOf(code!.id)).toBe(10);
    expect(await responsesOf(code!.id)).toBe(3);
  }, 120_000);

  it('limits each public endpoint per IP with a clear Italian 429', async () => {
    const client = await guestClient(t);
    for (let i = 0; i < ACCESS_CODE_RATE_LIMITS.read.max; i++)
      await client.get(`/api/access-codes/Zz${String(i).padStart(5, '0')}`);
    const res = await client.get('/api/access-codes/Zz99999');
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ message: ACCESS_CODE_MESSAGES.rateLimited });
    expect(res.headers['retry-after']).toBeDefined();

    const poster = await guestClient(t);
    for (let i = 0; i < ACCESS_CODE_RATE_LIMITS.submit.max; i++)
      await poster.post('/api/access-codes/Zz00000/responses', { answers: {} });
    const refused = await poster.post('/api/access-codes/Zz00000/responses', { answers: {} });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ message: ACCESS_CODE_MESSAGES.rateLimited });
  });
});

describe('seedDemoAccessCodes', () => {
  it('PROVA01 opens the open survey with many uses; the demo teacher has class codes; safe to run twice', async () => {
    await seedDemoAccessCodes(t.database.db, t.clock.now());
    const [demo] = await sqlRows<{ max_uses: number; survey_id: string | number; owner_user_id: unknown }>(
      t,
      sql`select max_uses, survey_id, owner_user_id from access_codes where code = ${DEMO_ACCESS_CODE}`,
    );
    expect({ maxUses: demo!.max_uses, survey: Number(demo!.survey_id) }).toEqual({
      maxUses: DEMO_ACCESS_CODE_USES,
      survey: openSurveyId,
    });
    const [{ n }] = (await sqlRows<{ n: string }>(
      t,
      sql`select count(*) as n from access_codes where code = ${DEMO_ACCESS_CODE}`,
    )) as [{ n: string }];
    expect(Number(n)).toBe(1);
    const res = await (await guestClient(t)).get(`/api/access-codes/${DEMO_ACCESS_CODE}`);
    expect(res.statusCode).toBe(200);
    const classes = await sqlRows<{ class_label: string }>(
      t,
      sql`select distinct class_label from access_codes a join users u on u.id = a.owner_user_id where u.email = ${DEMO_CODES_TEACHER} and a.created_by_user_id = a.owner_user_id and a.class_label like '%ª%' and a.created_at = (select min(created_at) from access_codes where owner_user_id = u.id)`,
    );
    expect(classes.map((c) => c.class_label).sort()).toEqual(['3ª A', '3ª B', '5ª A']);
  });
});
