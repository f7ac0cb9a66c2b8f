import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DetectorOverviewSchema } from '@portale/shared/field-work';
import { detectorDeviceQueues, users, visits } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import {
  addDetectorSite,
  DEMO_DETECTOR,
  loggedInClients,
  userIdOf,
} from '../../../test/field-work-harness.ts';

// Issue 39: one detector's page for staff — each device's queue, the latest visits, the conflicts.

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const REFUSED = [
  'rilevatore@demo.test',
  'dirigente@demo.test',
  'referente@demo.test',
  'insegnante@demo.test',
  'utenti@demo.test',
];
let detectorId: number;
let visitId: number;
const deviceId = randomUUID();

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  detectorId = await userIdOf(t, DEMO_DETECTOR);
  const siteId = await addDetectorSite(t, {
    ministryCode: 'OVW0000001',
    name: 'Plesso del rilevatore',
    detectorUserId: detectorId,
  });
  const now = t.app.clock.now();
  const [visit] = await db
    .insert(visits)
    .values({
      schoolSiteId: siteId,
      detectorUserId: detectorId,
      scheduledAt: new Date(now.getTime() + 3 * 24 * 3600_000),
      state: 'pianificata',
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: visits.id });
  visitId = visit!.id;
  await db.insert(detectorDeviceQueues).values({
    userId: detectorId,
    deviceId,
    unsent: 2,
    oldestUnsentAt: new Date(now.getTime() - 2 * 24 * 3600_000),
    reportedAt: now,
  });
  const emails = ['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test', ...REFUSED];
  for (const [email, client] of await loggedInClients(t, emails)) clients.set(email, client);
}, 180_000);
afterAll(() => t.close());

describe('GET /api/detectors/:userId/overview', () => {
  it('staff see the detector, each device’s queue, the latest visits and the conflicts', async () => {
    const res = await as('cromos@demo.test').get(`/api/detectors/${detectorId}/overview`);
    expect(res.statusCode, res.body).toBe(200);
    const overview = DetectorOverviewSchema.parse(res.json());
    expect(overview.detector).toMatchObject({ id: detectorId, unsentReports: 2 });
    expect(overview.devices).toEqual([expect.objectContaining({ deviceId, unsent: 2 })]);
    expect(overview.visits.map((v) => v.id)).toContain(visitId);
    expect(overview.conflicts).toEqual({ open: 0, resolved: 0 });
  });

  it('guest 401, the detector themselves and other roles 403, unknown or not a detector 404', async () => {
    expect((await new ApiClient(t, nextIp()).get(`/api/detectors/${detectorId}/overview`)).statusCode).toBe(
      401,
    );
    for (const email of REFUSED)
      expect((await as(email).get(`/api/detectors/${detectorId}/overview`)).statusCode, email).toBe(403);
    for (const email of ['superadmin@demo.test', 'sylla@demo.test'])
      expect((await as(email).get(`/api/detectors/${detectorId}/overview`)).statusCode, email).toBe(200);
    expect((await as('sylla@demo.test').get('/api/detectors/987654321/overview')).statusCode).toBe(404);
    const [teacher] = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'insegnante@demo.test'));
    expect((await as('sylla@demo.test').get(`/api/detectors/${teacher!.id}/overview`)).statusCode).toBe(404);
  });
});
