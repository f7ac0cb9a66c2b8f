import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTION_EVIDENCE_FILE_MAX_BYTES,
  ACTION_EVIDENCE_TEXT_MAX,
  ActionBulkPreviewResultSchema,
  ActionBulkResultSchema,
  ActionDetailSchema,
  ActionListResponseSchema,
  ActionModelListResponseSchema,
  ActionModelSchema,
  MyActionsResponseSchema,
} from '@portale/shared/actions';
import { actions, auditLog, institutes, schoolSites, teacherProfiles, users } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { seedDemoActions } from './actions-seed.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const admin = () => as('superadmin@demo.test');
const staff = () => as('sylla@demo.test');
const principal = () => as('dirigente@demo.test');
const firstContact = () => as('referente@demo.test');
const teacher = () => as('insegnante@demo.test');
const ALL = [
  'superadmin@demo.test',
  'sylla@demo.test',
  'cromos@demo.test',
  'rilevatore@demo.test',
  'dirigente@demo.test',
  'referente@demo.test',
  'insegnante@demo.test',
  'utenti@demo.test',
];
const guest = () => new ApiClient(t, nextIp());
/** A guest with the CSRF cookie: a write then reaches the session check. */
async function csrfGuest() {
  const client = guest();
  await client.csrf();
  return client;
}

let ownInstituteId: number;
let otherInstituteId: number;
let ownSiteId: number;
let teacherUserId: number;

const PDF = Buffer.from('%PDF-1.4\n% prova\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n', 'latin1');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

async function userId(email: string) {
  const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

async function createModel(body: Record<string, unknown>) {
  const res = await admin().post('/api/action-models', {
    title: 'Modello',
    category: 'Formazione',
    defaultDurationDays: 30,
    evidence: 'nessuna',
    target: 'istituto',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return ActionModelSchema.parse(res.json());
}

/** Assigns one action from `modelId` to `targetIds` and returns its id. */
async function assignOne(modelId: number, targetId: number) {
  const res = await staff().post('/api/actions/bulk', { modelId, targetIds: [targetId], expectedCount: 1 });
  expect(res.statusCode, res.body).toBe(200);
  const [row] = await t.database.db
    .select({ id: actions.id })
    .from(actions)
    .where(
      sql`${actions.modelId} = ${modelId} and coalesce(${actions.instituteId}, ${actions.schoolSiteId}, ${actions.teacherUserId}) = ${targetId}`,
    );
  return row!.id;
}

const upload = (
  client: ApiClient,
  actionId: number,
  content: Buffer,
  type = 'application/pdf',
  filename = 'prova.pdf',
) =>
  client.send('POST', `/api/actions/${actionId}/evidence?filename=${encodeURIComponent(filename)}`, {
    payload: content,
    headers: { 'content-type': type },
  });

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const rows = await db
    .select({ id: institutes.id, code: institutes.ministryCode })
    .from(institutes)
    .orderBy(institutes.ministryCode);
  ownInstituteId = rows.find((r) => r.code === 'RMIC8AB00X')!.id;
  otherInstituteId = rows.find((r) => r.code === 'RMIC8AC00Y')!.id;
  // 30 more institutes in Lombardia (10 in PV, 20 in MI), 5 of them `attivo`; plessi of the demo institute.
  await db.insert(institutes).values(
    Array.from({ length: 30 }, (_, i) => ({
      ministryCode: `MIAC${String(i).padStart(5, '0')}X`,
      name: `Istituto lombardo ${i}`,
      type: 'Istituto Comprensivo',
      isStateSchool: true,
      region: 'Lombardia',
      province: i < 10 ? 'PV' : 'MI',
      municipalityCode: i < 10 ? 'G388' : 'F205',
      municipalityName: i < 10 ? 'Pavia' : 'Milano',
      adhesionState: i < 5 ? ('attivo' as const) : ('nessuna' as const),
    })),
  );
  const sites = await db
    .insert(schoolSites)
    .values(
      Array.from({ length: 4 }, (_, i) => ({
        ministryCode: `ACPL${String(i).padStart(6, '0')}`,
        instituteId: ownInstituteId,
        name: `Plesso azioni ${i}`,
        schoolLevel: 'primaria' as const,
        typeLabel: 'Scuola primaria',
        municipalityCode: 'H501',
        municipalityName: 'Roma',
        province: 'RM',
        region: 'Lazio',
        participating: i < 3,
      })),
    )
    .returning({ id: schoolSites.id });
  ownSiteId = sites[0]!.id;
  teacherUserId = await userId('insegnante@demo.test');
  await db
    .insert(teacherProfiles)
    .values({
      userId: teacherUserId,
      kind: 'insegnante',
      schoolSiteId: ownSiteId,
      subjects: ['Matematica'],
      reviewState: 'approvata',
    })
    .onConflictDoNothing();
  for (const email of ALL) {
    const client = new ApiClient(t, nextIp());
    await client.login(email);
    clients.set(email, client);
  }
}, 180_000);
afterAll(() => t.close());

describe('action models', () => {
  it('the super-admin creates and edits a model; staff read it; others are refused', async () => {
    const model = await createModel({ title: 'Nomina del referente', target: 'istituto', evidence: 'testo' });
    expect(model).toMatchObject({ title: 'Nomina del referente', active: true, actionCount: 0 });
    expect((await staff().post('/api/action-models', { title: 'x' })).statusCode).toBe(403);
    expect((await (await csrfGuest()).post('/api/action-models', {})).statusCode).toBe(401);
    expect((await principal().get('/api/action-models')).statusCode).toBe(403);
    const list = ActionModelListResponseSchema.parse(
      (await staff().get('/api/action-models?q=referente')).json(),
    );
    expect(list.items.map((m) => m.id)).toContain(model.id);
    // Edit and deactivate (never delete); both audited.
    const patched = await admin().send('PATCH', `/api/action-models/${model.id}`, {
      payload: { defaultDurationDays: 15, active: false },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ defaultDurationDays: 15, active: false });
    expect(
      (await staff().send('PATCH', `/api/action-models/${model.id}`, { payload: { active: true } }))
        .statusCode,
    ).toBe(403);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.entity, 'action-model'));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['action-model.created', 'action-model.deactivated']),
    );
    // An inactive model assigns nothing.
    const bulk = await staff().post('/api/actions/bulk/preview', {
      modelId: model.id,
      filter: { region: 'Lombardia' },
    });
    expect(bulk.statusCode).toBe(422);
    expect(bulk.json().errors.modelId).toBeDefined();
    expect((await admin().get('/api/action-models/987654')).statusCode).toBe(404);
  });

  it('refuses bad input with per-field Italian messages; the target cannot change', async () => {
    const res = await admin().post('/api/action-models', {
      title: 'x',
      category: '',
      target: 'classe',
      defaultDurationDays: 0,
      evidence: 'foto',
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual([
      'category',
      'defaultDurationDays',
      'evidence',
      'target',
      'title',
    ]);
    const model = await createModel({ title: 'Modello fisso' });
    expect(
      (await admin().send('PATCH', `/api/action-models/${model.id}`, { payload: { target: 'plesso' } }))
        .statusCode,
    ).toBe(400);
  });
});

describe('bulk assignment', () => {
  it('previews the count, refuses a changed count (409), creates in one go and is idempotent', async () => {
    const model = await createModel({ title: 'Questionario istituti lombardi', target: 'istituto' });
    const preview = await staff().post('/api/actions/bulk/preview', {
      modelId: model.id,
      filter: { region: 'Lombardia' },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const counted = ActionBulkPreviewResultSchema.parse(preview.json());
    expect(counted).toMatchObject({ matched: 30, existing: 0, toCreate: 30 });
    expect(counted.dueOn).toBe('2026-12-21');
    // Adhesion state and province filters.
    expect(
      (
        await staff().post('/api/actions/bulk/preview', {
          modelId: model.id,
          filter: { region: 'Lombardia', adhesionState: 'attivo' },
        })
      ).json(),
    ).toMatchObject({ matched: 5 });
    expect(
      (
        await staff().post('/api/actions/bulk/preview', { modelId: model.id, filter: { province: 'PV' } })
      ).json(),
    ).toMatchObject({ matched: 10 });
    // A filter of another target is refused.
    const wrong = await staff().post('/api/actions/bulk/preview', {
      modelId: model.id,
      filter: { participating: true },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors['filter.participating']).toBeDefined();
    // The count changed since the preview: 409, nothing written.
    const stale = await staff().post('/api/actions/bulk', {
      modelId: model.id,
      filter: { region: 'Lombardia' },
      expectedCount: 29,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/cambiato/);
    expect(
      (
        await t.database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(actions)
          .where(eq(actions.modelId, model.id))
      )[0]!.n,
    ).toBe(0);
    // Confirmed.
    const done = await staff().post('/api/actions/bulk', {
      modelId: model.id,
      filter: { region: 'Lombardia' },
      expectedCount: 30,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(ActionBulkResultSchema.parse(done.json())).toMatchObject({
      matched: 30,
      created: 30,
      existing: 0,
      dueOn: '2026-12-21',
    });
    // A retry creates nothing more.
    const retry = await staff().post('/api/actions/bulk', {
      modelId: model.id,
      filter: { region: 'Lombardia' },
      expectedCount: 30,
    });
    expect(retry.json()).toMatchObject({ matched: 30, created: 0, existing: 30 });
    expect(
      (
        await t.database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(actions)
          .where(eq(actions.modelId, model.id))
      )[0]!.n,
    ).toBe(30);
    // The preview now says every target already has one.
    expect(
      (
        await staff().post('/api/actions/bulk/preview', {
          modelId: model.id,
          filter: { region: 'Lombardia' },
        })
      ).json(),
    ).toMatchObject({ matched: 30, existing: 30, toCreate: 0 });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'action.bulk-assigned'));
    expect(audit.length).toBeGreaterThanOrEqual(2);
  });

  it('assigns to plessi and teachers by their filters and to an explicit list; refuses unknown ids and a past due date', async () => {
    const sites = await createModel({ title: 'Plessi partecipanti', target: 'plesso' });
    expect(
      (
        await staff().post('/api/actions/bulk/preview', {
          modelId: sites.id,
          filter: { region: 'Lazio', participating: true },
        })
      ).json(),
    ).toMatchObject({ matched: 3 });
    const teachers = await createModel({ title: 'Insegnanti approvati', target: 'insegnante' });
    expect(
      (
        await staff().post('/api/actions/bulk/preview', {
          modelId: teachers.id,
          filter: { region: 'Lazio', reviewState: 'approvata' },
        })
      ).json(),
    ).toMatchObject({ matched: 1 });
    const unknown = await staff().post('/api/actions/bulk/preview', {
      modelId: sites.id,
      targetIds: [ownSiteId, 987_654],
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.targetIds).toBeDefined();
    const past = await staff().post('/api/actions/bulk', {
      modelId: sites.id,
      targetIds: [ownSiteId],
      expectedCount: 1,
      dueOn: '2020-01-01',
    });
    expect(past.statusCode).toBe(422);
    expect(past.json().errors.dueOn).toBeDefined();
    const both = await staff().post('/api/actions/bulk/preview', {
      modelId: sites.id,
      targetIds: [ownSiteId],
      filter: { region: 'Lazio' },
    });
    expect(both.statusCode).toBe(422);
    const ok = await staff().post('/api/actions/bulk', {
      modelId: sites.id,
      targetIds: [ownSiteId],
      expectedCount: 1,
      dueOn: '2027-01-31',
    });
    expect(ok.json()).toMatchObject({ created: 1, dueOn: '2027-01-31' });
  });

  it('never reaches a teacher whose registration is rejected, and by default only approved ones (issue 32)', async () => {
    const model = await createModel({ title: 'Insegnanti del plesso', target: 'insegnante' });
    const preview = (body: Record<string, unknown>) =>
      staff().post('/api/actions/bulk/preview', { modelId: model.id, ...body });
    const approvedIn = async (region: string) => {
      const rows = (await t.database.db.execute(sql`
        select count(*)::int as n from teacher_profiles tp left join school_sites s on s.id = tp.school_site_id
        where tp.kind in ('insegnante', 'educatore') and tp.review_state = 'approvata' and s.region = ${region}`)) as unknown as {
        rows: { n: number }[];
      };
      return Number(rows.rows[0]!.n);
    };
    const [profile] = await t.database.db
      .select({ state: teacherProfiles.reviewState, region: schoolSites.region })
      .from(teacherProfiles)
      .innerJoin(schoolSites, eq(schoolSites.id, teacherProfiles.schoolSiteId))
      .where(eq(teacherProfiles.userId, teacherUserId));
    expect(profile!.state).toBe('approvata');
    const before = await approvedIn(profile!.region);
    expect((await preview({ filter: { region: profile!.region } })).json()).toMatchObject({
      matched: before,
    });
    expect((await preview({ targetIds: [teacherUserId] })).json()).toMatchObject({ matched: 1 });

    await t.database.db
      .update(teacherProfiles)
      .set({ reviewState: 'respinta' })
      .where(eq(teacherProfiles.userId, teacherUserId));
    try {
      // The plesso's region no longer reaches the rejected teacher, nor does an explicit list or filter.
      expect((await preview({ filter: { region: profile!.region } })).json()).toMatchObject({
        matched: before - 1,
      });
      const named = await preview({ targetIds: [teacherUserId] });
      expect(named.statusCode).toBe(422);
      expect(JSON.stringify(named.json().errors.targetIds)).toContain('non è approvata');
      const assign = await staff().post('/api/actions/bulk', {
        modelId: model.id,
        targetIds: [teacherUserId],
        expectedCount: 1,
      });
      expect(assign.statusCode).toBe(422);
      const rejected = await preview({ filter: { reviewState: 'respinta' } });
      expect(rejected.statusCode).toBe(422);
      expect(JSON.stringify(rejected.json().errors['filter.reviewState'])).toContain(
        'Gli insegnanti con la registrazione respinta non ricevono azioni.',
      );
      const all = await staff().post('/api/actions/bulk', {
        modelId: model.id,
        filter: { region: profile!.region },
        expectedCount: before - 1,
      });
      expect(all.statusCode, all.body).toBe(200);
      expect(
        await t.database.db
          .select()
          .from(actions)
          .where(sql`${actions.modelId} = ${model.id} and ${actions.teacherUserId} = ${teacherUserId}`),
      ).toHaveLength(0);
    } finally {
      await t.database.db
        .update(teacherProfiles)
        .set({ reviewState: 'approvata' })
        .where(eq(teacherProfiles.userId, teacherUserId));
    }
  });

  it('only staff assign: 401 for a guest, 403 for a target', async () => {
    expect((await (await csrfGuest()).post('/api/actions/bulk', {})).statusCode).toBe(401);
    expect(
      (await principal().post('/api/actions/bulk', { modelId: 1, targetIds: [1], expectedCount: 1 }))
        .statusCode,
    ).toBe(403);
    expect(
      (await teacher().post('/api/actions/bulk/preview', { modelId: 1, targetIds: [1] })).statusCode,
    ).toBe(403);
    expect(
      (await as('rilevatore@demo.test').post('/api/actions/bulk/preview', { modelId: 1, targetIds: [1] }))
        .statusCode,
    ).toBe(403);
  });
});

describe('an action: owners, transitions and evidence', () => {
  it('owners read their action; someone else gets 403; an unknown id 404', async () => {
    const model = await createModel({ title: 'Lettura', target: 'istituto' });
    const own = await assignOne(model.id, ownInstituteId);
    const other = await assignOne(model.id, otherInstituteId);
    expect((await principal().get(`/api/actions/${own}`)).statusCode).toBe(200);
    expect((await firstContact().get(`/api/actions/${own}`)).statusCode).toBe(200);
    expect((await staff().get(`/api/actions/${own}`)).statusCode).toBe(200);
    expect((await principal().get(`/api/actions/${other}`)).statusCode).toBe(403);
    expect((await teacher().get(`/api/actions/${own}`)).statusCode).toBe(403);
    expect((await as('rilevatore@demo.test').get(`/api/actions/${own}`)).statusCode).toBe(403);
    expect((await guest().get(`/api/actions/${own}`)).statusCode).toBe(401);
    expect((await principal().get('/api/actions/987654321')).statusCode).toBe(404);
    // A plesso's action belongs to its institute's principal and first contact; a teacher's to the teacher.
    const siteModel = await createModel({ title: 'Plesso', target: 'plesso' });
    const siteAction = await assignOne(siteModel.id, ownSiteId);
    expect((await principal().get(`/api/actions/${siteAction}`)).statusCode).toBe(200);
    expect((await teacher().get(`/api/actions/${siteAction}`)).statusCode).toBe(403);
    const teacherModel = await createModel({ title: 'Insegnante', target: 'insegnante' });
    const teacherAction = await assignOne(teacherModel.id, teacherUserId);
    expect((await teacher().get(`/api/actions/${teacherAction}`)).statusCode).toBe(200);
    expect((await principal().get(`/api/actions/${teacherAction}`)).statusCode).toBe(403);
    // Someone else's action cannot be moved either.
    expect((await principal().post(`/api/actions/${other}/transition`, { to: 'in_corso' })).statusCode).toBe(
      403,
    );
    expect((await upload(teacher(), own, PDF)).statusCode).toBe(403);
  });

  it('lists: staff see all, a target only their own; filters and overdue', async () => {
    const all = ActionListResponseSchema.parse((await staff().get('/api/actions?pageSize=100')).json());
    expect(all.total).toBeGreaterThan(30);
    const mine = ActionListResponseSchema.parse((await principal().get('/api/actions?pageSize=100')).json());
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.items.every((a) => a.targetId === ownInstituteId || a.target === 'plesso')).toBe(true);
    expect(mine.items.some((a) => a.targetId === otherInstituteId && a.target === 'istituto')).toBe(false);
    const teacherList = ActionListResponseSchema.parse((await teacher().get('/api/actions')).json());
    expect(teacherList.items.every((a) => a.target === 'insegnante' && a.targetId === teacherUserId)).toBe(
      true,
    );
    expect((await as('rilevatore@demo.test').get('/api/actions')).statusCode).toBe(403);
    expect((await guest().get('/api/actions')).statusCode).toBe(401);
    const lomb = ActionListResponseSchema.parse(
      (await staff().get('/api/actions?region=Lombardia&target=istituto&sort=-dueOn')).json(),
    );
    expect(lomb.total).toBe(30);
    expect(
      ActionListResponseSchema.parse((await staff().get('/api/actions?province=PV&target=istituto')).json())
        .total,
    ).toBe(10);
    const search = ActionListResponseSchema.parse((await staff().get('/api/actions?q=MIAC00003X')).json());
    expect(search.items.map((a) => a.targetCode)).toEqual(['MIAC00003X']);
    expect((await staff().get('/api/actions?state=finita')).statusCode).toBe(422);
    // Nothing is overdue yet; an open action past its due date is.
    expect(
      ActionListResponseSchema.parse((await staff().get('/api/actions?overdue=true')).json()).total,
    ).toBe(0);
    const [late] = await t.database.db
      .update(actions)
      .set({ dueOn: '2026-11-01' })
      .where(eq(actions.id, lomb.items[0]!.id))
      .returning({ id: actions.id });
    const overdue = ActionListResponseSchema.parse(
      (await staff().get('/api/actions?overdue=true&pageSize=100')).json(),
    );
    expect(overdue.items.map((a) => a.id)).toEqual([late!.id]);
    expect(overdue.items[0]!.overdue).toBe(true);
    expect(
      ActionListResponseSchema.parse(
        (await staff().get('/api/actions?overdue=false&region=Lombardia')).json(),
      ).total,
    ).toBe(29);
  });

  it('moves da_fare → in_corso → completata (text) → in_corso (sent back with a note) → completata → verificata; illegal moves 409', async () => {
    const model = await createModel({ title: 'Relazione', target: 'istituto', evidence: 'testo' });
    const [row] = await t.database.db
      .select({ id: institutes.id })
      .from(institutes)
      .where(eq(institutes.ministryCode, 'MIAC00000X'));
    // The demo principal's institute gets the action.
    const id = await assignOne(model.id, ownInstituteId);
    expect(row).toBeDefined();
    // Illegal: complete before starting; staff verify an action not completed.
    expect(
      (await principal().post(`/api/actions/${id}/transition`, { to: 'completata', evidenceText: 'Fatto' }))
        .statusCode,
    ).toBe(409);
    expect((await staff().post(`/api/actions/${id}/review`, { to: 'verificata' })).statusCode).toBe(409);
    // Staff cannot start an action (not a target); a target cannot verify.
    expect((await staff().post(`/api/actions/${id}/transition`, { to: 'in_corso' })).statusCode).toBe(403);
    const started = await principal().post(`/api/actions/${id}/transition`, { to: 'in_corso' });
    expect(started.statusCode, started.body).toBe(200);
    expect(ActionDetailSchema.parse(started.json()).state).toBe('in_corso');
    expect((await principal().post(`/api/actions/${id}/transition`, { to: 'in_corso' })).statusCode).toBe(
      409,
    );
    // Text evidence is required, and limited.
    const noText = await principal().post(`/api/actions/${id}/transition`, { to: 'completata' });
    expect(noText.statusCode).toBe(422);
    expect(noText.json().errors.evidenceText).toBeDefined();
    const long = await principal().post(`/api/actions/${id}/transition`, {
      to: 'completata',
      evidenceText: 'x'.repeat(ACTION_EVIDENCE_TEXT_MAX + 1),
    });
    expect(long.statusCode).toBe(422);
    // A file is not what this model asks for.
    expect((await upload(principal(), id, PDF)).statusCode).toBe(422);
    const done = await firstContact().post(`/api/actions/${id}/transition`, {
      to: 'completata',
      evidenceText: 'Referente nominato il 3 novembre.',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      state: 'completata',
      evidenceText: 'Referente nominato il 3 novembre.',
      completedBy: { lastName: 'Referente' },
    });
    expect((await principal().post(`/api/actions/${id}/review`, { to: 'verificata' })).statusCode).toBe(403);
    // Sending back needs a note.
    const noNote = await staff().post(`/api/actions/${id}/review`, { to: 'in_corso' });
    expect(noNote.statusCode).toBe(422);
    expect(noNote.json().errors.note).toBeDefined();
    const back = await staff().post(`/api/actions/${id}/review`, {
      to: 'in_corso',
      note: 'Manca la data della delibera.',
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ state: 'in_corso', staffNote: 'Manca la data della delibera.' });
    expect(
      (
        await principal().post(`/api/actions/${id}/transition`, {
          to: 'completata',
          evidenceText: 'Delibera del 3 novembre.',
        })
      ).statusCode,
    ).toBe(200);
    const verified = await as('cromos@demo.test').post(`/api/actions/${id}/review`, { to: 'verificata' });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ state: 'verificata', verifiedBy: { lastName: 'Cromos' } });
    // Nothing moves after verificata.
    expect(
      (await staff().post(`/api/actions/${id}/review`, { to: 'in_corso', note: 'Ancora' })).statusCode,
    ).toBe(409);
    expect((await principal().post(`/api/actions/${id}/transition`, { to: 'in_corso' })).statusCode).toBe(
      409,
    );
    const audit = await t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(sql`${auditLog.entity} = 'action' and ${auditLog.entityId} = ${String(id)}`);
    expect(audit.map((a) => a.action)).toEqual([
      'action.in_corso',
      'action.completata',
      'action.in_corso',
      'action.completata',
      'action.verificata',
    ]);
  });

  it('a model without evidence completes with no text', async () => {
    const model = await createModel({ title: 'Senza prova', target: 'insegnante', evidence: 'nessuna' });
    const id = await assignOne(model.id, teacherUserId);
    expect((await teacher().post(`/api/actions/${id}/transition`, { to: 'in_corso' })).statusCode).toBe(200);
    expect(
      (await teacher().post(`/api/actions/${id}/transition`, { to: 'completata' })).json(),
    ).toMatchObject({ state: 'completata' });
    const mine = MyActionsResponseSchema.parse((await teacher().get('/api/actions/mine')).json());
    expect(mine.done.map((a) => a.id)).toContain(id);
  });

  it('file evidence: type by magic bytes, size limit, download by owners and staff only', async () => {
    const model = await createModel({ title: 'Verbale firmato', target: 'plesso', evidence: 'file' });
    const id = await assignOne(model.id, ownSiteId);
    const mine = MyActionsResponseSchema.parse((await principal().get('/api/actions/mine')).json());
    expect(mine.open.map((a) => a.id)).toContain(id);
    await principal().post(`/api/actions/${id}/transition`, { to: 'in_corso' });
    // The text route refuses: the model wants a file.
    const text = await principal().post(`/api/actions/${id}/transition`, {
      to: 'completata',
      evidenceText: 'Fatto',
    });
    expect(text.statusCode).toBe(422);
    expect(text.json().errors.evidenceFile).toBeDefined();
    // A file that says it is a PDF but is not.
    const fake = await upload(
      principal(),
      id,
      Buffer.from('<html>ciao</html>'),
      'application/pdf',
      'verbale.pdf',
    );
    expect(fake.statusCode).toBe(422);
    expect(fake.json().message).toMatch(/PDF/);
    expect((await upload(principal(), id, Buffer.alloc(0))).statusCode).toBe(422);
    // Too large: refused before it is stored.
    const big = Buffer.concat([PDF, Buffer.alloc(ACTION_EVIDENCE_FILE_MAX_BYTES)]);
    expect((await upload(principal(), id, big)).statusCode).toBe(413);
    // A guest's upload is refused before the body is read.
    expect((await upload(await csrfGuest(), id, PDF)).statusCode).toBe(401);
    expect(
      (await t.database.db.select({ state: actions.state }).from(actions).where(eq(actions.id, id)))[0]!
        .state,
    ).toBe('in_corso');
    // A PNG sent as octet-stream is recognised by its bytes.
    const ok = await upload(principal(), id, PNG, 'application/octet-stream', '../../foto verbale.jpeg');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      state: 'completata',
      evidenceFile: { name: 'foto-verbale.png', contentType: 'image/png', sizeBytes: PNG.length },
    });
    for (const client of [principal(), firstContact(), staff()]) {
      const file = await client.get(`/api/actions/${id}/evidence`);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.rawPayload.equals(PNG)).toBe(true);
    }
    expect((await teacher().get(`/api/actions/${id}/evidence`)).statusCode).toBe(403);
    expect((await guest().get(`/api/actions/${id}/evidence`)).statusCode).toBe(401);
    // The evidence is in the file store (decision 030): the row keeps its key, not its bytes.
    const [row] = await t.database.db
      .select({ key: actions.evidenceFileKey, bytes: actions.evidenceFile })
      .from(actions)
      .where(eq(actions.id, id));
    expect(row).toMatchObject({ key: expect.stringMatching(/^[0-9a-f]{32}$/), bytes: null });
    const stored = () =>
      readdirSync(t.env.FILE_STORE_DIR, { recursive: true, encoding: 'utf8' })
        .filter((n) => statSync(join(t.env.FILE_STORE_DIR, n)).isFile())
        .sort();
    const before = stored();
    expect(before.some((n) => n.endsWith(row!.key!))).toBe(true);
    // Uploading again after completion is an illegal move, and its file is not kept.
    expect((await upload(principal(), id, PDF)).statusCode).toBe(409);
    expect(stored()).toEqual(before);
  });
});

describe('export and seed', () => {
  it('exports what the list shows (staff only)', async () => {
    const total = ActionListResponseSchema.parse(
      (await staff().get('/api/actions?region=Lombardia')).json(),
    ).total;
    const csv = await staff().get('/api/actions/export?region=Lombardia&format=csv');
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toMatch(/^Modello;Categoria;Destinatari;Destinatario/);
    expect(lines.length - 1).toBe(total);
    const xlsx = await staff().get('/api/actions/export?format=xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
    expect((await principal().get('/api/actions/export')).statusCode).toBe(403);
    const models = ActionModelListResponseSchema.parse(
      (await staff().get('/api/action-models?pageSize=100')).json(),
    );
    const modelCsv = await staff().get('/api/action-models/export?format=csv');
    expect(modelCsv.statusCode).toBe(200);
    expect(
      modelCsv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/).length - 1,
    ).toBe(models.total);
    expect((await principal().get('/api/action-models/export')).statusCode).toBe(403);
    expect((await guest().get('/api/actions/export')).statusCode).toBe(401);
  });

  it('the demo seed makes models and actions in every state, some overdue, and runs twice safely', async () => {
    const db = t.database.db;
    const first = await seedDemoActions(db, t.clock.now());
    expect(first.models).toBeGreaterThanOrEqual(3);
    await seedDemoActions(db, t.clock.now());
    const states = await db.execute(sql`select distinct state from actions`);
    expect((states as unknown as { rows: { state: string }[] }).rows.map((r) => r.state).sort()).toEqual([
      'completata',
      'da_fare',
      'in_corso',
      'verificata',
    ]);
    const overdue = ActionListResponseSchema.parse(
      (await principal().get('/api/actions?overdue=true')).json(),
    );
    expect(overdue.total).toBeGreaterThan(0);
  });
});
