import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, users } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('staff unlock', () => {
  it('a super-admin unlocks a locked account, audited; a detector may not', async () => {
    const guesser = new ApiClient(t, nextIp());
    for (let i = 0; i < 10; i++) {
      await guesser.login('insegnante@demo.test', 'sbagliata-davvero');
      t.clock.advance(61_000);
    }
    expect((await new ApiClient(t, nextIp()).login('insegnante@demo.test')).statusCode).toBe(429);
    const [teacher] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'insegnante@demo.test'));

    const detector = new ApiClient(t, nextIp());
    await detector.login('rilevatore@demo.test');
    expect((await detector.post(`/api/users/${teacher!.id}/unlock`)).statusCode).toBe(403);

    const admin = new ApiClient(t, nextIp());
    expect((await admin.login('superadmin@demo.test')).statusCode).toBe(200);
    expect((await admin.post('/api/users/999999/unlock')).statusCode).toBe(404);
    expect((await admin.post(`/api/users/${teacher!.id}/unlock`)).statusCode).toBe(204);
    expect((await new ApiClient(t, nextIp()).login('insegnante@demo.test')).statusCode).toBe(200);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.login.unlocked'), eq(auditLog.entityId, String(teacher!.id))));
    expect(audit).toHaveLength(1);
  });
});
