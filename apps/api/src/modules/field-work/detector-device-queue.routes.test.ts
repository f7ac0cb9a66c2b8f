import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DetectorListResponseSchema, DeviceQueueStateSchema } from '@portale/shared/field-work';
import { detectorDeviceQueues, roles, userRoles, users } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';

// Issue 39: a detector's browser reports its queue of unsent reports; staff see "N report non inviati
// da X giorni" per detector on the detectors list (decision 051).

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const OTHERS = [
  'superadmin@demo.test',
  'sylla@demo.test',
  'cromos@demo.test',
  'dirigente@demo.test',
  'referente@demo.test',
  'insegnante@demo.test',
  'utenti@demo.test',
];
let detectorId: number;
let otherDetectorId: number;

const put = (client: ApiClient, userId: number, payload: unknown) =>
  client.send('PUT', `/api/detectors/${userId}/device-queue`, { payload: payload as object });

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const [demo] = await db.select().from(users).where(eq(users.email, 'rilevatore@demo.test'));
  detectorId = demo!.id;
  const [created] = await db
    .insert(users)
    .values({
      email: 'coda.rilevatore@demo.test',
      firstName: 'Carla',
      lastName: 'Coda',
      passwordHash: demo!.passwordHash,
      phone: '+393330000997',
      emailVerifiedAt: demo!.emailVerifiedAt,
      phoneVerifiedAt: demo!.phoneVerifiedAt,
    })
    .returning({ id: users.id });
  otherDetectorId = created!.id;
  const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'detector'));
  await db.insert(userRoles).values({ userId: otherDetectorId, roleId: role!.id });
  for (const email of ['rilevatore@demo.test', 'coda.rilevatore@demo.test', ...OTHERS]) {
    const client = new ApiClient(t, nextIp());
    await client.login(email);
    clients.set(email, client);
  }
}, 180_000);
afterAll(() => t.close());

async function staffView(userId: number) {
  const res = await as('sylla@demo.test').get('/api/detectors?pageSize=100');
  expect(res.statusCode, res.body).toBe(200);
  return DetectorListResponseSchema.parse(res.json()).items.find((d) => d.id === userId)!;
}

describe("the detector's device queue", () => {
  it('the detector reports each device; staff see the sum and the oldest unsent on the detectors list', async () => {
    const phone = randomUUID();
    const laptop = randomUUID();
    const now = t.app.clock.now().getTime();
    const threeDaysAgo = new Date(now - 3 * 86_400_000).toISOString();
    const oneDayAgo = new Date(now - 86_400_000).toISOString();
    expect(await staffView(detectorId)).toMatchObject({
      unsentReports: 0,
      oldestUnsentAt: null,
      queueReportedAt: null,
    });
    const first = await put(as('rilevatore@demo.test'), detectorId, {
      deviceId: phone,
      unsent: 2,
      oldestUnsentAt: threeDaysAgo,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(DeviceQueueStateSchema.parse(first.json())).toMatchObject({ unsentReports: 2 });
    const second = await put(as('rilevatore@demo.test'), detectorId, {
      deviceId: laptop,
      unsent: 1,
      oldestUnsentAt: oneDayAgo,
    });
    expect(second.json()).toMatchObject({ unsentReports: 3 });
    const seen = await staffView(detectorId);
    expect(seen.unsentReports).toBe(3);
    expect(new Date(seen.oldestUnsentAt!).getTime()).toBe(new Date(threeDaysAgo).getTime());
    expect(seen.queueReportedAt).not.toBeNull();
    // The phone sent everything: its record says 0, the laptop's report is what is left.
    await put(as('rilevatore@demo.test'), detectorId, { deviceId: phone, unsent: 0, oldestUnsentAt: null });
    const after = await staffView(detectorId);
    expect(after.unsentReports).toBe(1);
    expect(new Date(after.oldestUnsentAt!).getTime()).toBe(new Date(oneDayAgo).getTime());
    const rows = await t.database.db
      .select()
      .from(detectorDeviceQueues)
      .where(eq(detectorDeviceQueues.userId, detectorId));
    expect(rows).toHaveLength(2);
  });

  it('a device clock ahead of the server cannot date the oldest report in the future', async () => {
    const res = await put(as('coda.rilevatore@demo.test'), otherDetectorId, {
      deviceId: randomUUID(),
      unsent: 1,
      oldestUnsentAt: new Date(t.app.clock.now().getTime() + 86_400_000).toISOString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(new Date(res.json().oldestUnsentAt).getTime()).toBeLessThanOrEqual(t.app.clock.now().getTime());
  });

  it('refuses bad input with an Italian message (422) and stores nothing', async () => {
    const before = await t.database.db.select().from(detectorDeviceQueues);
    for (const payload of [
      { deviceId: 'non-un-uuid', unsent: 1, oldestUnsentAt: new Date().toISOString() },
      { deviceId: randomUUID(), unsent: -1, oldestUnsentAt: null },
      { deviceId: randomUUID(), unsent: 1.5, oldestUnsentAt: new Date().toISOString() },
      { deviceId: randomUUID(), unsent: 2, oldestUnsentAt: null },
      { deviceId: randomUUID(), unsent: 0, oldestUnsentAt: new Date().toISOString() },
      { deviceId: randomUUID(), unsent: 1, oldestUnsentAt: 'ieri' },
    ]) {
      const res = await put(as('rilevatore@demo.test'), detectorId, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().message).toMatch(/[a-zà-ù]/i);
    }
    expect(await t.database.db.select().from(detectorDeviceQueues)).toHaveLength(before.length);
  });

  it('only the detector themselves: guest 401, another detector 403 (someone else’s), staff and other roles 403, unknown user 404', async () => {
    const payload = { deviceId: randomUUID(), unsent: 0, oldestUnsentAt: null };
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect((await put(guest, detectorId, payload)).statusCode).toBe(401);
    expect((await put(as('coda.rilevatore@demo.test'), detectorId, payload)).statusCode).toBe(403);
    for (const email of OTHERS)
      expect((await put(as(email), detectorId, payload)).statusCode, email).toBe(403);
    expect((await put(as('rilevatore@demo.test'), 999_999, payload)).statusCode).toBe(404);
    const rows = await t.database.db
      .select()
      .from(detectorDeviceQueues)
      .where(eq(detectorDeviceQueues.deviceId, payload.deviceId));
    expect(rows).toHaveLength(0);
  });
});
