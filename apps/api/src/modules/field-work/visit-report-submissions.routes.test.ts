import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VisitReportConflictListSchema, VisitSchema } from '@portale/shared/field-work';
import { auditLog, reviews, visitReportSubmissions, visits } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import {
  addDetectorSite,
  addSecondDetector,
  DEMO_DETECTOR,
  loggedInClients,
  OTHER_DETECTOR,
  placeDemoTeacher,
  plannedVisit as plannedVisitAt,
} from '../../../test/field-work-harness.ts';

// Issue 39, first slice: the visit report sent with a client-generated id is idempotent, and a report for
// a visit staff changed meanwhile is kept as a conflict (decision 043).

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const detector = () => as('rilevatore@demo.test');
const other = () => as('altro.rilevatore@demo.test');
const OTHERS = [
  'sylla@demo.test',
  'cromos@demo.test',
  'dirigente@demo.test',
  'referente@demo.test',
  'insegnante@demo.test',
  'utenti@demo.test',
];

let detectorId: number;
let siteId: number;
let teacherUserId: number;

/** A visit planned yesterday (reportable under any "from its day" rule) for the demo detector. */
const plannedVisit = () => plannedVisitAt(t, siteId, detectorId);

const REPORT = 'Visita svolta: incontrati gli insegnanti, nessun problema.';

beforeAll(async () => {
  t = await buildTestApp();
  ({ detectorId } = await addSecondDetector(t, '+393330000998'));
  siteId = await addDetectorSite(t, {
    ministryCode: 'OFF0000001',
    name: 'Plesso offline',
    detectorUserId: detectorId,
    address: 'Via dei Monti 1',
  });
  teacherUserId = await placeDemoTeacher(t, siteId);
  const emails = ['superadmin@demo.test', DEMO_DETECTOR, OTHER_DETECTOR, ...OTHERS];
  for (const [email, client] of await loggedInClients(t, emails)) clients.set(email, client);
}, 180_000);
afterAll(() => t.close());

describe('idempotent visit report (client-generated id)', () => {
  it('a replay answers the stored result: same status and body, one report, one review, one audit', async () => {
    const visitId = await plannedVisit();
    const payload = {
      report: REPORT,
      teachersMet: [teacherUserId, teacherUserId],
      clientReportId: randomUUID(),
    };
    const first = await detector().post(`/api/visits/${visitId}/report`, payload);
    expect(first.statusCode).toBe(200);
    expect(VisitSchema.parse(first.json())).toMatchObject({
      state: 'svolta',
      reviewState: 'in_attesa',
      report: REPORT,
    });
    for (let i = 0; i < 3; i++) {
      // The same draft replayed (a retry after a lost answer, a second tab): whitespace and teacher order do not matter.
      const replay = await detector().post(`/api/visits/${visitId}/report`, {
        ...payload,
        report: `  ${REPORT} `,
        teachersMet: [teacherUserId],
      });
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual(first.json());
    }
    const db = t.database.db;
    expect(
      await db
        .select()
        .from(reviews)
        .where(and(eq(reviews.type, 'visite'), eq(reviews.subjectId, visitId))),
    ).toHaveLength(1);
    expect(
      await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'visit.reported'), eq(auditLog.entityId, String(visitId)))),
    ).toHaveLength(1);
    expect(
      await db.select().from(visitReportSubmissions).where(eq(visitReportSubmissions.visitId, visitId)),
    ).toHaveLength(1);
  });

  it('a different payload under the same client id is 409 with an Italian message, and changes nothing', async () => {
    const visitId = await plannedVisit();
    const clientReportId = randomUUID();
    expect(
      (await detector().post(`/api/visits/${visitId}/report`, { report: REPORT, clientReportId })).statusCode,
    ).toBe(200);
    const changed = await detector().post(`/api/visits/${visitId}/report`, {
      report: `${REPORT} Aggiunta.`,
      clientReportId,
    });
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toMatchObject({
      code: 'client_report_id_reused',
      message: expect.stringMatching(/già stata inviata con un contenuto diverso/),
    });
    // The same id for another visit is a different payload too.
    const elsewhere = await plannedVisit();
    expect(
      (await detector().post(`/api/visits/${elsewhere}/report`, { report: REPORT, clientReportId }))
        .statusCode,
    ).toBe(409);
    const [visit] = await t.database.db.select().from(visits).where(eq(visits.id, visitId));
    expect(visit!.report).toBe(REPORT);
    const [untouched] = await t.database.db.select().from(visits).where(eq(visits.id, elsewhere));
    expect(untouched!.state).toBe('pianificata');
  });

  it('a report for a visit cancelled meanwhile is 409, kept as a conflict and listed for staff; its replay answers the same 409', async () => {
    const visitId = await plannedVisit();
    await t.database.db
      .update(visits)
      .set({ state: 'annullata', outcomeNote: 'Scuola chiusa' })
      .where(eq(visits.id, visitId));
    const clientReportId = randomUUID();
    const res = await detector().post(`/api/visits/${visitId}/report`, {
      report: REPORT,
      teachersMet: [teacherUserId],
      clientReportId,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'visit_changed',
      message: expect.stringMatching(/la tua versione è stata conservata/),
    });
    const replay = await detector().post(`/api/visits/${visitId}/report`, {
      report: REPORT,
      teachersMet: [teacherUserId],
      clientReportId,
    });
    expect(replay.statusCode).toBe(409);
    expect(replay.json()).toEqual(res.json());
    // Never a silent overwrite: the visit stays cancelled, the version sent is stored.
    const [visit] = await t.database.db.select().from(visits).where(eq(visits.id, visitId));
    expect(visit).toMatchObject({ state: 'annullata', report: null });
    const list = await as('superadmin@demo.test').get('/api/visit-report-conflicts');
    expect(list.statusCode).toBe(200);
    // A paginated list like every other: the page asked, its size and the total of the same filter.
    expect(list.json()).toMatchObject({ page: 1, pageSize: 25, total: expect.any(Number) });
    expect(list.json().total).toBeGreaterThanOrEqual(1);
    const beyond = await as('superadmin@demo.test').get('/api/visit-report-conflicts?page=999&pageSize=50');
    expect(beyond.json()).toMatchObject({ items: [], page: 999, pageSize: 50 });
    expect((await as('superadmin@demo.test').get('/api/visit-report-conflicts?page=0')).statusCode).toBe(422);
    const conflicts = VisitReportConflictListSchema.parse(list.json()).items.filter(
      (c) => c.visit.id === visitId,
    );
    expect(conflicts).toEqual([
      expect.objectContaining({
        clientReportId,
        report: REPORT,
        teachersMet: [expect.objectContaining({ id: teacherUserId })],
        visitState: 'annullata',
        code: 'visit_changed',
        detector: expect.objectContaining({ id: detectorId }),
      }),
    ]);
  });

  it('without a client id the report behaves as before (a second report is 409 visit_transition)', async () => {
    const visitId = await plannedVisit();
    expect((await detector().post(`/api/visits/${visitId}/report`, { report: REPORT })).statusCode).toBe(200);
    const again = await detector().post(`/api/visits/${visitId}/report`, { report: REPORT });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('visit_transition');
    // A new client id for a visit already reported is not a replay: the same 409.
    expect(
      (
        await detector().post(`/api/visits/${visitId}/report`, {
          report: REPORT,
          clientReportId: randomUUID(),
        })
      ).json().code,
    ).toBe('visit_transition');
  });

  it('refuses a malformed client id with an Italian message (422, never 500)', async () => {
    const visitId = await plannedVisit();
    const res = await detector().post(`/api/visits/${visitId}/report`, {
      report: REPORT,
      clientReportId: 'non-un-uuid',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.clientReportId).toEqual([
      'Identificativo della bozza non valido: deve essere un UUID.',
    ]);
  });

  it('only the assigned detector (or the super-admin) sends it: guest 401, another detector and other roles 403, unknown visit 404', async () => {
    const visitId = await plannedVisit();
    const payload = { report: REPORT, clientReportId: randomUUID() };
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect((await guest.post(`/api/visits/${visitId}/report`, payload)).statusCode).toBe(401);
    expect((await other().post(`/api/visits/${visitId}/report`, payload)).statusCode).toBe(403);
    for (const email of OTHERS)
      expect((await as(email).post(`/api/visits/${visitId}/report`, payload)).statusCode, email).toBe(403);
    expect((await detector().post('/api/visits/987654321/report', payload)).statusCode).toBe(404);
    // Refusals store nothing: the detector's first send is still the first.
    expect(
      await t.database.db
        .select()
        .from(visitReportSubmissions)
        .where(eq(visitReportSubmissions.clientReportId, payload.clientReportId)),
    ).toHaveLength(0);
    expect((await detector().post(`/api/visits/${visitId}/report`, payload)).statusCode).toBe(200);
    // The id is the detector's: another user replaying it cannot read the stored answer.
    const admin = await as('superadmin@demo.test').post(`/api/visits/${visitId}/report`, payload);
    expect(admin.statusCode).toBe(409);
    expect(admin.json().code).toBe('client_report_id_reused');
  });

  it('lists the conflicts for staff who manage detectors: guest 401, detector and other roles 403', async () => {
    expect((await new ApiClient(t, nextIp()).get('/api/visit-report-conflicts')).statusCode).toBe(401);
    for (const email of ['sylla@demo.test', 'cromos@demo.test'])
      expect((await as(email).get('/api/visit-report-conflicts')).statusCode, email).toBe(200);
    const refused = ['rilevatore@demo.test', ...OTHERS.filter((e) => !/sylla|cromos/.test(e))];
    for (const email of refused)
      expect((await as(email).get('/api/visit-report-conflicts')).statusCode, email).toBe(403);
  });
});
