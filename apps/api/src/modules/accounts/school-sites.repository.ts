import { asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { normaliseSearch } from '@portale/shared/lists';
import type { SchoolSiteOption } from '@portale/shared/accounts';
import { institutes, schoolSites } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { searchCondition, searchRank } from '../../lib/list.ts';

const optionFields = {
  id: schoolSites.id,
  ministryCode: schoolSites.ministryCode,
  name: schoolSites.name,
  municipalityName: schoolSites.municipalityName,
  province: schoolSites.province,
  schoolLevel: schoolSites.schoolLevel,
  instituteName: institutes.name,
};

function optionsWhere(db: DbOrTx, where: SQL, order: SQL[], limit: number): Promise<SchoolSiteOption[]> {
  return db
    .select(optionFields)
    .from(schoolSites)
    .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId))
    .where(where)
    .orderBy(...order, asc(schoolSites.name), asc(schoolSites.id))
    .limit(limit);
}

/**
 * The plesso picker: every word of `q` in the normalised name, comune and codice (`search_text`, GIN
 * trigram index), exact code first, then the closest. Only when no plesso contains the words, the
 * same index is asked for a near spelling (trigram word similarity), so a typo still finds it, the
 * nearest spelling first.
 */
export async function searchSchoolSiteOptions(db: DbOrTx, q: string, limit: number): Promise<SchoolSiteOption[]> {
  const words = searchCondition(schoolSites.searchText, q);
  if (!words) return [];
  const found = await optionsWhere(db, words, searchRank(schoolSites.ministryCode, schoolSites.searchText, q), limit);
  if (found.length > 0) return found;
  const near = normaliseSearch(q);
  return optionsWhere(db, sql`${near} <% ${schoolSites.searchText}`, [desc(sql`word_similarity(${near}, ${schoolSites.searchText})`)], limit);
}

/** True when the plesso exists. */
export async function schoolSiteExists(db: DbOrTx, siteId: number): Promise<boolean> {
  const [site] = await db.select({ id: schoolSites.id }).from(schoolSites).where(eq(schoolSites.id, siteId));
  return site !== undefined;
}
