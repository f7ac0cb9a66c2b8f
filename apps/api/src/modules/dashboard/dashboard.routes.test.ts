import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardSummarySchema } from '@portale/shared/dashboard';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const STAFF = new Set(['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test']);

beforeAll(async () => {
  t = await buildTestApp();
  for (const account of DEMO_ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    await client.login(account.email);
    clients.set(account.email, client);
  }
}, 180_000);
afterAll(() => t.close());

describe('GET /api/dashboard/summary', () => {
  it('is for staff only: guest 401, every other account 403', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard/summary' })).statusCode).toBe(401);
    for (const account of DEMO_ACCOUNTS) {
      const res = await clients.get(account.email)!.get('/api/dashboard/summary');
      expect(res.statusCode, account.email).toBe(STAFF.has(account.email) ? 200 : 403);
    }
  });

  it('counts what the database holds, live', async () => {
    const staff = clients.get('cromos@demo.test')!;
    const before = DashboardSummarySchema.parse((await staff.get('/api/dashboard/summary')).json());
    const rows = (await t.database.db.execute(
      sql`select count(*)::int as n from institutes where adhesion_state = 'adesione_firmata'`,
    )) as unknown as { rows: { n: number }[] };
    expect(before.institutesByAdhesionState.adesione_firmata).toBe(Number(rows.rows[0]!.n));
    // What waits is what the review queues hold (a signed adhesion enters the queue when it is signed).
    const pending = (await t.database.db.execute(
      sql`select type, count(*)::int as n from reviews where state = 'in_attesa' group by type`,
    )) as unknown as { rows: { type: string; n: number }[] };
    const waiting = (type: string) => Number(pending.rows.find((r) => r.type === type)?.n ?? 0);
    expect(before.awaitingReview).toEqual({
      adesioni: waiting('adesioni'),
      insegnanti: waiting('insegnanti'),
    });
    expect(before.institutesTotal).toBe(
      Object.values(before.institutesByAdhesionState).reduce((a, b) => a + b, 0),
    );
    await t.database.db.execute(
      sql`update institutes set adhesion_state = 'attivo' where adhesion_state = 'nessuna'`,
    );
    const after = DashboardSummarySchema.parse((await staff.get('/api/dashboard/summary')).json());
    expect(after.institutesByAdhesionState.attivo).toBe(
      before.institutesByAdhesionState.attivo + before.institutesByAdhesionState.nessuna,
    );
  });
});
