// Prints, as JSON ({ sql, params }), the query GET /api/map/school-sites runs for the whole country,
// built by the repository's own code, so that bench/map-browser.mjs times exactly that SQL.
import { PgDialect } from 'drizzle-orm/pg-core';
import { mapSchoolSitesQuery } from '../../apps/api/src/modules/map/map.repository.ts';

const query = new PgDialect().sqlToQuery(mapSchoolSitesQuery({}));
console.log(JSON.stringify({ sql: query.sql, params: query.params }));
