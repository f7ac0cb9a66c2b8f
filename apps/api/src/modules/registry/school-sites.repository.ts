import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { OwnedResource } from '@portale/shared/auth';
import type {
  SchoolSiteDetail,
  SchoolSiteListQuery,
  SchoolSiteSummary,
  SchoolSiteUpdate,
} from '@portale/shared/registry';
import { institutes, schoolSites, schoolSiteSearch, teacherProfiles, users } from '../../db/schema/index.ts';
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

/** Forgets the cached list totals: call it after a write elsewhere that changes what the list counts (e.g. participation). */
export function clearSchoolSiteTotals(): void {
  totals.clear();
}

type Filters = Omit<SchoolSiteListQuery, 'page' | 'pageSize' | 'sort'> & {
  sort?: SchoolSiteListQuery['sort'];
};

const summaryFields = aliased({
  id: schoolSites.id,
  ministryCode: schoolSites.ministryCode,
  name: schoolSites.name,
  schoolLevel: schoolSites.schoolLevel,
  typeLabel: schoolSites.typeLabel,
  region: schoolSites.region,
  province: schoolSites.province,
  municipalityName: schoolSites.municipalityName,
  participating: schoolSites.participating,
  instituteId: schoolSites.instituteId,
  instituteCode: institutes.ministryCode,
  instituteName: institutes.name,
  isStateSchool: institutes.isStateSchool,
  adhesionState: institutes.adhesionState,
});

const SORT_COLUMNS = {
  name: schoolSites.name,
  ministryCode: schoolSites.ministryCode,
  municipalityName: schoolSites.municipalityName,
  province: schoolSites.province,
  region: schoolSites.region,
  schoolLevel: schoolSites.schoolLevel,
  instituteName: institutes.name,
  adhesionState: institutes.adhesionState,
};

export function toSchoolSiteSummary(row: Record<string, unknown>): SchoolSiteSummary {
  return {
    id: rowValue.int(row.id),
    ministryCode: rowValue.text(row.ministryCode),
    name: rowValue.text(row.name),
    schoolLevel: row.schoolLevel as SchoolSiteSummary['schoolLevel'],
    typeLabel: rowValue.text(row.typeLabel),
    region: rowValue.text(row.region),
    province: rowValue.text(row.province),
    municipalityName: rowValue.text(row.municipalityName),
    participating: rowValue.bool(row.participating),
    instituteId: rowValue.int(row.instituteId),
    instituteCode: rowValue.text(row.instituteCode),
    instituteName: rowValue.text(row.instituteName),
    isStateSchool: rowValue.bool(row.isStateSchool),
    adhesionState: row.adhesionState as SchoolSiteSummary['adhesionState'],
  };
}

/** The filters on the plesso's own columns (`site`) and on its institute's (`institute`): every filter but the search words. */
function columnFilters(
  filters: Filters,
  bind: Bind = asValue,
): { site: SQL | undefined; institute: SQL | undefined } {
  return {
    site: and(
      filters.region ? eq(schoolSites.region, bind(filters.region)) : undefined,
      filters.province ? eq(schoolSites.province, bind(filters.province)) : undefined,
      filters.level ? eq(schoolSites.schoolLevel, bind(filters.level)) : undefined,
      filters.participating === undefined
        ? undefined
        : eq(schoolSites.participating, bind(filters.participating)),
      filters.instituteId ? eq(schoolSites.instituteId, bind(filters.instituteId)) : undefined,
    ),
    institute: and(
      filters.adhesionState ? eq(institutes.adhesionState, bind(filters.adhesionState)) : undefined,
      filters.stateSchool === undefined ? undefined : eq(institutes.isStateSchool, bind(filters.stateSchool)),
    ),
  };
}

/**
 * The list's words are searched in the narrow search table (decision 027), joined to the plessi (and
 * their institutes) only when a filter or the sort reads them: a plain search ranks its matches from
 * the search rows alone.
 */
const search = schoolSiteSearch;

function whereOf(filters: Filters, bind: Bind = asValue): SQL | undefined {
  const { site, institute } = columnFilters(filters, bind);
  return and(searchCondition(search.text, filters.q, bind), site, institute);
}

function orderOf(filters: Filters, bind: Bind = asValue): SQL[] {
  if (!filters.sort && filters.q) return searchTableRank(search, filters.q, bind);
  return orderByOf(filters.sort ?? { column: 'name', direction: 'asc' }, SORT_COLUMNS, schoolSites.id);
}

/** `from` of a list query: the plessi and their institutes, with their search rows when the words are searched. */
function fromSchoolSites(db: DbOrTx, fields: SelectedFields, filters: Filters) {
  const query = db
    .select(fields)
    .from(schoolSites)
    .$dynamic()
    .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId));
  return filters.q ? query.innerJoin(search, eq(search.id, schoolSites.id)) : query;
}

/** The filtered, sorted query of the list and of its export. */
export function schoolSiteListQuery(db: DbOrTx, filters: Filters) {
  return fromSchoolSites(db, summaryFields, filters)
    .where(whereOf(filters))
    .orderBy(...orderOf(filters));
}

/**
 * `from` of the count and of a page's ids: the search rows alone when only the words filter and rank,
 * the plessi when a filter or the sort reads them, their institutes only when one reads those (every
 * plesso has its institute: NOT NULL foreign key).
 */
function fromMatches(
  db: DbOrTx,
  fields: (id: typeof schoolSites.id | typeof search.id) => SelectedFields,
  filters: Filters,
  forSort: boolean,
) {
  const { site, institute } = columnFilters(filters);
  const sortsBy = forSort ? filters.sort?.column : undefined;
  const readsInstitute =
    institute !== undefined || sortsBy === 'instituteName' || sortsBy === 'adhesionState';
  const readsSite = readsInstitute || site !== undefined || sortsBy !== undefined;
  if (!filters.q) {
    const sites = db.select(fields(schoolSites.id)).from(schoolSites).$dynamic();
    return readsInstitute ? sites.innerJoin(institutes, eq(institutes.id, schoolSites.instituteId)) : sites;
  }
  const matches = db.select(fields(search.id)).from(search).$dynamic();
  if (!readsSite) return matches;
  const sites = matches.innerJoin(schoolSites, eq(schoolSites.id, search.id));
  return readsInstitute ? sites.innerJoin(institutes, eq(institutes.id, schoolSites.instituteId)) : sites;
}

/** The count of the same filters (the list's `total` and the export's row count). */
export function schoolSiteCountQuery(db: DbOrTx, filters: Filters) {
  return fromMatches(db, () => ({ n: countAll }), filters, false).where(whereOf(filters));
}

/**
 * One page: the ids of the page first (an index-only walk past the offset, no join unless needed),
 * then the full rows of those ids only ("late row lookup"): deep pages stay cheap.
 */
export function schoolSitePageQuery(
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
  return fromSchoolSites(db, summaryFields, { ...filters, q: filters.sort ? undefined : filters.q })
    .where(inArray(schoolSites.id, ids))
    .orderBy(...orderOf(filters, bind));
}

export function countSchoolSites(db: DbOrTx, filters: Filters): Promise<number> {
  return totals.get(db, filters, () => rawCount(db, schoolSiteCountQuery(db, filters)));
}

export function listSchoolSites(db: DbOrTx, query: SchoolSiteListQuery): Promise<Page<SchoolSiteSummary>> {
  return paginate(
    async (limit, offset) =>
      (
        await listRows(db, listShape('school-sites', query), (bind) =>
          schoolSitePageQuery(db, query, limit, offset, bind),
        )
      ).map(toSchoolSiteSummary),
    () => countSchoolSites(db, query),
    query.page,
    query.pageSize,
  );
}

/** Owners of a plesso for `:own` grants: its detector and its institute's principal and first contact. */
export async function findSchoolSiteOwners(db: DbOrTx, siteId: number): Promise<OwnedResource | undefined> {
  const [row] = await db
    .select({
      detector: schoolSites.detectorUserId,
      principal: institutes.principalUserId,
      firstContact: institutes.firstContactUserId,
    })
    .from(schoolSites)
    .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId))
    .where(eq(schoolSites.id, siteId));
  return row && { ownerUserIds: [row.detector, row.principal, row.firstContact] };
}

export async function findSchoolSiteEditable(db: DbOrTx, siteId: number) {
  const [row] = await db
    .select({
      name: schoolSites.name,
      address: schoolSites.address,
      postalCode: schoolSites.postalCode,
      participating: schoolSites.participating,
    })
    .from(schoolSites)
    .where(eq(schoolSites.id, siteId))
    .for('update');
  return row;
}

/** The list filters that read each editable field: an edit recounts only the totals of those. */
const FILTERS_READING: Record<keyof SchoolSiteUpdate, readonly string[]> = {
  name: ['q'], // search_text
  address: [],
  postalCode: [],
  participating: ['participating'],
};

export async function updateSchoolSiteFields(
  db: DbOrTx,
  siteId: number,
  changes: SchoolSiteUpdate,
  now: Date,
): Promise<void> {
  await db
    .update(schoolSites)
    .set({ ...changes, updatedAt: now })
    .where(eq(schoolSites.id, siteId));
  totals.clear(Object.keys(changes).flatMap((field) => FILTERS_READING[field as keyof SchoolSiteUpdate]));
}

const person = { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email };

export async function findSchoolSite(db: DbOrTx, siteId: number): Promise<SchoolSiteDetail | undefined> {
  const [row] = await db
    .select({
      ...summaryFields,
      ...aliased({
        municipalityCode: schoolSites.municipalityCode,
        address: schoolSites.address,
        postalCode: schoolSites.postalCode,
        latitude: schoolSites.latitude,
        longitude: schoolSites.longitude,
        detectorUserId: schoolSites.detectorUserId,
        updatedAt: schoolSites.updatedAt,
      }),
    })
    .from(schoolSites)
    .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId))
    .where(eq(schoolSites.id, siteId));
  if (!row) return undefined;
  const detectorId = row.detectorUserId === null ? null : rowValue.int(row.detectorUserId);
  const [detector, teachers] = await Promise.all([
    detectorId === null ? Promise.resolve([]) : db.select(person).from(users).where(eq(users.id, detectorId)),
    db
      .select({ ...person, kind: teacherProfiles.kind, reviewState: teacherProfiles.reviewState })
      .from(teacherProfiles)
      .innerJoin(users, eq(users.id, teacherProfiles.userId))
      .where(eq(teacherProfiles.schoolSiteId, siteId))
      .orderBy(users.lastName, users.firstName, users.id),
  ]);
  const number = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    ...toSchoolSiteSummary(row),
    municipalityCode: rowValue.text(row.municipalityCode),
    address: rowValue.textOrNull(row.address),
    postalCode: rowValue.textOrNull(row.postalCode),
    latitude: number(row.latitude),
    longitude: number(row.longitude),
    detector: detector[0] ?? null,
    teachers,
    updatedAt: rowValue.iso(row.updatedAt)!,
  };
}
