import { and, asc, desc, eq, inArray, isNull, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  REVIEW_STATES,
  type ReviewCounts,
  type ReviewDetail,
  type ReviewField,
  type ReviewFilters,
  type ReviewHistoryEntry,
  type ReviewListQuery,
  type ReviewState,
  type ReviewSummary,
  type ReviewType,
} from '@portale/shared/reviews';
import {
  institutes,
  reviews,
  schoolSites,
  tallies,
  teacherProfiles,
  users,
  visits,
} from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import {
  aliased,
  cappedCount,
  countAll,
  orderByOf,
  paginate,
  rawCount,
  rawRows,
  rowValue,
  searchCondition,
  type Page,
} from '../../lib/list.ts';

/** Queues whose subjects exist and can be decided. */
export const QUEUED_TYPES: readonly ReviewType[] = ['insegnanti', 'adesioni', 'visite'];

/** How long a reviewer holds the item `next` gave them. */
export const CLAIM_MS = 5 * 60_000;

const teacherUser = alias(users, 'teacher_user');
const decider = alias(users, 'decider');
const claimer = alias(users, 'claimer');
const visitSite = alias(schoolSites, 'visit_site');

type Filters = Omit<ReviewFilters, 'sort'> & { sort?: ReviewFilters['sort'] };

/** `First Last` of a user (or an alias of users). */
export const fullName = (u: { firstName: AnyColumn; lastName: AnyColumn }) =>
  sql<string>`${u.firstName} || ' ' || ${u.lastName}`;
const titleExpr = sql<string>`coalesce(${teacherUser.lastName} || ' ' || ${teacherUser.firstName}, ${institutes.name}, ${visitSite.name}, '')`;

function summaryFields(now: Date) {
  return aliased({
    id: reviews.id,
    type: reviews.type,
    subjectId: reviews.subjectId,
    title: titleExpr,
    code: sql`coalesce(${teacherUser.email}, ${institutes.ministryCode}, ${visitSite.ministryCode}, '')`,
    place: sql`coalesce(${schoolSites.name}, ${institutes.municipalityName} || ' (' || ${institutes.province} || ')', ${visitSite.municipalityName} || ' (' || ${visitSite.province} || ')')`,
    state: reviews.state,
    submittedAt: reviews.submittedAt,
    decidedAt: reviews.decidedAt,
    decidedBy: fullName(decider),
    claimedBy: sql`case when ${reviews.claimedUntil} > ${now.toISOString()}::timestamptz and ${reviews.state} = 'in_attesa' then ${fullName(claimer)} end`,
  });
}

const SORT_COLUMNS = { submittedAt: reviews.submittedAt, decidedAt: reviews.decidedAt, title: titleExpr };

/** A raw row (page or export cursor) as the shared DTO. */
export function toReviewSummary(row: Record<string, unknown>): ReviewSummary {
  return {
    id: rowValue.int(row.id),
    type: row.type as ReviewType,
    subjectId: rowValue.int(row.subjectId),
    title: rowValue.text(row.title),
    code: rowValue.text(row.code),
    place: rowValue.textOrNull(row.place),
    state: row.state as ReviewState,
    submittedAt: rowValue.iso(row.submittedAt)!,
    decidedAt: rowValue.iso(row.decidedAt),
    decidedBy: rowValue.textOrNull(row.decidedBy),
    claimedBy: rowValue.textOrNull(row.claimedBy),
  };
}

function whereOf(type: ReviewType, filters: Filters): SQL | undefined {
  if (!QUEUED_TYPES.includes(type)) return sql`false`;
  return and(
    eq(reviews.type, type),
    filters.state ? eq(reviews.state, filters.state) : undefined,
    searchCondition(
      type === 'insegnanti'
        ? teacherUser.searchText
        : type === 'visite'
          ? visitSite.searchText
          : institutes.searchText,
      filters.q,
    ),
  );
}

function orderOf(filters: Filters): SQL[] {
  const sort = filters.sort ?? { column: 'submittedAt', direction: 'asc' };
  // Undecided items have no decision date: they come last whatever the direction.
  const nullsLast = sort.column === 'decidedAt' ? [sql`${reviews.decidedAt} is null`] : [];
  return [...nullsLast, ...orderByOf(sort, SORT_COLUMNS, reviews.id)];
}

/** The rows of a queue with their subject: the teacher (and plesso) or the institute, and the people who decided or hold them. */
function fromReviews(db: DbOrTx, fields: Record<string, SQL.Aliased>) {
  return db
    .select(fields)
    .from(reviews)
    .leftJoin(teacherProfiles, and(eq(reviews.type, 'insegnanti'), eq(teacherProfiles.id, reviews.subjectId)))
    .leftJoin(teacherUser, eq(teacherUser.id, teacherProfiles.userId))
    .leftJoin(schoolSites, eq(schoolSites.id, teacherProfiles.schoolSiteId))
    .leftJoin(institutes, and(eq(reviews.type, 'adesioni'), eq(institutes.id, reviews.subjectId)))
    .leftJoin(visits, and(eq(reviews.type, 'visite'), eq(visits.id, reviews.subjectId)))
    .leftJoin(visitSite, eq(visitSite.id, visits.schoolSiteId))
    .leftJoin(decider, eq(decider.id, reviews.decidedByUserId))
    .leftJoin(claimer, eq(claimer.id, reviews.claimedByUserId));
}

/** The filtered, sorted query of the list and of its export. */
export function reviewListQuery(db: DbOrTx, type: ReviewType, filters: Filters, now: Date) {
  return fromReviews(db, summaryFields(now))
    .where(whereOf(type, filters))
    .orderBy(...orderOf(filters));
}

export async function countReviews(db: DbOrTx, type: ReviewType, filters: Filters): Promise<number> {
  return rawCount(db, fromReviews(db, { n: countAll.as('n') }).where(whereOf(type, filters)));
}

/** Items per state of the whole queue (the filter chips). */
export async function countByState(db: DbOrTx, type: ReviewType): Promise<ReviewCounts> {
  const counts = Object.fromEntries(REVIEW_STATES.map((s) => [s, 0])) as ReviewCounts;
  if (!QUEUED_TYPES.includes(type)) return counts;
  // Kept by the writes of the reviews (migration 0024, decision 033), not grouped from the whole queue.
  const rows = await db
    .select({ state: tallies.key, n: tallies.n })
    .from(tallies)
    .where(eq(tallies.name, `reviews:${type}`));
  for (const row of rows) if (row.state in counts) counts[row.state as ReviewState] = rowValue.int(row.n);
  return counts;
}

export async function listReviews(
  db: DbOrTx,
  type: ReviewType,
  query: ReviewListQuery,
  now: Date,
): Promise<Page<ReviewSummary> & { counts: ReviewCounts }> {
  const [page, counts] = await Promise.all([
    paginate(
      async (limit, offset) =>
        (await rawRows(db, reviewListQuery(db, type, query, now).limit(limit).offset(offset))).map(
          toReviewSummary,
        ),
      // Exact up to the cap or when asked, otherwise an estimate (decision 033).
      () =>
        cappedCount(
          db,
          fromReviews(db, { one: sql`1`.as('one') }).where(whereOf(type, query)),
          query.exactTotal,
        ),
      query.page,
      query.pageSize,
    ),
    countByState(db, type),
  ]);
  return { ...page, counts };
}

/** Pending items of a queue not held by another reviewer: the order `next` walks. */
function available(type: ReviewType, userId: number, now: Date): SQL | undefined {
  return and(
    eq(reviews.type, type),
    eq(reviews.state, 'in_attesa'),
    or(isNull(reviews.claimedUntil), lte(reviews.claimedUntil, now), eq(reviews.claimedByUserId, userId)),
  );
}

/**
 * Claims the oldest pending item not held by another reviewer, in one statement: the candidate row is
 * locked with FOR UPDATE SKIP LOCKED, so two reviewers asking at the same moment get different items.
 * The caller's own current claim comes first (a reload shows the same item).
 */
export async function claimNext(
  db: DbOrTx,
  type: ReviewType,
  userId: number,
  now: Date,
): Promise<number | undefined> {
  if (!QUEUED_TYPES.includes(type)) return undefined;
  const candidate = db
    .select({ id: reviews.id })
    .from(reviews)
    .where(available(type, userId, now))
    .orderBy(
      desc(
        sql`coalesce(${reviews.claimedByUserId} = ${userId} and ${reviews.claimedUntil} > ${now.toISOString()}::timestamptz, false)`,
      ),
      asc(reviews.submittedAt),
      asc(reviews.id),
    )
    .limit(1)
    .for('update', { skipLocked: true });
  const [claimed] = await db
    .update(reviews)
    .set({ claimedByUserId: userId, claimedUntil: new Date(now.getTime() + CLAIM_MS) })
    .where(and(inArray(reviews.id, candidate), eq(reviews.state, 'in_attesa')))
    .returning({ id: reviews.id });
  return claimed?.id;
}

/** The next item a reviewer would get, without claiming it (where to go after a 409 or a decision). */
export async function peekNext(
  db: DbOrTx,
  type: ReviewType,
  userId: number,
  now: Date,
  except?: number,
): Promise<number | null> {
  if (!QUEUED_TYPES.includes(type)) return null;
  const [row] = await db
    .select({ id: reviews.id })
    .from(reviews)
    .where(
      and(available(type, userId, now), except === undefined ? undefined : sql`${reviews.id} <> ${except}`),
    )
    .orderBy(asc(reviews.submittedAt), asc(reviews.id))
    .limit(1);
  return row?.id ?? null;
}

export async function countPending(db: DbOrTx, type: ReviewType): Promise<number> {
  return (await countByState(db, type)).in_attesa;
}

/**
 * Records a decision on a pending item: `UPDATE … WHERE id AND type AND state = 'in_attesa'`, so of
 * two reviewers deciding the same item only one row is updated. `undefined` when nothing was (the
 * item is unknown, of another queue, or already decided).
 */
export async function recordDecision(
  db: DbOrTx,
  decision: {
    type: ReviewType;
    itemId: number;
    state: Exclude<ReviewState, 'in_attesa'>;
    note: string | null;
    fields: ReviewField[];
    userId: number;
    now: Date;
  },
) {
  const [row] = await db
    .update(reviews)
    .set({
      state: decision.state,
      note: decision.note,
      flaggedFields: decision.fields,
      decidedAt: decision.now,
      decidedByUserId: decision.userId,
      claimedByUserId: null,
      claimedUntil: null,
    })
    .where(
      and(eq(reviews.id, decision.itemId), eq(reviews.type, decision.type), eq(reviews.state, 'in_attesa')),
    )
    .returning({ id: reviews.id, subjectId: reviews.subjectId, submissionId: reviews.submissionId });
  return row;
}

/** The item of a queue as it stands (`undefined` when unknown or of another queue). */
export async function findReviewState(db: DbOrTx, type: ReviewType, itemId: number) {
  if (!QUEUED_TYPES.includes(type)) return undefined;
  const [row] = await db
    .select({ state: reviews.state, decidedAt: reviews.decidedAt, decidedBy: fullName(decider) })
    .from(reviews)
    .leftJoin(decider, eq(decider.id, reviews.decidedByUserId))
    .where(and(eq(reviews.id, itemId), eq(reviews.type, type)));
  return row;
}

/** The decisions taken on a subject in a queue, newest first (the detail's history). */
export async function reviewHistory(
  db: DbOrTx,
  type: ReviewType,
  subjectId: number,
): Promise<ReviewHistoryEntry[]> {
  const rows = await db
    .select({
      id: reviews.id,
      state: reviews.state,
      submittedAt: reviews.submittedAt,
      decidedAt: reviews.decidedAt,
      decidedBy: fullName(decider),
      note: reviews.note,
      fields: reviews.flaggedFields,
    })
    .from(reviews)
    .leftJoin(decider, eq(decider.id, reviews.decidedByUserId))
    .where(and(eq(reviews.type, type), eq(reviews.subjectId, subjectId)))
    .orderBy(desc(reviews.submittedAt), desc(reviews.id));
  return rows.map((r) => ({
    ...r,
    submittedAt: r.submittedAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decidedBy: r.decidedBy ?? null,
  }));
}

/**
 * One item of a queue without its subject's content and history (`review-content.ts` adds them);
 * `undefined` when unknown or of another queue.
 */
export async function findReviewItem(
  db: DbOrTx,
  type: ReviewType,
  itemId: number,
  now: Date,
): Promise<Omit<ReviewDetail, 'content' | 'history'> | undefined> {
  if (!QUEUED_TYPES.includes(type)) return undefined;
  const [row] = await fromReviews(db, {
    ...summaryFields(now),
    ...aliased({
      submissionId: reviews.submissionId,
      note: reviews.note,
      fields: reviews.flaggedFields,
      claimedUntil: reviews.claimedUntil,
    }),
  }).where(and(eq(reviews.id, itemId), eq(reviews.type, type)));
  if (!row) return undefined;
  const summary = toReviewSummary(row);
  const claimedUntil = rowValue.date(row.claimedUntil);
  return {
    ...summary,
    submissionId: row.submissionId === null ? null : rowValue.int(row.submissionId),
    note: rowValue.textOrNull(row.note),
    fields: Array.isArray(row.fields) ? (row.fields as ReviewField[]) : [],
    claimedUntil: summary.claimedBy && claimedUntil ? claimedUntil.toISOString() : null,
  };
}

const principal = alias(users, 'principal');
const firstContact = alias(users, 'first_contact');

// --- Effects of a decision on its subject (called by the handlers, in the decision's transaction) ---

/** Sets a teacher profile's review state; returns who to tell, `undefined` when the profile is gone. */
export async function setTeacherReviewState(db: DbOrTx, profileId: number, state: ReviewState, now: Date) {
  const [profile] = await db
    .update(teacherProfiles)
    .set({ reviewState: state, updatedAt: now })
    .where(eq(teacherProfiles.id, profileId))
    .returning({ userId: teacherProfiles.userId, kind: teacherProfiles.kind });
  if (!profile) return undefined;
  const [user] = await db
    .select({ email: users.email, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, profile.userId));
  return user && { ...user, userId: profile.userId, kind: profile.kind };
}

/** The institute's name and the principal and first contact to tell about a decision (distinct addresses). */
export async function instituteRecipients(db: DbOrTx, instituteId: number) {
  const [row] = await db
    .select({
      name: institutes.name,
      ministryCode: institutes.ministryCode,
      principalEmail: principal.email,
      principalFirst: principal.firstName,
      firstContactEmail: firstContact.email,
      firstContactFirst: firstContact.firstName,
    })
    .from(institutes)
    .leftJoin(principal, eq(principal.id, institutes.principalUserId))
    .leftJoin(firstContact, eq(firstContact.id, institutes.firstContactUserId))
    .where(eq(institutes.id, instituteId));
  if (!row) return undefined;
  const recipients: { email: string; firstName: string }[] = [];
  for (const [email, firstName] of [
    [row.principalEmail, row.principalFirst],
    [row.firstContactEmail, row.firstContactFirst],
  ] as const) {
    if (email && !recipients.some((r) => r.email.toLowerCase() === email.toLowerCase()))
      recipients.push({ email, firstName: firstName ?? '' });
  }
  return { name: row.name, ministryCode: row.ministryCode, recipients };
}
