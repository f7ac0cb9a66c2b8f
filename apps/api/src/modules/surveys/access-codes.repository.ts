import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type {
  AccessCodeFilters,
  AccessCodeListQuery,
  AccessCodeState,
  AccessCodeSummary,
} from '@portale/shared/surveys';
import {
  accessCodes,
  schoolSites,
  surveyResponses,
  surveys,
  teacherProfiles,
  users,
} from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import {
  aliased,
  countAll,
  likeLiteral,
  orderByOf,
  paginate,
  rawCount,
  rawRows,
  rowValue,
  type Page,
} from '../../lib/list.ts';

type CodeRow = typeof accessCodes.$inferSelect;

/** The state of a code at `now` (revoked first, then used up, then expired). */
export function stateOf(
  row: Pick<CodeRow, 'uses' | 'maxUses' | 'expiresAt' | 'revokedAt'>,
  now: Date,
): AccessCodeState {
  if (row.revokedAt) return 'revoked';
  if (row.uses >= row.maxUses) return 'exhausted';
  if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'usable';
}

const summaryFields = (now: Date) =>
  aliased({
    id: accessCodes.id,
    code: accessCodes.code,
    surveyId: accessCodes.surveyId,
    surveyTitle: surveys.title,
    schoolSiteId: accessCodes.schoolSiteId,
    schoolSiteName: schoolSites.name,
    classLabel: accessCodes.classLabel,
    ownerUserId: accessCodes.ownerUserId,
    ownerName: sql`case when ${users.id} is null then null else ${users.firstName} || ' ' || ${users.lastName} end`,
    maxUses: accessCodes.maxUses,
    uses: accessCodes.uses,
    expiresAt: accessCodes.expiresAt,
    revokedAt: accessCodes.revokedAt,
    createdAt: accessCodes.createdAt,
    state: stateSql(now),
  });

function stateSql(now: Date): SQL {
  return sql`case when ${accessCodes.revokedAt} is not null then 'revoked' when ${accessCodes.uses} >= ${accessCodes.maxUses} then 'exhausted' when ${accessCodes.expiresAt} <= ${now} then 'expired' else 'usable' end`;
}

/** A summary row (aliased names), from a page query or the export's cursor. */
export function toSummary(row: Record<string, unknown>): AccessCodeSummary {
  return {
    id: rowValue.int(row.id),
    code: rowValue.text(row.code),
    surveyId: rowValue.int(row.surveyId),
    surveyTitle: rowValue.text(row.surveyTitle),
    schoolSiteId: rowValue.int(row.schoolSiteId),
    schoolSiteName: rowValue.text(row.schoolSiteName),
    classLabel: rowValue.textOrNull(row.classLabel),
    ownerUserId:
      row.ownerUserId === null || row.ownerUserId === undefined ? null : rowValue.int(row.ownerUserId),
    ownerName: rowValue.textOrNull(row.ownerName),
    maxUses: rowValue.int(row.maxUses),
    uses: rowValue.int(row.uses),
    expiresAt: rowValue.iso(row.expiresAt)!,
    revokedAt: rowValue.iso(row.revokedAt),
    createdAt: rowValue.iso(row.createdAt)!,
    state: row.state as AccessCodeState,
  };
}

const SORT_COLUMNS = {
  createdAt: accessCodes.createdAt,
  code: accessCodes.code,
  classLabel: accessCodes.classLabel,
  uses: accessCodes.uses,
  expiresAt: accessCodes.expiresAt,
};

/** `ownerUserId`: only that teacher's codes (a teacher's list); undefined for staff (every code). */
function listWhere(filters: AccessCodeFilters, ownerUserId: number | undefined, now: Date): SQL | undefined {
  const words = (filters.q ?? '').trim().split(/\s+/).filter(Boolean);
  return and(
    ownerUserId === undefined ? undefined : eq(accessCodes.ownerUserId, ownerUserId),
    ...words.map(
      (w) =>
        sql`(${accessCodes.code} ilike ${`%${likeLiteral(w)}%`} or coalesce(${accessCodes.classLabel}, '') ilike ${`%${likeLiteral(w)}%`})`,
    ),
    filters.surveyId === undefined ? undefined : eq(accessCodes.surveyId, filters.surveyId),
    filters.schoolSiteId === undefined ? undefined : eq(accessCodes.schoolSiteId, filters.schoolSiteId),
    filters.state === undefined ? undefined : sql`${stateSql(now)} = ${filters.state}`,
  );
}

/** The filtered, sorted codes: the list's page and the export's rows (newest first by default). */
export function codeListQuery(
  db: DbOrTx,
  filters: AccessCodeFilters,
  ownerUserId: number | undefined,
  now: Date,
) {
  return db
    .select(summaryFields(now))
    .from(accessCodes)
    .innerJoin(surveys, eq(surveys.id, accessCodes.surveyId))
    .innerJoin(schoolSites, eq(schoolSites.id, accessCodes.schoolSiteId))
    .leftJoin(users, eq(users.id, accessCodes.ownerUserId))
    .where(listWhere(filters, ownerUserId, now))
    .orderBy(
      ...orderByOf(filters.sort ?? { column: 'createdAt', direction: 'desc' }, SORT_COLUMNS, accessCodes.id),
    );
}

export async function countCodes(
  db: DbOrTx,
  filters: AccessCodeFilters,
  ownerUserId: number | undefined,
  now: Date,
): Promise<number> {
  return rawCount(
    db,
    db
      .select({ n: countAll })
      .from(accessCodes)
      .where(listWhere(filters, ownerUserId, now)),
  );
}

export function listCodes(
  db: DbOrTx,
  query: AccessCodeListQuery,
  ownerUserId: number | undefined,
  now: Date,
): Promise<Page<AccessCodeSummary>> {
  return paginate(
    async (limit, offset) =>
      (await rawRows(db, codeListQuery(db, query, ownerUserId, now).limit(limit).offset(offset))).map(
        toSummary,
      ),
    () => countCodes(db, query, ownerUserId, now),
    query.page,
    query.pageSize,
  );
}

/** Summaries of the given codes, in the order of `ids`. */
export async function codeSummaries(
  db: DbOrTx,
  ids: readonly number[],
  now: Date,
): Promise<AccessCodeSummary[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(summaryFields(now))
    .from(accessCodes)
    .innerJoin(surveys, eq(surveys.id, accessCodes.surveyId))
    .innerJoin(schoolSites, eq(schoolSites.id, accessCodes.schoolSiteId))
    .leftJoin(users, eq(users.id, accessCodes.ownerUserId))
    .where(inArray(accessCodes.id, [...ids]));
  const byId = new Map(rows.map((r) => [Number(r.id), toSummary(r)]));
  return ids.map((id) => byId.get(id)).filter((s): s is AccessCodeSummary => s !== undefined);
}

/** The owners of codes (for `:own` checks); rows missing from the table are left out. */
export async function codeOwners(
  db: DbOrTx,
  ids: readonly number[],
): Promise<{ id: number; ownerUserId: number | null }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: accessCodes.id, ownerUserId: accessCodes.ownerUserId })
    .from(accessCodes)
    .where(inArray(accessCodes.id, [...ids]));
}

/** The plesso of a teacher or educator profile (null when the profile has none or there is no profile). */
export async function teacherSchoolSite(
  db: DbOrTx,
  userId: number,
): Promise<{ id: number; name: string } | null> {
  const [row] = await db
    .select({ id: schoolSites.id, name: schoolSites.name })
    .from(teacherProfiles)
    .innerJoin(schoolSites, eq(schoolSites.id, teacherProfiles.schoolSiteId))
    .where(eq(teacherProfiles.userId, userId));
  return row ?? null;
}

/** The plesso and review state of a user's teacher profile (undefined without a profile). */
export async function teacherProfileOf(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({ schoolSiteId: teacherProfiles.schoolSiteId, reviewState: teacherProfiles.reviewState })
    .from(teacherProfiles)
    .where(eq(teacherProfiles.userId, userId));
  return row;
}

/**
 * The teachers approved for this plesso (the owners of a code request for it): a profile still
 * `in_attesa` (new, or moved to another plesso and back in review), sent back or rejected owns nothing.
 */
export async function teachersOfSchoolSite(db: DbOrTx, schoolSiteId: number): Promise<number[]> {
  const rows = await db
    .select({ userId: teacherProfiles.userId })
    .from(teacherProfiles)
    .where(and(eq(teacherProfiles.schoolSiteId, schoolSiteId), eq(teacherProfiles.reviewState, 'approvata')));
  return rows.map((r) => r.userId).filter((id): id is number => id !== null);
}

/** Serialises a teacher's code creations (their daily count is read and raised in one transaction). */
export async function lockTeacherCodes(tx: DbOrTx, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(7212003, ${userId}::int)`);
}

/** How many codes a user created since `since` (their daily cap). */
export async function codesCreatedSince(db: DbOrTx, userId: number, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: countAll })
    .from(accessCodes)
    .where(and(eq(accessCodes.createdByUserId, userId), sql`${accessCodes.createdAt} >= ${since}`));
  return row?.n ?? 0;
}

/** Serialises the answers through teachers' codes of one plesso (its daily count is read and raised in one transaction). */
export async function lockSiteAnswers(tx: DbOrTx, schoolSiteId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(7212004, ${schoolSiteId}::int)`);
}

/** Answers a plesso collected since `since` for a survey through teachers' codes (staff codes are not counted). */
export async function teacherCodeAnswersSince(
  db: DbOrTx,
  surveyId: number,
  schoolSiteId: number,
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: countAll })
    .from(surveyResponses)
    .innerJoin(accessCodes, eq(accessCodes.id, surveyResponses.accessCodeId))
    .where(
      and(
        eq(surveyResponses.surveyId, surveyId),
        eq(surveyResponses.schoolSiteId, schoolSiteId),
        sql`${surveyResponses.submittedAt} >= ${since}`,
        sql`${accessCodes.ownerUserId} is not null`,
      ),
    );
  return row?.n ?? 0;
}

/**
 * A rejected teacher (decision 029): their codes that still work are revoked, and the answers collected
 * through any of their codes are held out of the results until staff decide. Returns what changed.
 */
export async function revokeAndHoldTeacherCodes(
  tx: DbOrTx,
  userId: number,
  now: Date,
): Promise<{ revoked: number[]; held: number }> {
  const revoked = await tx
    .update(accessCodes)
    .set({ revokedAt: now })
    .where(and(eq(accessCodes.ownerUserId, userId), isNull(accessCodes.revokedAt)))
    .returning({ id: accessCodes.id });
  const held = await tx
    .update(surveyResponses)
    .set({ hold: 'sospesa' })
    .where(
      and(
        isNull(surveyResponses.hold),
        sql`(${surveyResponses.userId} = ${userId} or ${surveyResponses.accessCodeId} in (select ${accessCodes.id} from ${accessCodes} where ${accessCodes.ownerUserId} = ${userId}))`,
      ),
    )
    .returning({ id: surveyResponses.id });
  return { revoked: revoked.map((r) => r.id), held: held.length };
}

export async function schoolSiteExists(db: DbOrTx, schoolSiteId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: schoolSites.id })
    .from(schoolSites)
    .where(eq(schoolSites.id, schoolSiteId));
  return row !== undefined;
}

export async function findSurveyForCodes(db: DbOrTx, surveyId: number) {
  const [row] = await db
    .select({
      id: surveys.id,
      title: surveys.title,
      state: surveys.state,
      closesOn: surveys.closesOn,
      participants: surveys.participants,
    })
    .from(surveys)
    .where(eq(surveys.id, surveyId));
  return row;
}

/** The open surveys that code holders answer (decision 046): codes are made only for these. */
export async function openSurveys(db: DbOrTx) {
  return db
    .select({ id: surveys.id, title: surveys.title, closesOn: surveys.closesOn })
    .from(surveys)
    .where(and(eq(surveys.state, 'aperta'), inArray(surveys.participants, ['codici', 'entrambi'])))
    .orderBy(surveys.closesOn, surveys.id);
}

export interface NewCode {
  code: string;
  surveyId: number;
  schoolSiteId: number;
  classLabel: string | null;
  ownerUserId: number | null;
  createdByUserId: number | null;
  maxUses: number;
  expiresAt: Date;
  createdAt: Date;
}

/**
 * Inserts one code unless its text is already taken (`on conflict do nothing`: no error, so the
 * caller's transaction stays usable and it simply draws another code). The new row's id, or undefined.
 */
export async function insertCodeIfFree(tx: DbOrTx, values: NewCode): Promise<number | undefined> {
  // A code made before decision 037 that differs only by case would make the new one ambiguous: draw another.
  const [clash] = await tx
    .select({ id: accessCodes.id })
    .from(accessCodes)
    .where(sql`upper(${accessCodes.code}) = ${values.code.toUpperCase()}`)
    .limit(1);
  if (clash) return undefined;
  const [row] = await tx
    .insert(accessCodes)
    .values(values)
    .onConflictDoNothing({ target: accessCodes.code })
    .returning({ id: accessCodes.id });
  return row?.id;
}

export async function findCode(db: DbOrTx, id: number): Promise<CodeRow | undefined> {
  const [row] = await db.select().from(accessCodes).where(eq(accessCodes.id, id));
  return row;
}

/** Revokes a code not yet revoked (conditional: two revocations at once, one wins). */
export async function revokeCode(tx: DbOrTx, id: number, now: Date): Promise<boolean> {
  const rows = await tx
    .update(accessCodes)
    .set({ revokedAt: now })
    .where(and(eq(accessCodes.id, id), isNull(accessCodes.revokedAt)))
    .returning({ id: accessCodes.id });
  return rows.length > 0;
}

// Using a code (a person types it and answers) is in access-code-use.repository.ts, re-exported here.
export * from './access-code-use.repository.ts';

/** For the demo seed: codes already there (by text). */
export async function existingCodes(db: DbOrTx, codes: readonly string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const rows = await db
    .select({ code: accessCodes.code })
    .from(accessCodes)
    .where(inArray(accessCodes.code, [...codes]));
  return new Set(rows.map((r) => r.code));
}

/** For the demo seed: how many codes a user owns for a survey. */
export async function countOwnedCodes(db: DbOrTx, ownerUserId: number, surveyId: number): Promise<number> {
  const [row] = await db
    .select({ n: countAll })
    .from(accessCodes)
    .where(and(eq(accessCodes.ownerUserId, ownerUserId), eq(accessCodes.surveyId, surveyId)));
  return row?.n ?? 0;
}

/** For the demo seed: a survey by slug. */
export async function surveyBySlug(db: DbOrTx, slug: string) {
  const [row] = await db
    .select({ id: surveys.id, state: surveys.state, closesOn: surveys.closesOn })
    .from(surveys)
    .where(eq(surveys.slug, slug));
  return row;
}

/** For the demo seed: a participating plesso, or any (first by ministry code). */
export async function demoSchoolSite(db: DbOrTx): Promise<number | undefined> {
  const [row] = await db
    .select({ id: schoolSites.id })
    .from(schoolSites)
    .orderBy(sql`${schoolSites.participating} desc`, schoolSites.ministryCode)
    .limit(1);
  return row?.id;
}

/**
 * For the demo seed: the plesso of a demo teacher, giving them an approved profile on `fallbackSiteId`
 * when they have none (or a profile without a plesso), so that they can make codes for their classes.
 */
export async function ensureDemoTeacherSite(
  db: DbOrTx,
  email: string,
  fallbackSiteId: number,
  now: Date,
): Promise<{ userId: number; siteId: number } | undefined> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  if (!user) return undefined;
  await db
    .insert(teacherProfiles)
    .values({
      userId: user.id,
      kind: 'insegnante',
      schoolSiteId: fallbackSiteId,
      reviewState: 'approvata',
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: teacherProfiles.userId });
  await db
    .update(teacherProfiles)
    .set({ schoolSiteId: fallbackSiteId, updatedAt: now })
    .where(and(eq(teacherProfiles.userId, user.id), isNull(teacherProfiles.schoolSiteId)));
  const [profile] = await db
    .select({ siteId: teacherProfiles.schoolSiteId })
    .from(teacherProfiles)
    .where(eq(teacherProfiles.userId, user.id));
  return profile?.siteId ? { userId: user.id, siteId: profile.siteId } : undefined;
}
