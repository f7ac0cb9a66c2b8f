import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssignmentResultSchema, ReportPhotoListSchema, VISIT_MESSAGES } from '@portale/shared/field-work';
import { ReviewDetailSchema } from '@portale/shared/reviews';
import {
  auditLog,
  outbox,
  reviews,
  visitReassignments,
  visitReportSubmissions,
  visits,
} from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import {
  addDetectorSite,
  addSecondDetector,
  DEMO_DETECTOR,
  loggedInClients,
  OTHER_DETECTOR,
  placeDemoTeacher,
  plannedVisit,
} from '../../../test/field-work-harness.ts';
import { fakeJpeg, tusCreate, tusMetadata, tusUpload } from '../../../test/photo-upload-harness.ts';

// Decision 061 (issue 39): a planned visit follows its plesso to the new detector, both are told, and
// the former holder's report written offline is kept as a conflict for staff, its photos included.

let t: TestApp;
let clients: Map<string, ApiClient>;
const as = (email: string) => clients.get(email)!;
const staff = () => as('sylla@demo.test');
const demo = () => as(DEMO_DETECTOR);
const other = () => as(OTHER_DETECTOR);
const OTHER_ROLES = [
  'dirigente@demo.test',
  'referente@demo.test',
  'insegnante@demo.test',
  'utenti@demo.test',
];

let demoId: number;
let otherId: number;
let siteId: number;
let teacherUserId: number;

const REPORT = 'Scritto offline prima che la visita passasse a un collega.';

beforeAll(async () => {
  t = await buildTestApp();
  ({ detectorId: demoId, otherId } = await addSecondDetector(t, '+393330000997'));
  siteId = await addDetectorSite(t, {
    ministryCode: 'RIA0000001',
    name: 'Plesso riassegnato',
    detectorUserId: demoId,
  });
  teacherUserId = await placeDemoTeacher(t, siteId);
  clients = await loggedInClients(t, [
    'superadmin@demo.test',
    'sylla@demo.test',
    DEMO_DETECTOR,
    OTHER_DETECTOR,
    ...OTHER_ROLES,
  ]);
}, 180_000);
afterAll(() => t.close());

const assign = (detectorUserId: number, confirm: boolean, expectedCount?: number) =>
  staff().post('/api/school-site-assignments', {
    detectorUserId,
    siteIds: [siteId],
    confirm,
    ...(expectedCount === undefined ? {} : { expectedCount }),
  });

const holderOf = async (visitId: number) =>
  (await t.database.db.select({ d: visits.detectorUserId }).from(visits).where(eq(visits.id, visitId)))[0]!.d;

const mails = (templateKey: string) =>
  t.database.db
    .select({ recipient: outbox.recipient, text: outbox.textBody })
    .from(outbox)
    .where(eq(outbox.templateKey, templateKey))
    .orderBy(asc(outbox.id));

/** The plesso and its planned visits handed to `to`; answers the result. */
async function handOver(to: number) {
  const res = await assign(to, true, 1);
  expect(res.statusCode, res.body).toBe(200);
  return AssignmentResultSchema.parse(res.json());
}

describe('a planned visit follows its plesso (decision 061)', () => {
  it('counts the visits that move, then moves only the planned ones, records and audits them, tells both detectors; a retry moves nothing', async () => {
    const db = t.database.db;
    const yesterday = await plannedVisit(t, siteId, demoId);
    const future = await demo().post(`/api/school-sites/${siteId}/visits`, {
      scheduledAt: '2099-03-02T10:00',
    });
    expect(future.statusCode, future.body).toBe(201);
    const planned = (future.json() as { id: number }).id;
    const held = await plannedVisit(t, siteId, demoId);
    const sent = await demo().post(`/api/visits/${held}/report`, {
      report: REPORT,
      clientReportId: randomUUID(),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const cancelled = await plannedVisit(t, siteId, demoId, 'annullata');
    const mailsBefore = (await mails('email.visite-riassegnate-ad-altri')).length;

    const preview = await assign(otherId, false);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(AssignmentResultSchema.parse(preview.json())).toMatchObject({
      matched: 1,
      moved: 1,
      visitsMoved: 2,
      updated: 0,
      applied: false,
    });
    expect(await holderOf(yesterday)).toBe(demoId);

    const done = await handOver(otherId);
    expect(done).toMatchObject({ moved: 1, visitsMoved: 2, updated: 1, applied: true });
    expect(await holderOf(yesterday)).toBe(otherId);
    expect(await holderOf(planned)).toBe(otherId);
    // A held (reported) or cancelled visit stays with whoever held it.
    expect(await holderOf(held)).toBe(demoId);
    expect(await holderOf(cancelled)).toBe(demoId);
    const rows = await db
      .select()
      .from(visitReassignments)
      .where(inArray(visitReassignments.visitId, [yesterday, planned, held, cancelled]))
      .orderBy(asc(visitReassignments.visitId));
    expect(rows.map((r) => [r.visitId, r.fromDetectorUserId, r.toDetectorUserId])).toEqual(
      [yesterday, planned].sort((a, b) => a - b).map((id) => [id, demoId, otherId]),
    );
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'school-site.detector-assigned'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect((audit!.after as { visitsMoved: unknown[] }).visitsMoved).toHaveLength(2);

    const toFormer = (await mails('email.visite-riassegnate-ad-altri')).slice(mailsBefore);
    expect(toFormer.map((m) => m.recipient)).toEqual([DEMO_DETECTOR]);
    expect(toFormer[0]!.text).toContain('Plesso riassegnato (RIA0000001)');
    expect(toFormer[0]!.text).toContain('invialo comunque');
    const toNew = await mails('email.visite-riassegnate-a-te');
    expect(toNew.at(-1)!.recipient).toBe(OTHER_DETECTOR);
    expect(toNew.at(-1)!.text).toContain('(2)');

    const again = AssignmentResultSchema.parse((await assign(otherId, true, 1)).json());
    expect(again).toMatchObject({ unchanged: 1, visitsMoved: 0, updated: 0 });
    expect(await mails('email.visite-riassegnate-ad-altri')).toHaveLength(mailsBefore + 1);
  });

  it('taking the detector away moves no visit', async () => {
    const visitId = await plannedVisit(t, siteId, otherId);
    const res = await staff().post('/api/school-site-assignments', {
      detectorUserId: null,
      siteIds: [siteId],
      confirm: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(AssignmentResultSchema.parse(res.json()).visitsMoved).toBe(0);
    expect(await holderOf(visitId)).toBe(otherId);
  });
});

describe("the former holder's offline report (decision 061)", () => {
  it('is kept as a conflict with its photos, never put on the visit; the holder reports as usual', async () => {
    await handOver(demoId);
    const visitId = await plannedVisit(t, siteId, demoId);
    await handOver(otherId);
    const clientReportId = randomUUID();
    const body = { report: REPORT, teachersMet: [teacherUserId], clientReportId };

    for (let i = 0; i < 2; i++) {
      const kept = await demo().post(`/api/visits/${visitId}/report`, body);
      expect(kept.statusCode, kept.body).toBe(409);
      expect(kept.json()).toMatchObject({
        code: 'visit_reassigned',
        message: VISIT_MESSAGES.visitReassigned,
      });
    }
    const [row] = await t.database.db
      .select()
      .from(visitReportSubmissions)
      .where(eq(visitReportSubmissions.clientReportId, clientReportId));
    expect(row).toMatchObject({
      outcome: 'conflict',
      conflictCode: 'visit_reassigned',
      detectorUserId: demoId,
    });
    const [visit] = await t.database.db.select().from(visits).where(eq(visits.id, visitId));
    expect(visit).toMatchObject({ state: 'pianificata', detectorUserId: otherId, report: null });

    // Without a client id nothing is kept and nothing reaches the visit.
    const bare = await demo().post(`/api/visits/${visitId}/report`, { report: REPORT });
    expect(bare.statusCode).toBe(409);
    expect(bare.json()).toMatchObject({ message: VISIT_MESSAGES.reassignedNotKept });
    // The former holder may only send what they wrote: the visit itself is no longer theirs.
    expect(
      (await demo().post(`/api/visits/${visitId}/outcome`, { state: 'annullata', note: 'No.' })).statusCode,
    ).toBe(403);

    // Their photo goes with their version, for staff to see beside the visit.
    const photo = await tusUpload(demo(), clientReportId, 0, fakeJpeg(2000));
    expect(photo.statusCode, photo.body).toBe(204);
    const list = async (client: ApiClient, query = '') =>
      ReportPhotoListSchema.parse((await client.get(`/api/visits/${visitId}/photos${query}`)).json()).items;
    expect(await list(staff())).toEqual([]);
    expect((await list(staff(), `?clientReportId=${clientReportId}`)).map((p) => p.clientReportId)).toEqual([
      clientReportId,
    ]);
    expect(await list(other())).toEqual([]);
    const badQuery = await staff().get(`/api/visits/${visitId}/photos?clientReportId=nope`);
    expect(badQuery.statusCode).toBe(422);

    const held = await other().post(`/api/visits/${visitId}/report`, {
      report: 'Svolta dal nuovo rilevatore.',
      teachersMet: [],
      clientReportId: randomUUID(),
    });
    expect(held.statusCode, held.body).toBe(200);
    // Reviewing the holder's report, staff are told another version waits as a conflict.
    const [item] = await t.database.db
      .select({ id: reviews.id })
      .from(reviews)
      .where(and(eq(reviews.type, 'visite'), eq(reviews.subjectId, visitId)));
    const openConflicts = async () =>
      ReviewDetailSchema.parse((await staff().get(`/api/reviews/visite/items/${item!.id}`)).json()).content;
    expect(await openConflicts()).toMatchObject({ visit: { openConflicts: 1 } });

    // Discarded: the version stays as it was, and takes no more photos.
    const discard = await staff().post(`/api/visit-report-conflicts/${clientReportId}/resolution`, {
      decision: 'discard',
      note: 'Tenuto il resoconto del nuovo rilevatore.',
    });
    expect(discard.statusCode, discard.body).toBe(200);
    expect(await openConflicts()).toMatchObject({ visit: { openConflicts: 0 } });
    const late = await tusCreate(demo(), 2000, tusMetadata(clientReportId, 1));
    expect(late.statusCode).toBe(403);
  });

  it('accepted by staff gives the visit back to its author, recorded as a reassignment', async () => {
    const visitId = await plannedVisit(t, siteId, otherId);
    await handOver(demoId);
    const clientReportId = randomUUID();
    const kept = await other().post(`/api/visits/${visitId}/report`, { report: REPORT, clientReportId });
    expect(kept.statusCode).toBe(409);
    const accept = await staff().post(`/api/visit-report-conflicts/${clientReportId}/resolution`, {
      decision: 'accept',
    });
    expect(accept.statusCode, accept.body).toBe(200);
    const [visit] = await t.database.db.select().from(visits).where(eq(visits.id, visitId));
    expect(visit).toMatchObject({ state: 'svolta', detectorUserId: otherId, report: REPORT });
    const rows = await t.database.db
      .select()
      .from(visitReassignments)
      .where(eq(visitReassignments.visitId, visitId))
      .orderBy(asc(visitReassignments.id));
    expect(rows.map((r) => [r.fromDetectorUserId, r.toDetectorUserId])).toEqual([
      [otherId, demoId],
      [demoId, otherId],
    ]);
    // Now the demo detector is the former holder: their own version would be kept, not applied.
    const late = await demo().post(`/api/visits/${visitId}/report`, {
      report: REPORT,
      clientReportId: randomUUID(),
    });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'visit_reassigned' });
  });

  it('roles: a guest 401, a detector who never held the visit and the other roles 403, a former holder 409 (kept), the super-admin 200', async () => {
    const visitId = await plannedVisit(t, siteId, demoId);
    const body = () => ({ report: REPORT, clientReportId: randomUUID() });
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect((await guest.post(`/api/visits/${visitId}/report`, body())).statusCode).toBe(401);
    expect((await other().post(`/api/visits/${visitId}/report`, body())).statusCode).toBe(403);
    for (const email of [...OTHER_ROLES, 'sylla@demo.test'])
      expect((await as(email).post(`/api/visits/${visitId}/report`, body())).statusCode, email).toBe(403);
    await handOver(otherId);
    expect((await demo().post(`/api/visits/${visitId}/report`, body())).statusCode).toBe(409);
    // The super-admin, who reports any visit, never held it: their report is put on the visit as before.
    const admin = await as('superadmin@demo.test').post(`/api/visits/${visitId}/report`, body());
    expect(admin.statusCode, admin.body).toBe(200);
    expect(
      await t.database.db
        .select()
        .from(visitReportSubmissions)
        .where(
          and(eq(visitReportSubmissions.visitId, visitId), eq(visitReportSubmissions.outcome, 'conflict')),
        ),
    ).toHaveLength(1);
  });
});
