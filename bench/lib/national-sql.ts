// Prints, as JSON, the statements the API runs for each endpoint of bench/national.mjs: the same
// repository (or route) code is called once on a drizzle database whose logger records every statement,
// so the raw-SQL reference of the bench runs exactly those statements on a raw pg pool.
// Usage: npx tsx bench/lib/national-sql.ts '<scenarios JSON>'   (DATABASE_URL: the bench database)
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { AuditQuerySchema } from '@portale/shared/registry';
import { ProgressFiltersSchema } from '@portale/shared/progress';
import { ReviewListQuerySchema } from '@portale/shared/reviews';
import { ResultsQuerySchema } from '@portale/shared/surveys';
import { TeacherListQuerySchema } from '@portale/shared/teachers';
import { UserListQuerySchema } from '@portale/shared/users';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../apps/api/src/db/client.ts';
import * as schema from '../../apps/api/src/db/schema/index.ts';
import {
  ceilingsReachedSince,
  summarise,
} from '../../apps/api/src/modules/dashboard/dashboard.repository.ts';
import { progressOf } from '../../apps/api/src/modules/progress/progress.routes.ts';
import { listAudit } from '../../apps/api/src/modules/registry/audit.repository.ts';
import * as results from '../../apps/api/src/modules/results/results.repository.ts';
import { listReviews } from '../../apps/api/src/modules/reviews/reviews.repository.ts';
import { listTeachers } from '../../apps/api/src/modules/teachers/teachers.repository.ts';
import { listUsers } from '../../apps/api/src/modules/users/users.repository.ts';

interface Statement {
  text: string;
  params: unknown[];
}
let recorded: Statement[] = [];
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
const db = drizzle(pool, {
  schema,
  logger: { logQuery: (text, params) => recorded.push({ text, params }) },
}) as unknown as Db;
const now = () => new Date();
const app = { db, clock: { now } } as unknown as FastifyInstance;

const scenarios = JSON.parse(process.argv[2] ?? '[]') as { path: string; query: string }[];
const out: Statement[][] = [];
for (const { path, query } of scenarios) {
  const raw = Object.fromEntries(new URLSearchParams(query));
  recorded = [];
  if (path === '/api/teachers') await listTeachers(db, TeacherListQuerySchema.parse(raw));
  else if (path === '/api/users') await listUsers(db, UserListQuerySchema.parse(raw), now());
  else if (path.startsWith('/api/reviews/'))
    await listReviews(db, path.split('/').pop() as 'insegnanti', ReviewListQuerySchema.parse(raw), now());
  else if (path === '/api/dashboard/summary') {
    await ceilingsReachedSince(db, new Date(Date.now() - 86_400_000));
    await summarise(db, now());
  } else if (path === '/api/progress') await progressOf(app, ProgressFiltersSchema.parse(raw));
  else if (path === '/api/audit') await listAudit(db, AuditQuerySchema.parse(raw));
  else if (path === '/api/results') {
    // The cached call: the closed surveys and the cache's stamp (what every call after the first runs),
    // without computing the results here (minutes at national volume before decision 033).
    ResultsQuerySchema.parse(raw);
    const closed = await results.listClosedSurveys(db);
    const stamp =
      'resultsVersion' in results
        ? results.resultsVersion
        : (results as unknown as { responsesStamp: typeof results.resultsVersion }).responsesStamp;
    if (closed[0]) await stamp(db, closed[0].id);
  } else if (path === '/api/health') recorded = [{ text: 'select 1', params: [] }];
  else throw new Error(`no SQL reference for ${path}`);
  out.push(recorded);
}
console.log(JSON.stringify(out));
await pool.end();
process.exit(0);
