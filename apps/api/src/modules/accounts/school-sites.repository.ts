import { asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { normaliseSearch } from '@portale/shared/lists';
import type { SchoolSiteOption } from '@portale/shared/accounts';
import { institutes, schoolSites } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { aliased, rawRows, rowValue, searchCondition, searchRank } from '../../lib/list.ts';

const optionFields = aliased({
  id: schoolSites.id,
  ministryCode: schoolSites.ministryCode,
  name: schoolSites.name,
  municipalityName: schoolSites.municipalityName,
  province: schoolSites.province,
  schoolLevel: schoolSites.schoolLevel,
  instituteName: institutes.name,
});

function toOption(row: Record<string, unknown>): SchoolSiteOption {
  return {
    id: rowValue.int(row.id),
    ministryCode: rowValue.text(row.ministryCode),
    name: rowValue.text(row.name),
    municipalityName: rowValue.text(row.municipalityName),
    province: rowValue.text(row.province),
    schoolLevel: rowValue.text(row.schoolLevel),
    instituteName: rowValue.text(row.instituteName),
  };
}

/**
 * Through rawRows, as the lists: a named statement, parsed and planned once per connection (decision
 * 012). The ids of the page first, from plessi alone, then the rows of those ids with their institute
 * ("late row lookup", as the list's page): ranking a common word sorts its thousands of plessi on
 * narrow rows, and the plan PostgreSQL keeps for the statement never joins every institute first.
 */
async function optionsWhere(
  db: DbOrTx,
  where: SQL,
  order: SQL[],
  limit: number,
): Promise<SchoolSiteOption[]> {
  const orderBy = [...order, asc(schoolSites.name), asc(schoolSites.id)];
  const ids = db
    .select({ id: schoolSites.id })
    .from(schoolSites)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit);
  const query = db
    .select(optionFields)
    .from(schoolSites)
    .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId))
    .where(inArray(schoolSites.id, ids))
    .orderBy(...orderBy);
  return (await rawRows(db, query)).map(toOption);
}

/**
 * The plesso picker: every word of `q` in the normalised name, comune and codice (`search_text`, GIN
 * trigram index), exact code first, then the closest. Only when no plesso contains the words, the
 * same index is asked for a near spelling (trigram word similarity), so a typo still finds it, the
 * nearest spelling first.
 */
export async function searchSchoolSiteOptions(
  db: DbOrTx,
  q: string,
  limit: number,
): Promise<SchoolSiteOption[]> {
  const words = searchCondition(schoolSites.searchText, q);
  if (!words) return [];
  const found = await optionsWhere(
    db,
    words,
    searchRank(schoolSites.ministryCode, schoolSites.searchText, q),
    limit,
  );
  if (found.length > 0) return found;
  const near = normaliseSearch(q);
  return optionsWhere(
    db,
    sql`${near} <% ${schoolSites.searchText}`,
    [desc(sql`word_similarity(${near}, ${schoolSites.searchText})`)],
    limit,
  );
}

/** True when the plesso exists. */
export async function schoolSiteExists(db: DbOrTx, siteId: number): Promise<boolean> {
  const [site] = await db.select({ id: schoolSites.id }).from(schoolSites).where(eq(schoolSites.id, siteId));
  return site !== undefined;
}
