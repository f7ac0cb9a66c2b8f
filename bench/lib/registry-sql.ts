// Prints, as JSON, the SQL the API runs for each list scenario of bench/registry.mjs (page query and
// count), built by the same repository code, so that the raw-SQL reference runs exactly those queries.
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { InstituteListQuerySchema, SchoolSiteListQuerySchema } from '@portale/shared/registry';
import type { Db } from '../../apps/api/src/db/client.ts';
import * as schema from '../../apps/api/src/db/schema/index.ts';
import * as institutes from '../../apps/api/src/modules/registry/institutes.repository.ts';
import * as sites from '../../apps/api/src/modules/registry/school-sites.repository.ts';

const db = drizzle(new pg.Pool(), { schema }) as unknown as Db;
const scenarios = JSON.parse(process.argv[2] ?? '[]') as { path: string; query: string }[];
const out = scenarios.map(({ path, query }) => {
  const raw = Object.fromEntries(new URLSearchParams(query));
  if (path === '/api/institutes') {
    const q = InstituteListQuerySchema.parse(raw);
    return {
      page: institutes.institutePageQuery(db, q, q.pageSize, (q.page - 1) * q.pageSize).toSQL(),
      count: institutes.instituteCountQuery(db, q).toSQL(),
    };
  }
  const q = SchoolSiteListQuerySchema.parse(raw);
  return {
    page: sites.schoolSitePageQuery(db, q, q.pageSize, (q.page - 1) * q.pageSize).toSQL(),
    count: sites.schoolSiteCountQuery(db, q).toSQL(),
  };
});
console.log(JSON.stringify(out));
process.exit(0);
