import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Answers, RespondentGroup, SurveyParticipants } from '@portale/shared/surveys';
import {
  schoolSites,
  surveyResponses,
  surveyResultSnapshots,
  surveyResultTallies,
  surveyResultVersions,
  surveys,
  teacherProfiles,
} from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import type { CategoryCount, ResultTallies } from './results-suppression.ts';

/** What the public results read (issue 12): closed surveys and, for one, every response's answers with its plesso's region and level. */

export interface ClosedSurveyRow {
  id: number;
  title: string;
  purpose: string;
  audience: string;
  participants: SurveyParticipants;
  opensOn: string;
  closesOn: string;
}

const closedColumns = {
  id: surveys.id,
  title: surveys.title,
  purpose: surveys.purpose,
  audience: surveys.audience,
  participants: surveys.participants,
  opensOn: surveys.opensOn,
  /** The day it closed (Europe/Rome): staff may close a survey before its planned last day. */
  closesOn: sql<string>`coalesce(to_char(${surveys.closedAt} at time zone 'Europe/Rome', 'YYYY-MM-DD'), ${surveys.closesOn}::text)`,
};

/** The closed surveys, the latest closed first. */
export async function listClosedSurveys(db: DbOrTx): Promise<ClosedSurveyRow[]> {
  return db
    .select(closedColumns)
    .from(surveys)
    .where(eq(surveys.state, 'chiusa'))
    .orderBy(
      desc(sql`coalesce(${surveys.closedAt}, ${surveys.closesOn}::timestamptz)`),
      desc(surveys.closesOn),
      desc(surveys.id),
    );
}

/**
 * The responses the published results count (decision 029): none held by staff (answers through a
 * rejected teacher's codes, `sospesa` or `scartata`), and a participant's own answer only while their
 * teacher profile is approved. Anonymous answers through codes have no user.
 */
// Written qualified: drizzle renders a column unqualified in a single-table select, and the subquery's `user_id` would capture it.
export const countedResponse = sql`("survey_responses"."hold" is null and ("survey_responses"."user_id" is null or exists (select 1 from ${teacherProfiles} tp where tp.user_id = "survey_responses"."user_id" and tp.review_state = 'approvata')))`;

/**
 * Whether the counted responses changed since a computation: the survey's results version, raised by
 * every write that changes them (migration 0025, decision 033). One row, however many responses.
 */
export async function resultsVersion(db: DbOrTx, surveyId: number): Promise<string> {
  const [row] = await db
    .select({ version: surveyResultVersions.version })
    .from(surveyResultVersions)
    .where(eq(surveyResultVersions.surveyId, surveyId));
  return String(row?.version ?? 0);
}

/**
 * What a survey's stored results depend on, for several surveys in one statement (decision 058): the
 * version of their counted responses and when they closed (a survey closed again after a reopening
 * is another release). Keyed by survey id; a survey that is not there is left out.
 */
export async function resultStamps(db: DbOrTx, surveyIds: number[]): Promise<Map<number, string>> {
  if (surveyIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: surveys.id,
      version: sql<string>`coalesce(${surveyResultVersions.version}, 0)::text`,
      closedAt: sql<string>`coalesce((extract(epoch from ${surveys.closedAt}) * 1000)::bigint::text, '-')`,
    })
    .from(surveys)
    .leftJoin(surveyResultVersions, eq(surveyResultVersions.surveyId, surveys.id))
    .where(inArray(surveys.id, surveyIds));
  return new Map(rows.map((r) => [Number(r.id), `${r.version}/${r.closedAt}`]));
}

export interface ResultSnapshotRow {
  stamp: string;
  payload: unknown;
}

/** The stored results of a survey for a group of respondents (decision 058) at `stamp` (a stale row is not read). */
export async function resultSnapshot(
  db: DbOrTx,
  surveyId: number,
  group: RespondentGroup,
  stamp: string,
): Promise<ResultSnapshotRow | undefined> {
  const [row] = await db
    .select({ stamp: surveyResultSnapshots.stamp, payload: surveyResultSnapshots.payload })
    .from(surveyResultSnapshots)
    .where(
      and(
        eq(surveyResultSnapshots.surveyId, surveyId),
        eq(surveyResultSnapshots.participantGroup, group),
        eq(surveyResultSnapshots.stamp, stamp),
      ),
    );
  return row;
}

/** The stamps of every stored result, keyed `surveyId:group` (what the background job compares). */
export async function resultSnapshotStamps(db: DbOrTx): Promise<Map<string, string>> {
  const rows = await db
    .select({
      surveyId: surveyResultSnapshots.surveyId,
      group: surveyResultSnapshots.participantGroup,
      stamp: surveyResultSnapshots.stamp,
    })
    .from(surveyResultSnapshots);
  return new Map(rows.map((r) => [`${r.surveyId}:${r.group}`, r.stamp]));
}

/** Stores a survey's results for a group, replacing what was stored before (decision 058). */
export async function saveResultSnapshot(
  db: DbOrTx,
  row: typeof surveyResultSnapshots.$inferInsert,
): Promise<void> {
  await db
    .insert(surveyResultSnapshots)
    .values(row)
    .onConflictDoUpdate({
      target: [surveyResultSnapshots.surveyId, surveyResultSnapshots.participantGroup],
      set: { stamp: row.stamp, payload: row.payload, computedAt: row.computedAt, computeMs: row.computeMs },
    });
}

export interface ResponseForResults {
  region: string | null;
  level: string | null;
  answers: Answers;
}

/**
 * Every counted response of a survey (of one group of respondents, decision 046) with its plesso's
 * region and school level (null without a plesso); every group's when `group` is not given. Never leaves the API.
 */
export async function responsesForResults(
  db: DbOrTx,
  surveyId: number,
  group?: RespondentGroup,
): Promise<ResponseForResults[]> {
  return db
    .select({ region: schoolSites.region, level: schoolSites.schoolLevel, answers: surveyResponses.answers })
    .from(surveyResponses)
    .leftJoin(schoolSites, eq(schoolSites.id, surveyResponses.schoolSiteId))
    .where(
      and(
        eq(surveyResponses.surveyId, surveyId),
        group ? eq(surveyResponses.participantGroup, group) : undefined,
        countedResponse,
      ),
    )
    .orderBy(surveyResponses.id);
}

/** A plesso of a region and level for the demo responses: participating ones first, then by id (deterministic). */
export async function findDemoSchoolSite(
  db: DbOrTx,
  region: string,
  level: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ id: schoolSites.id })
    .from(schoolSites)
    .where(and(eq(schoolSites.region, region), sql`${schoolSites.schoolLevel} = ${level}`))
    .orderBy(desc(schoolSites.participating), schoolSites.id)
    .limit(1);
  return row?.id;
}

export async function hasResponses(db: DbOrTx, surveyId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: surveyResponses.id })
    .from(surveyResponses)
    .where(eq(surveyResponses.surveyId, surveyId))
    .limit(1);
  return row !== undefined;
}

/** Anonymous demo responses (no user, no access code; teachers' answers, decision 046), in one statement. */
export async function insertDemoResponses(
  db: DbOrTx,
  rows: { surveyId: number; schoolSiteId: number; answers: Answers; submittedAt: Date }[],
): Promise<void> {
  if (rows.length > 0) await db.insert(surveyResponses).values(rows);
}

/** An item of the results (results.routes.ts `itemsOf`) with the SQL of its category for one response (`r.answers`). */
export interface ItemInSql {
  id: string;
  categories: string[];
  /** The response's category for the item, as text: one of `categories` for every response. */
  category: SQL;
  /**
   * Counted by a grouping of its own instead of one aggregate per category (decision 035): a multiple
   * choice's categories are the combinations of its options, too many to list as columns.
   */
  grouped?: boolean;
}

const answerOf = (questionId: number) => sql`(${surveyResponses.answers} -> ${String(questionId)})`;
const answerText = (questionId: number) => sql`(${answerOf(questionId)} #>> '{}')`;

/** A multiple-choice option as `categoriesOf` reads it: chosen when the answer is an array holding the option's text. */
export function optionCategory(questionId: number, option: string, chosen: string, notChosen: string): SQL {
  const v = answerOf(questionId);
  return sql`case when jsonb_typeof(${v}) = 'array' and jsonb_exists(${v}, ${option}) then ${chosen} else ${notChosen} end`;
}

/**
 * A multiple choice as `categoriesOf` reads it (decision 035): the combination of options ticked, one
 * character per option ('1' ticked, '0' not), each ticked when the answer is an array holding its text.
 */
export function combinationCategory(questionId: number, options: string[]): SQL {
  const v = answerOf(questionId);
  if (options.length === 0) return sql`''`;
  return sql.join(
    options.map(
      (o) => sql`(case when jsonb_typeof(${v}) = 'array' and jsonb_exists(${v}, ${o}) then '1' else '0' end)`,
    ),
    sql` || `,
  );
}

/** A single choice as `categoriesOf` reads it: the answer when it is the text of an option, otherwise no answer. */
export function choiceCategory(questionId: number, options: string[], noAnswer: string): SQL {
  const text = answerText(questionId);
  const among = options.length
    ? sql`${text} in (${sql.join(
        options.map((o) => sql`${o}`),
        sql`, `,
      )})`
    : sql`false`;
  return sql`case when jsonb_typeof(${answerOf(questionId)}) = 'string' and ${among} then ${text} else ${noAnswer} end`;
}

/** A scale as `categoriesOf` reads it: a number equal to one of the scale's values (`3.0` is 3), otherwise no answer. */
export function scaleCategory(questionId: number, values: readonly string[], noAnswer: string): SQL {
  const text = answerText(questionId);
  // Nested: CASE, unlike AND, guarantees that only a number is cast.
  const numeric = sql`${text}::numeric`;
  return sql`case when jsonb_typeof(${answerOf(questionId)}) = 'number' then (case when ${numeric} in (${sql.raw(values.map(Number).join(', '))}) then (${numeric})::int::text else ${noAnswer} end) else ${noAnswer} end`;
}

/**
 * The tallies of the suppression read from `survey_result_tallies` (decision 050, migration 0036): kept
 * by the writes that change them, equal to `countResultTallies`, and as many rows as atomic groups ×
 * categories whatever the number of responses. Groups and pairs in order of their first response id.
 */
export async function resultTallies(
  db: DbOrTx,
  surveyId: number,
  items: ItemInSql[],
  /** Decision 046: the results of one group of respondents (every response when not given). */
  group?: RespondentGroup,
): Promise<ResultTallies> {
  const t = surveyResultTallies;
  const rows = await db
    .select({
      region: t.region,
      level: t.schoolLevel,
      questionId: t.questionId,
      category: t.category,
      n: sql<number>`sum(${t.n})::int`,
      first: sql<string>`min(${t.firstId})`,
    })
    .from(t)
    .where(and(eq(t.surveyId, surveyId), group ? eq(t.participantGroup, group) : undefined))
    .groupBy(t.region, t.schoolLevel, t.questionId, t.category);
  const byFirst = (a: { first: string }, b: { first: string }) => Number(a.first) - Number(b.first);
  const groupRows = rows.filter((r) => r.questionId === 0 && r.n > 0).sort(byFirst);
  const groups = groupRows.map((r) => ({ region: r.region || null, level: r.level || null, n: r.n }));
  const groupIndex = new Map(groupRows.map((r, g) => [`${r.region}|${r.level}`, g]));
  const pairs = new Map<string, CategoryCount[]>();
  for (const item of items) {
    const known = item.grouped ? undefined : new Set(item.categories);
    const found = rows
      .filter((r) => String(r.questionId) === item.id && r.n > 0 && (!known || known.has(r.category)))
      .sort(byFirst);
    const list: CategoryCount[] = [];
    for (const r of found) {
      const g = groupIndex.get(`${r.region}|${r.level}`);
      if (g !== undefined) list.push({ g, c: r.category, n: r.n });
    }
    pairs.set(item.id, list);
  }
  return { groups, pairs };
}

/**
 * The tallies of the suppression (results-suppression.ts `ResultTallies`) counted in one pass over the
 * counted responses, in the database (decision 033): per atomic group (region × level) its size, and
 * per item and category the respondents, each with the first response id, so that groups and pairs
 * come in the order in which tallying the responses one by one (by id) would meet them. Nothing but
 * counts leaves the database. Since decision 050 the results read the tallies kept by the writes
 * (`resultTallies`); this recount from the responses is their reference in the tests.
 */
export async function countResultTallies(
  db: DbOrTx,
  surveyId: number,
  items: ItemInSql[],
  /** Decision 046: the results of one group of respondents (every response when not given). */
  group?: RespondentGroup,
): Promise<ResultTallies> {
  const ofGroup = group ? sql`${surveyResponses.participantGroup} = ${group}` : sql`true`;
  const columns: SQL[] = [];
  items.forEach((item, i) => {
    columns.push(sql`${item.category} as c${sql.raw(String(i))}`);
  });
  const aggregates: SQL[] = [];
  items.forEach((item, i) =>
    (item.grouped ? [] : item.categories).forEach((category, j) => {
      const name = `${i}_${j}`;
      aggregates.push(
        sql`count(*) filter (where c${sql.raw(String(i))} = ${category})::int as ${sql.raw(`n_${name}`)}`,
      );
      aggregates.push(
        sql`min(id) filter (where c${sql.raw(String(i))} = ${category}) as ${sql.raw(`f_${name}`)}`,
      );
    }),
  );
  const result = (await db.execute(sql`
    select region, level, count(*)::int as n, min(id) as first${aggregates.length ? sql`, ${sql.join(aggregates, sql`, `)}` : sql``}
    from (
      select ${surveyResponses.id} as id, ${schoolSites.region} as region, ${schoolSites.schoolLevel} as level${columns.length ? sql`, ${sql.join(columns, sql`, `)}` : sql``}
      from ${surveyResponses} left join ${schoolSites} on ${schoolSites.id} = ${surveyResponses.schoolSiteId}
      where ${surveyResponses.surveyId} = ${surveyId} and ${ofGroup} and ${countedResponse}
      -- A fence: each category is computed once per response, not once per aggregate that reads it.
      offset 0
    ) r
    group by region, level`)) as unknown as { rows: Record<string, unknown>[] };
  const rows = result.rows.sort((a, b) => Number(a.first) - Number(b.first));
  const groups = rows.map((r) => ({
    region: (r.region as string | null) ?? null,
    level: (r.level as string | null) ?? null,
    n: Number(r.n),
  }));
  const groupIndex = new Map(rows.map((r, g) => [`${String(r.region)}|${String(r.level)}`, g]));
  const pairs = new Map<string, CategoryCount[]>();
  for (const [i, item] of items.entries()) {
    const found: (CategoryCount & { first: number })[] = [];
    if (item.grouped) {
      const grouped = (await db.execute(sql`
        select ${schoolSites.region} as region, ${schoolSites.schoolLevel} as level, ${item.category} as c, count(*)::int as n, min(${surveyResponses.id}) as first
        from ${surveyResponses} left join ${schoolSites} on ${schoolSites.id} = ${surveyResponses.schoolSiteId}
        where ${surveyResponses.surveyId} = ${surveyId} and ${ofGroup} and ${countedResponse}
        group by 1, 2, 3`)) as unknown as { rows: Record<string, unknown>[] };
      for (const r of grouped.rows) {
        const g = groupIndex.get(`${String(r.region)}|${String(r.level)}`);
        if (g !== undefined) found.push({ g, c: String(r.c), n: Number(r.n), first: Number(r.first) });
      }
    } else
      rows.forEach((r, g) =>
        item.categories.forEach((c, j) => {
          const n = Number(r[`n_${i}_${j}`]);
          if (n > 0) found.push({ g, c, n, first: Number(r[`f_${i}_${j}`]) });
        }),
      );
    found.sort((a, b) => a.first - b.first);
    pairs.set(
      item.id,
      found.map(({ g, c, n }) => ({ g, c, n })),
    );
  }
  return { groups, pairs };
}
