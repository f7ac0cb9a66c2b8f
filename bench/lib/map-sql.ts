// Prints, as JSON ({ whole: { sql, params }, programme: { sql, params } }), the queries
// GET /api/map/school-sites runs for the whole country, built by the repository's own code, so that
// bench/map-browser.mjs times exactly that SQL: the whole query (after a write that moves a plesso)
// and the narrow one (after a write of participation, detector or state).
import { PgDialect } from 'drizzle-orm/pg-core';
import { mapProgrammeQuery, mapSchoolSitesQuery } from '../../apps/api/src/modules/map/map.repository.ts';

const dialect = new PgDialect();
const whole = dialect.sqlToQuery(mapSchoolSitesQuery({}));
const programme = dialect.sqlToQuery(mapProgrammeQuery({}));
console.log(
  JSON.stringify({
    whole: { sql: whole.sql, params: whole.params },
    programme: { sql: programme.sql, params: programme.params },
  }),
);
