import { and, asc, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import {
  questionsForGroup,
  type RespondentGroup,
  type Answers,
  type OpenSurvey,
  type SurveyDetail,
  type SurveyListQuery,
  type SurveyQuestion,
  type SurveyState,
  type SurveySummary,
} from '@portale/shared/surveys';
import { surveyQuestions, surveyResponses, surveys, teacherProfiles } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { countAll, likeLiteral, orderByOf, rawCount } from '../../lib/list.ts';

/**
 * Surveys and their questions (issue 12). Other modules (access codes, results) read a survey with
 * `findSurveyWithQuestions` / `findSurveyBySlug`; `toQuestion` is the one mapping of a question row.
 */

export type SurveyRow = typeof surveys.$inferSelect;
type QuestionRow = typeof surveyQuestions.$inferSelect;
export type SurveyWithQuestions = SurveyRow & { questions: SurveyQuestion[] };

export function toQuestion(row: QuestionRow): SurveyQuestion {
  return {
    id: row.id,
    position: row.position,
    type: row.type,
    label: row.label,
    help: row.help,
    required: row.required,
    options: row.options,
    participants: row.participants,
  };
}

/** The questions of a survey in order. */
export async function findQuestions(db: DbOrTx, surveyId: number): Promise<SurveyQuestion[]> {
  const rows = await db
    .select()
    .from(surveyQuestions)
    .where(eq(surveyQuestions.surveyId, surveyId))
    .orderBy(asc(surveyQuestions.position), asc(surveyQuestions.id));
  return rows.map(toQuestion);
}

/** A survey with its ordered questions; `undefined` when unknown. */
export async function findSurveyWithQuestions(
  db: DbOrTx,
  id: number,
): Promise<SurveyWithQuestions | undefined> {
  const [row] = await db.select().from(surveys).where(eq(surveys.id, id));
  if (!row) return undefined;
  return { ...row, questions: await findQuestions(db, row.id) };
}

/** A survey by its slug, with its ordered questions. */
export async function findSurveyBySlug(db: DbOrTx, slug: string): Promise<SurveyWithQuestions | undefined> {
  const [row] = await db.select().from(surveys).where(eq(surveys.slug, slug));
  if (!row) return undefined;
  return { ...row, questions: await findQuestions(db, row.id) };
}

/**
 * The survey `aperta` now for a group of respondents (decision 046: at most one per group; the most
 * recently opened, should the seed have left two).
 */
export async function findOpenSurvey(
  db: DbOrTx,
  group: RespondentGroup,
): Promise<SurveyWithQuestions | undefined> {
  const [row] = await db
    .select()
    .from(surveys)
    .where(and(eq(surveys.state, 'aperta'), inArray(surveys.participants, [group, 'entrambi'])))
    .orderBy(desc(sql`coalesce(${surveys.openedAt}, ${surveys.createdAt})`), desc(surveys.id))
    .limit(1);
  if (!row) return undefined;
  return { ...row, questions: await findQuestions(db, row.id) };
}

/** An open survey as a group of respondents sees it: only the questions for them (decision 046). */
export function toOpenSurvey(s: SurveyWithQuestions, group: RespondentGroup): OpenSurvey {
  return {
    id: s.id,
    slug: s.slug,
    title: s.title,
    purpose: s.purpose,
    audience: s.audience,
    participants: s.participants,
    opensOn: s.opensOn,
    closesOn: s.closesOn,
    questions: questionsForGroup(s.participants, s.questions, group),
  };
}

export async function countResponses(db: DbOrTx, surveyId: number): Promise<number> {
  return (
    (await db.select({ n: countAll }).from(surveyResponses).where(eq(surveyResponses.surveyId, surveyId)))[0]
      ?.n ?? 0
  );
}

export async function surveyDetail(db: DbOrTx, id: number): Promise<SurveyDetail | undefined> {
  const s = await findSurveyWithQuestions(db, id);
  if (!s) return undefined;
  const responseCount = await countResponses(db, id);
  return {
    id: s.id,
    slug: s.slug,
    title: s.title,
    audience: s.audience,
    participants: s.participants,
    state: s.state,
    opensOn: s.opensOn,
    closesOn: s.closesOn,
    questionCount: s.questions.length,
    responseCount,
    updatedAt: s.updatedAt.toISOString(),
    purpose: s.purpose,
    openedAt: s.openedAt?.toISOString() ?? null,
    closedAt: s.closedAt?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
    questionsEditable: responseCount === 0 && s.state !== 'chiusa',
    questions: s.questions,
  };
}

// ---- Staff list ----

// Correlated subqueries: the outer id is written qualified (drizzle renders a column unqualified in a single-table select).
const questionCountSql = sql<number>`(select count(*)::int from ${surveyQuestions} sq where sq.survey_id = "surveys"."id")`;
const responseCountSql = sql<number>`(select count(*)::int from ${surveyResponses} sr where sr.survey_id = "surveys"."id")`;

const SORT_COLUMNS = {
  title: surveys.title,
  state: surveys.state,
  opensOn: surveys.opensOn,
  closesOn: surveys.closesOn,
  responseCount: responseCountSql,
  updatedAt: surveys.updatedAt,
};

type SurveyFilters = Omit<SurveyListQuery, 'page' | 'pageSize' | 'sort'> & { sort?: SurveyListQuery['sort'] };

function surveyWhere(filters: SurveyFilters): SQL | undefined {
  const words = (filters.q ?? '').trim().split(/\s+/).filter(Boolean);
  return and(
    ...words.map(
      (w) =>
        sql`(${surveys.title} ilike ${`%${likeLiteral(w)}%`} or ${surveys.audience} ilike ${`%${likeLiteral(w)}%`})`,
    ),
    filters.state ? eq(surveys.state, filters.state) : undefined,
    filters.participants ? eq(surveys.participants, filters.participants) : undefined,
  );
}

/** The filtered, sorted surveys (the page and the export). */
export async function listSurveys(
  db: DbOrTx,
  filters: SurveyFilters,
  limit: number,
  offset: number,
): Promise<SurveySummary[]> {
  const rows = await db
    .select({
      id: surveys.id,
      slug: surveys.slug,
      title: surveys.title,
      audience: surveys.audience,
      participants: surveys.participants,
      state: surveys.state,
      opensOn: surveys.opensOn,
      closesOn: surveys.closesOn,
      questionCount: questionCountSql,
      responseCount: responseCountSql,
      updatedAt: surveys.updatedAt,
    })
    .from(surveys)
    .where(surveyWhere(filters))
    .orderBy(
      ...orderByOf(filters.sort ?? { column: 'updatedAt', direction: 'desc' }, SORT_COLUMNS, surveys.id),
    )
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({
    ...r,
    questionCount: Number(r.questionCount),
    responseCount: Number(r.responseCount),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

export async function countSurveys(db: DbOrTx, filters: SurveyFilters): Promise<number> {
  return rawCount(db, db.select({ n: countAll }).from(surveys).where(surveyWhere(filters)));
}

// ---- Staff writes (the caller audits in the same transaction) ----

export async function slugExists(db: DbOrTx, slug: string): Promise<boolean> {
  const [row] = await db.select({ id: surveys.id }).from(surveys).where(eq(surveys.slug, slug)).limit(1);
  return row !== undefined;
}

export async function insertSurvey(tx: DbOrTx, values: typeof surveys.$inferInsert): Promise<SurveyRow> {
  const [row] = await tx.insert(surveys).values(values).returning();
  return row!;
}

export async function updateSurveyFields(
  tx: DbOrTx,
  id: number,
  values: Partial<
    Pick<SurveyRow, 'title' | 'purpose' | 'audience' | 'opensOn' | 'closesOn' | 'participants'>
  >,
  by: { userId: number; at: Date },
): Promise<void> {
  await tx
    .update(surveys)
    .set({ ...values, updatedByUserId: by.userId, updatedAt: by.at })
    .where(eq(surveys.id, id));
}

/** Locks the survey row (questions and transitions are serialised per survey). */
export async function lockSurvey(tx: DbOrTx, id: number): Promise<SurveyRow | undefined> {
  const [row] = await tx.select().from(surveys).where(eq(surveys.id, id)).for('update');
  return row;
}

/** Replaces the ordered questions of a survey (positions 1..n). */
export async function replaceQuestions(
  tx: DbOrTx,
  surveyId: number,
  questions: Omit<SurveyQuestion, 'id' | 'position'>[],
  by: { userId: number; at: Date },
): Promise<void> {
  await tx.delete(surveyQuestions).where(eq(surveyQuestions.surveyId, surveyId));
  if (questions.length > 0) {
    await tx.insert(surveyQuestions).values(
      questions.map((q, i) => ({
        surveyId,
        position: i + 1,
        type: q.type,
        label: q.label,
        help: q.help,
        required: q.required,
        options: q.options,
        participants: q.participants,
      })),
    );
  }
  await tx
    .update(surveys)
    .set({ updatedByUserId: by.userId, updatedAt: by.at })
    .where(eq(surveys.id, surveyId));
}

/** Serialises the opening of surveys (one `aperta` per group of respondents), for the transaction. */
export async function lockSurveyOpening(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(7212001)`);
}

/** Another open survey for one of these groups (decision 046: two open surveys never share a group). */
export async function findOtherOpenSurvey(
  tx: DbOrTx,
  exceptId: number,
  groups: RespondentGroup[],
): Promise<Pick<SurveyRow, 'id' | 'title' | 'participants'> | undefined> {
  const [row] = await tx
    .select({ id: surveys.id, title: surveys.title, participants: surveys.participants })
    .from(surveys)
    .where(
      and(
        eq(surveys.state, 'aperta'),
        ne(surveys.id, exceptId),
        inArray(surveys.participants, [...groups, 'entrambi']),
      ),
    )
    .orderBy(surveys.id)
    .limit(1);
  return row;
}

/** Moves the survey `from` → `to` only if it is still `from` (a race loses: false). */
export async function setSurveyState(
  tx: DbOrTx,
  id: number,
  from: SurveyState,
  to: SurveyState,
  by: { userId: number; at: Date },
): Promise<boolean> {
  const rows = await tx
    .update(surveys)
    .set({
      state: to,
      updatedByUserId: by.userId,
      updatedAt: by.at,
      ...(to === 'aperta' ? { openedAt: by.at } : {}),
      ...(to === 'chiusa' ? { closedAt: by.at } : {}),
    })
    .where(and(eq(surveys.id, id), eq(surveys.state, from)))
    .returning({ id: surveys.id });
  return rows.length > 0;
}

// ---- Responses of logged-in participants ----

export async function findUserResponse(db: DbOrTx, surveyId: number, userId: number) {
  const [row] = await db
    .select({
      surveyId: surveyResponses.surveyId,
      answers: surveyResponses.answers,
      submittedAt: surveyResponses.submittedAt,
    })
    .from(surveyResponses)
    .where(and(eq(surveyResponses.surveyId, surveyId), eq(surveyResponses.userId, userId)));
  return row;
}

/** The plesso of the user's teacher profile (null when none) and whether staff approved it (their answer counts then, decision 029). */
export async function findUserSchoolSite(
  db: DbOrTx,
  userId: number,
): Promise<{ schoolSiteId: number | null; approved: boolean }> {
  const [row] = await db
    .select({ schoolSiteId: teacherProfiles.schoolSiteId, reviewState: teacherProfiles.reviewState })
    .from(teacherProfiles)
    .where(eq(teacherProfiles.userId, userId));
  return { schoolSiteId: row?.schoolSiteId ?? null, approved: row?.reviewState === 'approvata' };
}

/**
 * Stores a participant's response unless they already answered (the unique index on survey and user
 * decides between concurrent submissions): `undefined` when one existed.
 */
export async function insertUserResponse(
  db: DbOrTx,
  values: {
    surveyId: number;
    userId: number;
    schoolSiteId: number | null;
    answers: Answers;
    submittedAt: Date;
  },
): Promise<{ submittedAt: Date } | undefined> {
  const [row] = await db
    .insert(surveyResponses)
    .values({ ...values, participantGroup: 'insegnanti' })
    .onConflictDoNothing({
      target: [surveyResponses.surveyId, surveyResponses.userId],
      where: sql`${surveyResponses.userId} is not null`,
    })
    .returning({ submittedAt: surveyResponses.submittedAt });
  return row;
}

// ---- Seed ----

/** Stores a survey and its questions unless the slug exists; returns the survey id either way. */
export async function insertSurveyWithQuestionsOnce(
  db: DbOrTx,
  survey: typeof surveys.$inferInsert,
  questions: Omit<SurveyQuestion, 'id' | 'position'>[],
): Promise<{ id: number; created: boolean }> {
  const [row] = await db
    .insert(surveys)
    .values(survey)
    .onConflictDoNothing({ target: surveys.slug })
    .returning({ id: surveys.id });
  if (!row) {
    const [existing] = await db.select({ id: surveys.id }).from(surveys).where(eq(surveys.slug, survey.slug));
    return { id: existing!.id, created: false };
  }
  await db.insert(surveyQuestions).values(
    questions.map((q, i) => ({
      surveyId: row.id,
      position: i + 1,
      type: q.type,
      label: q.label,
      help: q.help,
      required: q.required,
      options: q.options,
      participants: q.participants,
    })),
  );
  return { id: row.id, created: true };
}
