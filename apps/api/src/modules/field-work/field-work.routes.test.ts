import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AssignmentResultSchema,
  DetectorListResponseSchema,
  DetectorSiteDetailSchema,
  DetectorSiteListResponseSchema,
  MyVisitsResponseSchema,
  SiteVisitsResponseSchema,
  VisitSchema,
} from '@portale/shared/field-work';
import { ReviewDetailSchema } from '@portale/shared/reviews';
import {
  auditLog,
  institutes,
  outbox,
  reviews,
  schoolSites,
  teacherProfiles,
  users,
  visits,
} from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { addSecondDetector } from '../../../test/field-work-harness.ts';
import { seedDemoFieldWork } from './field-work-seed.repository.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const staff = () => as('sylla@demo.test');
const detector = () => as('rilevatore@demo.test');
const other = () => as('altro.rilevatore@demo.test');
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

let detectorId: number;
let otherId: number;
const siteIds: number[] = [];
let otherSiteId: number;
let teacherUserId: number;

async function userId(email: string) {
  const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  // A second detector: the demo detector's credentials under another e-mail.
  ({ detectorId, otherId } = await addSecondDetector(t, '+393330000999'));
  const [institute] = await db
    .select({ id: institutes.id })
    .from(institutes)
    .where(eq(institutes.ministryCode, 'RMIC8AB00X'));
  // Ten plessi: 6 in RM (4 participating), 4 in PV (2 participating).
  for (let i = 0; i < 10; i++) {
    const province = i < 6 ? 'RM' : 'PV';
    const [site] = await db
      .insert(schoolSites)
      .values({
        ministryCode: `FW${String(i).padStart(8, '0')}`,
        instituteId: institute!.id,
        name: `Plesso di prova ${i}`,
        schoolLevel: 'primaria',
        typeLabel: 'Scuola primaria',
        address: `Via Roma ${i + 1}`,
        postalCode: '00100',
        municipalityCode: province === 'RM' ? 'H501' : 'G388',
        municipalityName: province === 'RM' ? 'Roma' : 'Pavia',
        province,
        region: province === 'RM' ? 'Lazio' : 'Lombardia',
        participating: i % 3 !== 2,
      })
      .returning({ id: schoolSites.id });
    siteIds.push(site!.id);
  }
  teacherUserId = await userId('insegnante@demo.test');
  await db
    .insert(teacherProfiles)
    .values({
      userId: teacherUserId,
      kind: 'insegnante',
      schoolSiteId: siteIds[0]!,
      subjects: ['Matematica'],
    })
    .onConflictDoNothing();
  await db
    .update(teacherProfiles)
    .set({ schoolSiteId: siteIds[0]! })
    .where(eq(teacherProfiles.userId, teacherUserId));
  for (const email of [...ALL, 'altro.rilevatore@demo.test']) {
    const client = new ApiClient(t, nextIp());
    await client.login(email);
    clients.set(email, client);
  }
}, 180_000);
afterAll(() => t.close());

describe('detectors and assignment (staff)', () => {
  it('lists the detectors: staff 200, guest 401, others 403', async () => {
    const res = await staff().get('/api/detectors');
    expect(res.statusCode).toBe(200);
    const list = DetectorListResponseSchema.parse(res.json());
    expect(list.items.map((d) => d.email).sort()).toEqual([
      'altro.rilevatore@demo.test',
      'rilevatore@demo.test',
    ]);
    const guest = new ApiClient(t, nextIp());
    expect((await guest.get('/api/detectors')).statusCode).toBe(401);
    for (const email of [
      'rilevatore@demo.test',
      'dirigente@demo.test',
      'insegnante@demo.test',
      'utenti@demo.test',
    ])
      expect((await as(email).get('/api/detectors')).statusCode, email).toBe(403);
  });

  it('exports the detectors as CSV and XLSX (staff only)', async () => {
    const csv = await staff().get('/api/detectors/export?format=csv');
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toContain('Plessi assegnati');
    expect(lines).toHaveLength(3);
    const xlsx = await staff().get('/api/detectors/export?format=xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toMatch(/spreadsheetml/);
    expect((await detector().get('/api/detectors/export?format=csv')).statusCode).toBe(403);
  });

  it('sets the provinces of a detector (audited) and filters by province', async () => {
    const res = await staff().send('PATCH', `/api/detectors/${detectorId}`, {
      payload: { provinces: ['RM', 'PV', 'RM'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().provinces).toEqual(['PV', 'RM']);
    const list = DetectorListResponseSchema.parse((await staff().get('/api/detectors?province=PV')).json());
    expect(list.items.map((d) => d.id)).toEqual([detectorId]);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'detector.updated'));
    expect(audit).toBeDefined();
    expect(
      (await staff().send('PATCH', `/api/detectors/${teacherUserId}`, { payload: { active: true } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await staff().send('PATCH', `/api/detectors/${detectorId}`, { payload: { provinces: ['XX'] } }))
        .statusCode,
    ).toBe(422);
  });

  it('counts a bulk assignment by filter, then applies it in one go with the confirmed count; a retry changes nothing', async () => {
    const filter = { province: 'RM', participating: true };
    const preview = AssignmentResultSchema.parse(
      (
        await staff().post('/api/school-site-assignments', {
          detectorUserId: detectorId,
          filter,
          confirm: false,
        })
      ).json(),
    );
    const [sqlCount] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(schoolSites)
      .where(and(eq(schoolSites.province, 'RM'), eq(schoolSites.participating, true)));
    expect(preview).toMatchObject({
      matched: sqlCount!.n,
      added: sqlCount!.n,
      moved: 0,
      unchanged: 0,
      updated: 0,
      applied: false,
    });
    expect(await assignedTo(detectorId)).toBe(0);
    // The count changed since it was confirmed: 409, nothing written.
    const stale = await staff().post('/api/school-site-assignments', {
      detectorUserId: detectorId,
      filter,
      confirm: true,
      expectedCount: preview.matched + 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/numero dei plessi è cambiato/);
    expect(await assignedTo(detectorId)).toBe(0);
    const applied = AssignmentResultSchema.parse(
      (
        await staff().post('/api/school-site-assignments', {
          detectorUserId: detectorId,
          filter,
          confirm: true,
          expectedCount: preview.matched,
        })
      ).json(),
    );
    expect(applied).toMatchObject({ matched: sqlCount!.n, updated: sqlCount!.n, applied: true });
    expect(await assignedTo(detectorId)).toBe(sqlCount!.n);
    const retry = AssignmentResultSchema.parse(
      (
        await staff().post('/api/school-site-assignments', {
          detectorUserId: detectorId,
          filter,
          confirm: true,
          expectedCount: preview.matched,
        })
      ).json(),
    );
    expect(retry).toMatchObject({ unchanged: sqlCount!.n, updated: 0 });
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'school-site.detector-assigned'));
    expect(audits).toHaveLength(1);
  });

  it('assigns one plesso to the other detector and moves one from the demo detector (at most one detector per plesso)', async () => {
    otherSiteId = siteIds[6]!;
    const one = AssignmentResultSchema.parse(
      (
        await staff().post('/api/school-site-assignments', {
          detectorUserId: otherId,
          siteIds: [otherSiteId],
          confirm: true,
        })
      ).json(),
    );
    expect(one).toMatchObject({ matched: 1, added: 1, updated: 1 });
    const moved = AssignmentResultSchema.parse(
      (
        await staff().post('/api/school-site-assignments', {
          detectorUserId: otherId,
          siteIds: [siteIds[1]!],
          confirm: true,
        })
      ).json(),
    );
    expect(moved).toMatchObject({ matched: 1, moved: 1, updated: 1 });
    const back = AssignmentResultSchema.parse(
      (
        await staff().post('/api/school-site-assignments', {
          detectorUserId: detectorId,
          siteIds: [siteIds[1]!],
          confirm: true,
        })
      ).json(),
    );
    expect(back).toMatchObject({ moved: 1, updated: 1 });
  });

  it('refuses bad assignments with Italian messages and lets only staff assign', async () => {
    expect(
      (
        await staff().post('/api/school-site-assignments', {
          detectorUserId: teacherUserId,
          siteIds: [siteIds[0]!],
          confirm: false,
        })
      ).json().errors.detectorUserId,
    ).toBeDefined();
    expect(
      (
        await staff().post('/api/school-site-assignments', {
          detectorUserId: detectorId,
          filter: {},
          confirm: false,
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await staff().post('/api/school-site-assignments', {
          detectorUserId: detectorId,
          siteIds: [1],
          filter: { province: 'RM' },
          confirm: false,
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await staff().post('/api/school-site-assignments', {
          detectorUserId: detectorId,
          siteIds: [987654321],
          confirm: true,
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await detector().post('/api/school-site-assignments', {
          detectorUserId: detectorId,
          siteIds: [otherSiteId],
          confirm: true,
        })
      ).statusCode,
    ).toBe(403);
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect((await guest.post('/api/school-site-assignments', {})).statusCode).toBe(401);
  });
});

async function assignedTo(id: number) {
  const [row] = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(schoolSites)
    .where(eq(schoolSites.detectorUserId, id));
  return row!.n;
}

describe("a detector's plessi", () => {
  it('lists only their own plessi, with address, teachers and next visit', async () => {
    const list = DetectorSiteListResponseSchema.parse(
      (await detector().get('/api/detectors/me/school-sites?sort=name')).json(),
    );
    expect(list.total).toBe(await assignedTo(detectorId));
    expect(list.items.every((s) => s.detector?.id === detectorId)).toBe(true);
    expect(list.items.find((s) => s.id === siteIds[0])).toMatchObject({
      address: 'Via Roma 1',
      teacherCount: 1,
    });
    // A detector cannot widen the scope with another detector's id.
    const widened = DetectorSiteListResponseSchema.parse(
      (await detector().get(`/api/detectors/me/school-sites?detectorId=${otherId}`)).json(),
    );
    expect(widened.items.map((s) => s.id)).not.toContain(otherSiteId);
    const otherList = DetectorSiteListResponseSchema.parse(
      (await other().get('/api/detectors/me/school-sites')).json(),
    );
    expect(otherList.items.map((s) => s.id)).toEqual([otherSiteId]);
    // The super-admin sees every assigned plesso, or one detector's.
    const byAdmin = DetectorSiteListResponseSchema.parse(
      (await as('superadmin@demo.test').get(`/api/detectors/me/school-sites?detectorId=${otherId}`)).json(),
    );
    expect(byAdmin.items.map((s) => s.id)).toEqual([otherSiteId]);
    // Seed §6 reserves the detector's pages to super-admin and detector: Sylla and Cromos staff too are 403 (issue 32).
    for (const email of [
      'sylla@demo.test',
      'cromos@demo.test',
      'dirigente@demo.test',
      'insegnante@demo.test',
      'utenti@demo.test',
    ])
      expect((await as(email).get('/api/detectors/me/school-sites')).statusCode, email).toBe(403);
    expect((await detector().get('/api/detectors/me/school-sites?sort=nope')).statusCode).toBe(422);
    const csv = await detector().get('/api/detectors/me/school-sites/export?format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\n')).toHaveLength(list.total + 1);
  });

  it('opens one of their plessi; another detector’s is 403, an unknown one 404', async () => {
    const res = await detector().get(`/api/detectors/me/school-sites/${siteIds[0]}`);
    expect(res.statusCode).toBe(200);
    expect(DetectorSiteDetailSchema.parse(res.json()).teachers.map((x) => x.userId)).toEqual([teacherUserId]);
    expect((await detector().get(`/api/detectors/me/school-sites/${otherSiteId}`)).statusCode).toBe(403);
    expect((await detector().get('/api/detectors/me/school-sites/987654321')).statusCode).toBe(404);
    expect(
      (await as('superadmin@demo.test').get(`/api/detectors/me/school-sites/${otherSiteId}`)).statusCode,
    ).toBe(200);
    for (const email of ['sylla@demo.test', 'cromos@demo.test']) {
      expect((await as(email).get(`/api/detectors/me/school-sites/${otherSiteId}`)).statusCode, email).toBe(
        403,
      );
      expect(
        (await as(email).get('/api/detectors/me/school-sites/export?format=csv')).statusCode,
        email,
      ).toBe(403);
    }
  });

  it("lists a plesso's teachers for its detector and the super-admin only", async () => {
    expect((await detector().get(`/api/school-sites/${siteIds[0]}/teachers`)).json().items).toHaveLength(1);
    expect(
      (await as('superadmin@demo.test').get(`/api/school-sites/${siteIds[0]}/teachers`)).statusCode,
    ).toBe(200);
    for (const email of ['sylla@demo.test', 'cromos@demo.test'])
      expect((await as(email).get(`/api/school-sites/${siteIds[0]}/teachers`)).statusCode, email).toBe(403);
    expect((await other().get(`/api/school-sites/${siteIds[0]}/teachers`)).statusCode).toBe(403);
    expect(
      (await as('insegnante@demo.test').get(`/api/school-sites/${siteIds[0]}/teachers`)).statusCode,
    ).toBe(403);
    expect(
      (await new ApiClient(t, nextIp()).get(`/api/school-sites/${siteIds[0]}/teachers`)).statusCode,
    ).toBe(401);
  });
});

describe('visits', () => {
  let visitId: number;

  it('plans a visit in the future (Rome time), not in the past, not on another detector’s plesso', async () => {
    expect(
      (
        await detector().post(`/api/school-sites/${siteIds[0]}/visits`, { scheduledAt: '2020-01-01T10:00' })
      ).json().errors.scheduledAt,
    ).toEqual(['La visita deve essere pianificata nel futuro.']);
    expect(
      (await detector().post(`/api/school-sites/${siteIds[0]}/visits`, { scheduledAt: '2026-02-30T10:00' }))
        .statusCode,
    ).toBe(422);
    expect(
      (await detector().post(`/api/school-sites/${otherSiteId}/visits`, { scheduledAt: '2026-12-03T10:30' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await detector().post('/api/school-sites/987654321/visits', { scheduledAt: '2026-12-03T10:30' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await staff().post(`/api/school-sites/${siteIds[0]}/visits`, { scheduledAt: '2026-12-03T10:30' }))
        .statusCode,
    ).toBe(403);
    const res = await detector().post(`/api/school-sites/${siteIds[0]}/visits`, {
      scheduledAt: '2026-12-03T10:30',
    });
    expect(res.statusCode).toBe(201);
    const visit = VisitSchema.parse(res.json());
    expect(visit).toMatchObject({
      state: 'pianificata',
      scheduledAt: '2026-12-03T09:30:00.000Z',
      reviewState: null,
    });
    visitId = visit.id;
    const site = SiteVisitsResponseSchema.parse(
      (await detector().get(`/api/school-sites/${siteIds[0]}/visits`)).json(),
    );
    expect(site.items.map((v) => v.id)).toEqual([visitId]);
    expect(site.site.nextVisitAt).toBe('2026-12-03T09:30:00.000Z');
    expect((await other().get(`/api/school-sites/${siteIds[0]}/visits`)).statusCode).toBe(403);
    const mine = MyVisitsResponseSchema.parse((await detector().get('/api/detectors/me/visits')).json());
    expect(mine.upcoming.map((v) => v.id)).toEqual([visitId]);
  });

  it('downloads the visit as an iCalendar event', async () => {
    const res = await detector().get(`/api/visits/${visitId}/calendar.ics`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="visita-${visitId}.ics"`);
    const ics = res.body.replace(/\r\n /g, '');
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toMatch(new RegExp(`UID:visita-${visitId}-[0-9a-f]{12}@`));
    expect(ics).toContain('DTSTART:20261203T093000Z');
    expect(ics).toContain('DTEND:20261203T113000Z');
    expect(ics).toContain('SUMMARY:Visita al plesso Plesso di prova 0 (FW00000000)');
    expect(ics).toContain('LOCATION:Plesso di prova 0\\, Via Roma 1\\, 00100 Roma\\, (RM)');
    expect((await other().get(`/api/visits/${visitId}/calendar.ics`)).statusCode).toBe(403);
    expect((await detector().get('/api/visits/987654321/calendar.ics')).statusCode).toBe(404);
  });

  it('files the report (teachers of the plesso only): svolta, in the visite queue; a second report is 409', async () => {
    expect((await detector().post(`/api/visits/${visitId}/report`, { report: 'Troppo' })).statusCode).toBe(
      422,
    );
    const stranger = await userId('dirigente@demo.test');
    expect(
      (
        await detector().post(`/api/visits/${visitId}/report`, {
          report: 'Visita svolta, tutto in ordine.',
          teachersMet: [stranger],
        })
      ).json().errors.teachersMet,
    ).toBeDefined();
    expect(
      (await other().post(`/api/visits/${visitId}/report`, { report: 'Visita svolta, tutto in ordine.' }))
        .statusCode,
    ).toBe(403);
    // Planned for 3 December (Rome): on 21 November it has not happened, so it cannot be reported as held.
    const early = await detector().post(`/api/visits/${visitId}/report`, {
      report: 'Visita svolta, tutto in ordine.',
      teachersMet: [teacherUserId],
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(
      'La visita non è ancora avvenuta: il resoconto si può inviare dal giorno della visita in poi.',
    );
    expect(
      VisitSchema.parse((await detector().get(`/api/school-sites/${siteIds[0]}/visits`)).json().items[0]),
    ).toMatchObject({ state: 'pianificata', reviewState: null });
    // The day comes (Rome calendar): reportable from midnight of that day, even before the planned hour.
    t.clock.advance(Date.parse('2026-12-02T23:05:00Z') - t.clock.now().getTime());
    const res = await detector().post(`/api/visits/${visitId}/report`, {
      report: 'Visita svolta, tutto in ordine.',
      teachersMet: [teacherUserId],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(VisitSchema.parse(res.json())).toMatchObject({
      state: 'svolta',
      reviewState: 'in_attesa',
      teachersMet: [{ id: teacherUserId }],
    });
    const queued = await t.database.db
      .select()
      .from(reviews)
      .where(and(eq(reviews.type, 'visite'), eq(reviews.subjectId, visitId)));
    expect(queued).toHaveLength(1);
    const again = await detector().post(`/api/visits/${visitId}/report`, {
      report: 'Di nuovo il resoconto.',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/resoconto si può inviare solo/);
    const cancel = await detector().post(`/api/visits/${visitId}/outcome`, { state: 'annullata' });
    expect(cancel.statusCode).toBe(409);
  });

  it('staff see the report in the review screen; request changes sends it back; the detector fixes it; approve', async () => {
    const [item] = await t.database.db
      .select({ id: reviews.id })
      .from(reviews)
      .where(and(eq(reviews.type, 'visite'), eq(reviews.subjectId, visitId)));
    const detail = ReviewDetailSchema.parse(
      (await staff().get(`/api/reviews/visite/items/${item!.id}`)).json(),
    );
    expect(detail.content).toMatchObject({
      type: 'visite',
      visit: {
        id: visitId,
        report: 'Visita svolta, tutto in ordine.',
        schoolSite: { id: siteIds[0] },
        detector: { id: detectorId },
      },
    });
    expect(detail.title).toBe('Plesso di prova 0');
    const decided = await staff().post(`/api/reviews/visite/${item!.id}/decision`, {
      decision: 'request_changes',
      note: 'Indica quali classi hai visto.',
      fields: ['report'],
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const back = VisitSchema.parse(
      (await detector().get(`/api/school-sites/${siteIds[0]}/visits`)).json().items[0],
    );
    expect(back).toMatchObject({
      reviewState: 'da_correggere',
      reviewNote: 'Indica quali classi hai visto.',
      reviewFields: ['report'],
    });
    expect(
      MyVisitsResponseSchema.parse((await detector().get('/api/detectors/me/visits')).json()).toFix.map(
        (v) => v.id,
      ),
    ).toEqual([visitId]);
    // The detector is told by e-mail, with the note and the link to the plesso's visits.
    const [mail] = await t.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.templateKey, 'email.revisione-visita-da-correggere'))
      .orderBy(desc(outbox.id))
      .limit(1);
    expect(mail?.subject).toBe('Resoconto da correggere: visita a Plesso di prova 0');
    expect(mail?.textBody).toContain('Indica quali classi hai visto.');
    expect(mail?.textBody).toContain(`/portale/istituti/plessi/${siteIds[0]}/visite`);
    const fixed = await detector().post(`/api/visits/${visitId}/report`, {
      report: 'Visita svolta: viste le classi 3A e 4B.',
      teachersMet: [teacherUserId],
    });
    expect(fixed.statusCode).toBe(200);
    const [next] = await t.database.db
      .select({ id: reviews.id })
      .from(reviews)
      .where(and(eq(reviews.type, 'visite'), eq(reviews.subjectId, visitId), eq(reviews.state, 'in_attesa')));
    expect(next!.id).not.toBe(item!.id);
    expect(
      (await staff().post(`/api/reviews/visite/${next!.id}/decision`, { decision: 'approve' })).statusCode,
    ).toBe(200);
    const [row] = await t.database.db
      .select({ reviewState: visits.reviewState })
      .from(visits)
      .where(eq(visits.id, visitId));
    expect(row!.reviewState).toBe('approvata');
    const approved = await t.database.db
      .select({ recipient: outbox.recipient })
      .from(outbox)
      .where(eq(outbox.templateKey, 'email.revisione-visita-approvata'));
    expect(approved.length).toBeGreaterThanOrEqual(1);
  });

  it('cancels or misses only a planned visit (409 otherwise)', async () => {
    const planned = VisitSchema.parse(
      (
        await detector().post(`/api/school-sites/${siteIds[0]}/visits`, { scheduledAt: '2026-12-10T09:00' })
      ).json(),
    );
    expect((await other().post(`/api/visits/${planned.id}/outcome`, { state: 'mancata' })).statusCode).toBe(
      403,
    );
    expect((await detector().post(`/api/visits/${planned.id}/outcome`, { state: 'svolta' })).statusCode).toBe(
      422,
    );
    const res = await detector().post(`/api/visits/${planned.id}/outcome`, {
      state: 'mancata',
      note: 'Scuola chiusa.',
    });
    expect(VisitSchema.parse(res.json())).toMatchObject({ state: 'mancata', outcomeNote: 'Scuola chiusa.' });
    expect(
      (await detector().post(`/api/visits/${planned.id}/outcome`, { state: 'annullata' })).statusCode,
    ).toBe(409);
    expect(
      (
        await detector().post(`/api/visits/${planned.id}/report`, {
          report: 'Resoconto dopo una visita mancata.',
        })
      ).statusCode,
    ).toBe(409);
  });

  it('a plesso without a detector cannot have a visit planned (super-admin: 409)', async () => {
    const free = siteIds[9]!;
    const [row] = await t.database.db
      .select({ d: schoolSites.detectorUserId })
      .from(schoolSites)
      .where(and(eq(schoolSites.id, free), isNull(schoolSites.detectorUserId)));
    expect(row).toBeDefined();
    expect(
      (
        await as('superadmin@demo.test').post(`/api/school-sites/${free}/visits`, {
          scheduledAt: '2026-12-10T09:00',
        })
      ).statusCode,
    ).toBe(409);
  });
});

describe('demo data', () => {
  it('seedDemoFieldWork gives the demo detector plessi and visits in every state, once', async () => {
    const now = t.clock.now();
    const db = t.database.db;
    await db.update(schoolSites).set({ detectorUserId: null });
    await db.execute(sql`delete from detector_profiles`);
    const first = await seedDemoFieldWork(db, now);
    expect(first.sites).toBeGreaterThan(0);
    expect(first.visits).toBe(5);
    expect(await seedDemoFieldWork(db, now)).toEqual({ sites: 0, visits: 0 });
    const states = await db
      .select({ state: visits.state })
      .from(visits)
      .where(eq(visits.detectorUserId, detectorId));
    expect(new Set(states.map((s) => s.state))).toEqual(
      new Set(['pianificata', 'svolta', 'annullata', 'mancata']),
    );
    // The visit held yesterday without a report is on the detector's list of reports to file.
    const mine = MyVisitsResponseSchema.parse((await detector().get('/api/detectors/me/visits')).json());
    expect(mine.toReport).toHaveLength(1);
    expect(mine.toReport[0]).toMatchObject({ state: 'pianificata' });
    expect(mine.upcoming.map((v) => v.id)).not.toContain(mine.toReport[0]!.id);
  });
});
