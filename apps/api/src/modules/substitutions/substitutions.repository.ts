import { and, asc, eq, isNull, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { searchWords } from '@portale/shared/lists';
import type {
  SubstitutionFilters,
  SubstitutionListQuery,
  SubstitutionSummary,
} from '@portale/shared/substitutions';
import {
  accessCodes,
  institutes,
  roles,
  schoolSites,
  substitutions,
  teacherProfiles,
  userRoles,
  users,
} from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import {
  aliased,
  countAll,
  likeLiteral,
  orderByOf,
  paginate,
  rawRows,
  rowValue,
  type Page,
} from '../../lib/list.ts';
import { ownedBy, personFields, type PersonRow } from './substitution-people.repository.ts';

const outgoing = alias(users, 'outgoing_user');
const incoming = alias(users, 'incoming_user');
const requester = alias(users, 'requester_user');
const decider = alias(users, 'decider_user');

const fullName = (u: { lastName: AnyColumn; firstName: AnyColumn }) =>
  sql`${u.lastName} || ' ' || ${u.firstName}`;
/** The stored invitation name is `Cognome, Nome`; shown as `Cognome Nome`. */
const incomingNameExpr = sql`coalesce(${incoming.lastName} || ' ' || ${incoming.firstName}, replace(${substitutions.incomingName}, ', ', ' '), ${substitutions.incomingEmail})`;

const SUMMARY_FIELDS = aliased({
  id: substitutions.id,
  state: substitutions.state,
  schoolSiteId: schoolSites.id,
  schoolSiteName: schoolSites.name,
  schoolSiteCode: schoolSites.ministryCode,
  municipalityName: schoolSites.municipalityName,
  province: schoolSites.province,
  region: schoolSites.region,
  instituteId: institutes.id,
  instituteName: institutes.name,
  outgoingUserId: outgoing.id,
  outgoingName: fullName(outgoing),
  outgoingEmail: outgoing.email,
  incomingUserId: substitutions.incomingUserId,
  incomingName: incomingNameExpr,
  incomingEmail: sql`coalesce(${incoming.email}, ${substitutions.incomingEmail})`,
  reason: substitutions.reason,
  effectiveOn: substitutions.effectiveOn,
  requestedByName: sql`${requester.firstName} || ' ' || ${requester.lastName}`,
  decidedByName: sql`${decider.firstName} || ' ' || ${decider.lastName}`,
  decisionNote: substitutions.decisionNote,
  decidedAt: substitutions.decidedAt,
  appliedAt: substitutions.appliedAt,
  createdAt: substitutions.createdAt,
});

const SORTS = {
  createdAt: substitutions.createdAt,
  effectiveOn: substitutions.effectiveOn,
  state: substitutions.state,
  outgoingName: fullName(outgoing),
  schoolSiteName: schoolSites.name,
};

/** `effective_on` may come back from a raw cursor as a Date or as text. */
function dateOnly(v: unknown): string {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v ?? '').slice(0, 10);
}

export function toSubstitutionSummary(row: Record<string, unknown>): SubstitutionSummary {
  return {
    id: rowValue.int(row.id),
    state: rowValue.text(row.state) as SubstitutionSummary['state'],
    schoolSiteId: rowValue.int(row.schoolSiteId),
    schoolSiteName: rowValue.text(row.schoolSiteName),
    schoolSiteCode: rowValue.text(row.schoolSiteCode),
    municipalityName: rowValue.text(row.municipalityName),
    province: rowValue.text(row.province),
    region: rowValue.text(row.region),
    instituteId: rowValue.int(row.instituteId),
    instituteName: rowValue.text(row.instituteName),
    outgoingUserId: rowValue.int(row.outgoingUserId),
    outgoingName: rowValue.text(row.outgoingName),
    outgoingEmail: rowValue.text(row.outgoingEmail),
    incomingUserId:
      row.incomingUserId === null || row.incomingUserId === undefined
        ? null
        : rowValue.int(row.incomingUserId),
    incomingName: rowValue.text(row.incomingName),
    incomingEmail: rowValue.textOrNull(row.incomingEmail),
    reason: rowValue.text(row.reason),
    effectiveOn: dateOnly(row.effectiveOn),
    requestedByName: rowValue.textOrNull(row.requestedByName),
    decidedByName: rowValue.textOrNull(row.decidedByName),
    decisionNote: rowValue.textOrNull(row.decisionNote),
    decidedAt: rowValue.iso(row.decidedAt),
    appliedAt: rowValue.iso(row.appliedAt),
    createdAt: rowValue.iso(row.createdAt) ?? '',
  };
}

/** Lists of a principal or first contact: only the substitutions of the institutes they hold. */
export interface SubstitutionScope {
  ownerUserId?: number;
}

/** Teacher, incoming person, plesso and institute: every word must appear in one of them. */
function searchWhere(q: string | undefined): SQL | undefined {
  const words = searchWords(q);
  if (words.length === 0) return undefined;
  const haystack = sql`(${outgoing.searchText} || ' ' || coalesce(${incoming.searchText}, '') || ' ' || coalesce(lower(${substitutions.incomingName}), '') || ' ' || coalesce(${substitutions.incomingEmail}, '') || ' ' || ${schoolSites.searchText} || ' ' || ${institutes.searchText})`;
  return and(...words.map((w) => sql`${haystack} like ${`%${likeLiteral(w)}%`}`));
}

function listWhere(filters: Omit<SubstitutionFilters, 'sort'>, scope: SubstitutionScope): SQL | undefined {
  return and(
    scope.ownerUserId === undefined ? undefined : ownedBy(scope.ownerUserId),
    filters.state ? eq(substitutions.state, filters.state) : undefined,
    filters.region ? eq(schoolSites.region, filters.region) : undefined,
    searchWhere(filters.q),
  );
}

function baseSelect(db: DbOrTx) {
  return db
    .select(SUMMARY_FIELDS)
    .from(substitutions)
    .innerJoin(schoolSites, eq(schoolSites.id, substitutions.schoolSiteId))
    .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId))
    .innerJoin(outgoing, eq(outgoing.id, substitutions.outgoingUserId))
    .leftJoin(incoming, eq(incoming.id, substitutions.incomingUserId))
    .leftJoin(requester, eq(requester.id, substitutions.requestedByUserId))
    .leftJoin(decider, eq(decider.id, substitutions.decidedByUserId));
}

export function substitutionListQuery(db: DbOrTx, filters: SubstitutionFilters, scope: SubstitutionScope) {
  return baseSelect(db)
    .where(listWhere(filters, scope))
    .orderBy(
      ...orderByOf(filters.sort ?? { column: 'createdAt', direction: 'desc' }, SORTS, substitutions.id),
    );
}

export async function countSubstitutions(
  db: DbOrTx,
  filters: SubstitutionFilters,
  scope: SubstitutionScope,
): Promise<number> {
  const [row] = await db
    .select({ n: countAll })
    .from(substitutions)
    .innerJoin(schoolSites, eq(schoolSites.id, substitutions.schoolSiteId))
    .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId))
    .innerJoin(outgoing, eq(outgoing.id, substitutions.outgoingUserId))
    .leftJoin(incoming, eq(incoming.id, substitutions.incomingUserId))
    .where(listWhere(filters, scope));
  return rowValue.int(row?.n ?? 0);
}

export function listSubstitutions(
  db: DbOrTx,
  query: SubstitutionListQuery,
  scope: SubstitutionScope,
): Promise<Page<SubstitutionSummary>> {
  return paginate(
    async (limit, offset) =>
      (await rawRows(db, substitutionListQuery(db, query, scope).limit(limit).offset(offset))).map(
        toSubstitutionSummary,
      ),
    () => countSubstitutions(db, query, scope),
    query.page,
    query.pageSize,
  );
}

export async function findSubstitution(db: DbOrTx, id: number): Promise<SubstitutionSummary | undefined> {
  const [row] = await baseSelect(db).where(eq(substitutions.id, id));
  return row && toSubstitutionSummary(row);
}

// --- Ownership ---

/** The owners of a plesso for substitutions: its institute's principal and first contact; unknown → undefined. */
export async function siteInstituteOwners(
  db: DbOrTx,
  siteId: number,
): Promise<{ ownerUserIds: (number | null)[] } | undefined> {
  const [row] = await db
    .select({ principal: institutes.principalUserId, firstContact: institutes.firstContactUserId })
    .from(schoolSites)
    .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId))
    .where(eq(schoolSites.id, siteId));
  return row && { ownerUserIds: [row.principal, row.firstContact] };
}

export async function substitutionOwners(
  db: DbOrTx,
  id: number,
): Promise<{ ownerUserIds: (number | null)[] } | undefined> {
  const [row] = await db
    .select({ principal: institutes.principalUserId, firstContact: institutes.firstContactUserId })
    .from(substitutions)
    .innerJoin(schoolSites, eq(schoolSites.id, substitutions.schoolSiteId))
    .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId))
    .where(eq(substitutions.id, id));
  return row && { ownerUserIds: [row.principal, row.firstContact] };
}

// The people a request names (candidates, teachers of a plesso, accounts) are in
// substitution-people.repository.ts, re-exported here.
export * from './substitution-people.repository.ts';

/** A request waiting for a decision, or approved and waiting for its date, for this teacher and plesso. */
export async function hasOpenRequest(db: DbOrTx, siteId: number, outgoingUserId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: substitutions.id })
    .from(substitutions)
    .where(
      and(
        eq(substitutions.schoolSiteId, siteId),
        eq(substitutions.outgoingUserId, outgoingUserId),
        or(
          eq(substitutions.state, 'richiesta'),
          and(eq(substitutions.state, 'approvata'), isNull(substitutions.appliedAt)),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Approved substitutions whose date (Rome) has come and that have not taken effect, locked one run at a time. */
export async function lockDueSubstitutions(
  db: DbOrTx,
  today: string,
  limit: number,
): Promise<SubstitutionRow[]> {
  return db
    .select()
    .from(substitutions)
    .where(
      and(
        eq(substitutions.state, 'approvata'),
        isNull(substitutions.appliedAt),
        lte(substitutions.effectiveOn, today),
      ),
    )
    .orderBy(asc(substitutions.effectiveOn), asc(substitutions.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markApplied(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db.update(substitutions).set({ appliedAt: now, updatedAt: now }).where(eq(substitutions.id, id));
}

export async function insertSubstitution(
  db: DbOrTx,
  row: Omit<typeof substitutions.$inferInsert, 'id'>,
): Promise<number> {
  const [created] = await db.insert(substitutions).values(row).returning({ id: substitutions.id });
  return created!.id;
}

export type SubstitutionRow = typeof substitutions.$inferSelect;

/**
 * Decides a request still `richiesta` (the conditional update is the lock: of two deciders one gets
 * the row, the other `undefined` → 409).
 */
export async function decideIfOpen(
  db: DbOrTx,
  id: number,
  decision: { state: 'approvata' | 'respinta'; decidedByUserId: number; note: string | null; now: Date },
): Promise<SubstitutionRow | undefined> {
  const [row] = await db
    .update(substitutions)
    .set({
      state: decision.state,
      decidedByUserId: decision.decidedByUserId,
      decisionNote: decision.note,
      decidedAt: decision.now,
      updatedAt: decision.now,
    })
    .where(and(eq(substitutions.id, id), eq(substitutions.state, 'richiesta')))
    .returning();
  return row;
}

export async function setIncomingUser(db: DbOrTx, id: number, userId: number, now: Date): Promise<void> {
  await db
    .update(substitutions)
    .set({ incomingUserId: userId, updatedAt: now })
    .where(eq(substitutions.id, id));
}

export async function insertInvitedUser(
  db: DbOrTx,
  user: { email: string; firstName: string; lastName: string; passwordHash: string },
  now: Date,
): Promise<PersonRow | undefined> {
  const [row] = await db
    .insert(users)
    .values({ ...user, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning(personFields);
  return row;
}

/** Gives the user a role (nothing when they already hold it). */
export async function grantRole(db: DbOrTx, userId: number, role: string): Promise<void> {
  const [found] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, role));
  if (!found) throw new Error(`Role not seeded: ${role}`);
  await db.insert(userRoles).values({ userId, roleId: found.id }).onConflictDoNothing();
}

export async function profileOf(
  db: DbOrTx,
  userId: number,
): Promise<{ kind: 'insegnante' | 'educatore' | 'altro'; schoolSiteId: number | null } | undefined> {
  const [row] = await db
    .select({ kind: teacherProfiles.kind, schoolSiteId: teacherProfiles.schoolSiteId })
    .from(teacherProfiles)
    .where(eq(teacherProfiles.userId, userId))
    .for('update');
  return row;
}

/** Places the incoming teacher in the plesso: a new profile (approved: the staff decided) or the existing one moved. */
export async function placeTeacher(
  db: DbOrTx,
  userId: number,
  siteId: number,
  kind: 'insegnante' | 'educatore' | 'altro',
  now: Date,
): Promise<void> {
  await db
    .insert(teacherProfiles)
    .values({ userId, kind, schoolSiteId: siteId, reviewState: 'approvata', createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: teacherProfiles.userId, set: { schoolSiteId: siteId, updatedAt: now } });
}

/** The outgoing teacher leaves the plesso (their profile stays, without a plesso). */
export async function removeFromSite(db: DbOrTx, userId: number, siteId: number, now: Date): Promise<number> {
  const rows = await db
    .update(teacherProfiles)
    .set({ schoolSiteId: null, updatedAt: now })
    .where(and(eq(teacherProfiles.userId, userId), eq(teacherProfiles.schoolSiteId, siteId)))
    .returning({ id: teacherProfiles.id });
  return rows.length;
}

/** The outgoing teacher's access codes of the plesso (classes and survey assignments) pass to the incoming one. */
export async function moveAccessCodes(
  db: DbOrTx,
  fromUserId: number,
  toUserId: number,
  siteId: number,
): Promise<number[]> {
  const rows = await db
    .update(accessCodes)
    .set({ ownerUserId: toUserId })
    .where(and(eq(accessCodes.ownerUserId, fromUserId), eq(accessCodes.schoolSiteId, siteId)))
    .returning({ id: accessCodes.id });
  return rows.map((r) => r.id);
}

/** The institute of a plesso, for e-mails. */
export async function siteLabel(
  db: DbOrTx,
  siteId: number,
): Promise<{ name: string; ministryCode: string; instituteName: string } | undefined> {
  const [row] = await db
    .select({
      name: schoolSites.name,
      ministryCode: schoolSites.ministryCode,
      instituteName: institutes.name,
    })
    .from(schoolSites)
    .innerJoin(institutes, eq(institutes.id, schoolSites.instituteId))
    .where(eq(schoolSites.id, siteId));
  return row;
}

/** Used by the seed: a demo substitution already there. */
export async function anySubstitution(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ id: substitutions.id }).from(substitutions).limit(1);
  return row !== undefined;
}
