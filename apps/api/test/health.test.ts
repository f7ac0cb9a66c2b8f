import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { AUTH_PATHS } from '@portale/shared/http';
import { buildTestApp, queriesOf, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('health: live and ready', () => {
  it('GET /api/health/live answers without touching the database', async () => {
    const queries = await queriesOf(t.database, async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/health/live' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    });
    expect(queries).toEqual([]);
  });

  it('GET /api/health/ready and GET /api/health answer 200 with the database status', async () => {
    for (const url of ['/api/health/ready', '/api/health']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.json(), url).toEqual({ status: 'ok', database: 'ok' });
    }
  });

  it('ready answers 503 while the database does not answer; live stays 200', async () => {
    const execute = vi.spyOn(t.app.db, 'execute').mockRejectedValue(new Error('connection refused'));
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'error', database: 'error' });
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
      expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      execute.mockRestore();
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });
});

/** The backends of the test database, seen from another connection to the same server. */
async function withAdmin<T>(work: (admin: pg.Client, database: string) => Promise<T>): Promise<T> {
  const { rows } = (await t.database.db.execute(sql`select current_database() as name`)) as unknown as {
    rows: { name: string }[];
  };
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    return await work(admin, rows[0]!.name);
  } finally {
    await admin.end();
  }
}

describe.skipIf(!process.env.DATABASE_URL)(
  'PostgreSQL drops the API connections (pg_terminate_backend)',
  () => {
    it('the process survives and the next requests succeed without a restart', async () => {
      const c = new ApiClient(t, nextIp());
      expect((await c.login('insegnante@demo.test')).statusCode).toBe(200);
      // Several idle connections in the pool, as after a burst of traffic.
      await Promise.all(
        Array.from({ length: 5 }, () =>
          t.app.inject({
            method: 'GET',
            url: AUTH_PATHS.me,
            headers: { authorization: `Bearer ${c.token}` },
          }),
        ),
      );

      const terminated = await withAdmin(async (admin, database) => {
        const { rows } = await admin.query<{ n: number }>(
          'select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()) killed',
          [database],
        );
        // What a restart or a failover does: every backend of the API is gone before it notices.
        for (let waited = 0; waited < 5000; waited += 20) {
          const left = await admin.query<{ n: number }>(
            'select count(*)::int as n from pg_stat_activity where datname = $1',
            [database],
          );
          if (left.rows[0]!.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return rows[0]!.n;
      });
      expect(terminated).toBeGreaterThan(0);
      // The pool reads the servers' "terminating connection" notices (an 'error' event per connection).
      await new Promise((resolve) => setTimeout(resolve, 100));

      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok', database: 'ok' });
      const me = await c.get(AUTH_PATHS.me);
      expect(me.statusCode).toBe(200);
      expect(me.json().user.email).toBe('insegnante@demo.test');
      // A transaction (a new login) runs on a fresh connection too.
      expect((await new ApiClient(t, nextIp()).login('dirigente@demo.test')).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
    });
  },
);
