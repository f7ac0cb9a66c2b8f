import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  ADHESION_STATES,
  type InstituteDetail,
  type InstituteListQuery,
  type InstituteSummary,
  type InstituteUpdate,
} from '@portale/shared/registry';
import type { OwnedResource } from '@portale/shared/auth';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import {
  institutes,
  instituteAdhesionTransitions,
  instituteSearch,
  schoolSites,
  teacherProfiles,
  users,
} from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import {
  aliased,
  countAll,
  CountCache,
  orderByOf,
  paginate,
  asValue,
  listRows,
  listShape,
  rawCount,
  rowValue,
  searchCondition,
  searchTableRank,
  type Bind,
  type Page,
} from '../../lib/list.ts';

const totals = new CountCache();

/** Forgets the cached list totals: call it after a write elsewhere that changes what the list counts (e.g. an adhesion state). */
export function clearInstituteTotals(): void {
  totals.clear();
}

type Filters = Omit<InstituteListQuery, 'page' | 'pageSize' | 'sort'> & { sort?: InstituteListQuery['sort'] };

const summaryFields = aliased({
  id: institutes.id,
  ministryCode: institutes.ministryCode,
  name: institutes.name,
  type: institutes.type,
  isStateSchool: institutes.isStateSchool,
  region: institutes.region,
  province: institutes.province,
  municipalityName: institutes.municipalityName,
  adhesionState: institutes.adhesionState,
  adhesionStateChangedAt: institutes.adhesionStateChangedAt,
  schoolSiteCount: institutes.schoolSiteCount,
});

const SORT_COLUMNS = {
  name: institutes.name,
  ministryCode: institutes.ministryCode,
  municipalityName: institutes.municipalityName,
  province: institutes.province,
  region: institutes.region,
  adhesionState: institutes.adhesionState,
  adhesionStateChangedAt: institutes.adhesionStateChangedAt,
  schoolSiteCount: institutes.schoolSiteCount,
};

/** A raw row (list page or export cursor) as the shared DTO. */
export function toInstituteSummary(row: Record<string, unknown>): InstituteSummary {
  return {
    id: rowValue.int(row.id),
    ministryCode: rowValue.text(row.ministryCode),
    name: rowValue.text(row.name),
    type: rowValue.text(row.type),
    isStateSchool: rowValue.bool(row.isStateSchool),
    region: rowValue.text(row.region),
    province: rowValue.text(row.province),
    municipalityName: rowValue.text(row.municipalityName),
    adhesionState: row.adhesionState as InstituteSummary['adhesionState'],
    adhesionStateChangedAt: rowValue.iso(row.adhesionStateChangedAt),
    schoolSiteCount: rowValue.int(row.schoolSiteCount),
  };
}

/**
 * The institutes that joined the programme: every state but the first, `nessuna`, which most of the
 * ~20,000 institutes keep. The states are named one by one so that the `adhesion_state` index finds
 * the few enrolled ones; `<> 'nessuna'` would read every institute.
 */
export const enrolledInstitute: SQL = inArray(institutes.adhesionState, ADHESION_STATES.slice(1));

/** The registry's institute filters as one condition on the institutes' own `search_text` (the adhesions panel). */
export function instituteFilterCondition(
  filters: Pick<Filters, 'q' | 'region' | 'province' | 'adhesionState' | 'stateSchool' | 'level'>,
): SQL | undefined {
  return and(searchCondition(institutes.searchText, filters.q), columnFilters(filters));
}

/** The filters on the institute's own columns: every filter but the search words. */
function columnFilters(
  filters: Pick<Filters, 'region' | 'province' | 'adhesionState' | 'stateSchool' | 'level'>,
  bind: Bind = asValue,
): SQL | undefined {
  return and(
    filters.region ? eq(institutes.region, bind(filters.region)) : undefined,
    filters.province ? eq(institutes.province, bind(filters.province)) : undefined,
    filters.adhesionState ? eq(institutes.adhesionState, bind(filters.adhesionState)) : undefined,
    filters.stateSchool === undefined ? undefined : eq(institutes.isStateSchool, bind(filters.stateSchool)),
    filters.level
      ? sql`exists (select 1 from ${schoolSites} where ${schoolSites.instituteId} = ${institutes.id} and ${schoolSites.schoolLevel} = ${bind(filters.level)})`
      : undefined,
  );
}

/**
 * The list's words are searched in the narrow search table (decision 027), joined to the institutes
 * only when a filter or the sort reads them: a plain search ranks its matches from the search rows alone.
 */
const search = instituteSearch;

function whereOf(filters: Filters, bind: Bind = asValue): SQL | undefined {
  return and(searchCondition(search.text, filters.q, bind), columnFilters(filters, bind));
}

function orderOf(filters: Filters, bind: Bind = asValue): SQL[] {
  if (!filters.sort && filters.q) return searchTableRank(search, filters.q, bind);
  return orderByOf(filters.sort ?? { column: 'name', direction: 'asc' }, SORT_COLUMNS, institutes.id);
}

/** `from` of a list query: the institutes, with their search rows when the words are searched. */
function fromInstitutes(db: DbOrTx, fields: SelectedFields, filters: Filters) {
  const query = db.select(fields).from(institutes).$dynamic();
  return filters.q ? query.innerJoin(search, eq(search.id, institutes.id)) : query;
}

/** The filtered, sorted query of the list and of its export. */
export function instituteListQuery(db: DbOrTx, filters: Filters) {
  return fromInstitutes(db, summaryFields, filters)
    .where(whereOf(filters))
    .orderBy(...orderOf(filters));
}

/** `from` of the count and of a page's ids: the search rows alone when only the words filter and rank. */
function fromMatches(
  db: DbOrTx,
  fields: (id: typeof institutes.id | typeof search.id) => SelectedFields,
  filters: Filters,
  forSort: boolean,
) {
  const readsInstitutes = columnFilters(filters) !== undefined || (forSort && filters.sort !== undefined);
  if (!filters.q) return db.select(fields(institutes.id)).from(institutes).$dynamic();
  const query = db.select(fields(search.id)).from(search).$dynamic();
  return readsInstitutes ? query.innerJoin(institutes, eq(institutes.id, search.id)) : query;
}

/** The count of the same filters (the list's `total` and the export's row count). */
export function instituteCountQuery(db: DbOrTx, filters: Filters) {
  return fromMatches(db, () => ({ n: countAll }), filters, false).where(whereOf(filters));
}

/** One page: the page's ids first (index-only past the offset), then their rows ("late row lookup"). */
export function institutePageQuery(
  db: DbOrTx,
  filters: Filters,
  limit: number,
  offset: number,
  bind: Bind = asValue,
) {
  const ids = fromMatches(db, (id) => ({ id }), filters, true)
    .where(whereOf(filters, bind))
    .orderBy(...orderOf(filters, bind))
    .limit(bind(limit))
    .offset(bind(offset));
  return fromInstitutes(db, summaryFields, { ...filters, q: filters.sort ? undefined : filters.q })
    .where(inArray(institutes.id, ids))
    .orderBy(...orderOf(filters, bind));
}

export function countInstitutes(db: DbOrTx, filters: Filters): Promise<number> {
  return totals.get(db, filters, () => rawCount(db, instituteCountQuery(db, filters)));
}

export function listInstitutes(db: DbOrTx, query: InstituteListQuery): Promise<Page<InstituteSummary>> {
  return paginate(
    async (limit, offset) =>
      (
        await listRows(db, listShape('institutes', query), (bind) =>
          institutePageQuery(db, query, limit, offset, bind),
        )
      ).map(toInstituteSummary),
    () => countInstitutes(db, query),
    query.page,
    query.pageSize,
  );
}

/** Who owns an institute for `:own` grants: its principal and first contact. `undefined` when missing. */
export async function findInstituteOwners(
  db: DbOrTx,
  instituteId: number,
): Promise<OwnedResource | undefined> {
  const [row] = await db
    .select({ principal: institutes.principalUserId, firstContact: institutes.firstContactUserId })
    .from(institutes)
    .where(eq(institutes.id, instituteId));
  return row && { ownerUserIds: [row.principal, row.firstContact] };
}

const person = { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email };

async function findPeople(db: DbOrTx, ids: (number | null)[]) {
  const wanted = ids.filter((id): id is number => id !== null);
  if (wanted.length === 0) return new Map<number, InstituteDetail['principal']>();
  const rows = await db.select(person).from(users).where(inArray(users.id, wanted));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The editable contact fields, as stored (for the audit's before/after). */
export async function findInstituteContacts(db: DbOrTx, instituteId: number) {
  const [row] = await db
    .select({
      address: institutes.address,
      postalCode: institutes.postalCode,
      email: institutes.email,
      certifiedEmail: institutes.certifiedEmail,
      phone: institutes.phone,
      website: institutes.website,
    })
    .from(institutes)
    .where(eq(institutes.id, instituteId))
    .for('update');
  return row;
}

export async function updateInstituteContacts(
  db: DbOrTx,
  instituteId: number,
  changes: InstituteUpdate,
  now: Date,
): Promise<void> {
  await db
    .update(institutes)
    .set({ ...changes, updatedAt: now })
    .where(eq(institutes.id, instituteId));
  totals.clear();
}

/** The institute's page: data, plessi, people and the dated adhesion history. */
export async function findInstitute(db: DbOrTx, instituteId: number): Promise<InstituteDetail | undefined> {
  const [row] = await db
    .select({
      ...summaryFields,
      ...aliased({
        municipalityCode: institutes.municipalityCode,
        address: institutes.address,
        postalCode: institutes.postalCode,
        email: institutes.email,
        certifiedEmail: institutes.certifiedEmail,
        phone: institutes.phone,
        website: institutes.website,
        principalUserId: institutes.principalUserId,
        firstContactUserId: institutes.firstContactUserId,
        updatedAt: institutes.updatedAt,
      }),
    })
    .from(institutes)
    .where(eq(institutes.id, instituteId));
  if (!row) return undefined;
  const principalId = row.principalUserId === null ? null : rowValue.int(row.principalUserId);
  const firstContactId = row.firstContactUserId === null ? null : rowValue.int(row.firstContactUserId);
  const [people, sites, teachers, history] = await Promise.all([
    findPeople(db, [principalId, firstContactId]),
    db
      .select({
        id: schoolSites.id,
        ministryCode: schoolSites.ministryCode,
        name: schoolSites.name,
        schoolLevel: schoolSites.schoolLevel,
        municipalityName: schoolSites.municipalityName,
        participating: schoolSites.participating,
      })
      .from(schoolSites)
      .where(eq(schoolSites.instituteId, instituteId))
      .orderBy(schoolSites.name, schoolSites.id),
    db
      .select({
        ...person,
        schoolSiteId: teacherProfiles.schoolSiteId,
        kind: teacherProfiles.kind,
        reviewState: teacherProfiles.reviewState,
      })
      .from(teacherProfiles)
      .innerJoin(users, eq(users.id, teacherProfiles.userId))
      .innerJoin(schoolSites, eq(schoolSites.id, teacherProfiles.schoolSiteId))
      .where(eq(schoolSites.instituteId, instituteId))
      .orderBy(users.lastName, users.firstName, users.id),
    db
      .select({
        state: instituteAdhesionTransitions.toState,
        at: instituteAdhesionTransitions.at,
        note: instituteAdhesionTransitions.note,
        actorFirst: users.firstName,
        actorLast: users.lastName,
      })
      .from(instituteAdhesionTransitions)
      .leftJoin(users, eq(users.id, instituteAdhesionTransitions.actorUserId))
      .where(eq(instituteAdhesionTransitions.instituteId, instituteId))
      .orderBy(desc(instituteAdhesionTransitions.at), desc(instituteAdhesionTransitions.id)),
  ]);
  return {
    ...toInstituteSummary(row),
    municipalityCode: rowValue.text(row.municipalityCode),
    address: rowValue.textOrNull(row.address),
    postalCode: rowValue.textOrNull(row.postalCode),
    email: rowValue.textOrNull(row.email),
    certifiedEmail: rowValue.textOrNull(row.certifiedEmail),
    phone: rowValue.textOrNull(row.phone),
    website: rowValue.textOrNull(row.website),
    principal: (principalId !== null && people.get(principalId)) || null,
    firstContact: (firstContactId !== null && people.get(firstContactId)) || null,
    teachers,
    schoolSites: sites,
    adhesionHistory: history.map((h) => ({
      state: h.state,
      at: h.at.toISOString(),
      actor: h.actorFirst ? `${h.actorFirst} ${h.actorLast}` : null,
      note: h.note,
    })),
    updatedAt: rowValue.iso(row.updatedAt)!,
  };
}
