import { and, desc, eq, sql } from 'drizzle-orm';
import type { Answers } from '@portale/shared/surveys';
import { schoolSites, surveyResponses, surveys, teacherProfiles } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

/** What the public results read (issue 12): closed surveys and, for one, every response's answers with its plesso's region and level. */

export interface ClosedSurveyRow {
  id: number;
  title: string;
  purpose: string;
  audience: string;
  opensOn: string;
  closesOn: string;
}

const closedColumns = {
  id: surveys.id,
  title: surveys.title,
  purpose: surveys.purpose,
  audience: surveys.audience,
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

/** Whether the counted responses changed since a computation: their number, the latest id and the sum of ids (a held or approved answer changes it). */
export async function responsesStamp(db: DbOrTx, surveyId: number): Promise<string> {
  const [row] = await db
    .select({
      n: sql<number>`count(*)::int`,
      last: sql<number>`coalesce(max(${surveyResponses.id}), 0)::bigint`,
      sum: sql<number>`coalesce(sum(${surveyResponses.id}), 0)::bigint`,
    })
    .from(surveyResponses)
    .where(and(eq(surveyResponses.surveyId, surveyId), countedResponse));
  return `${row?.n ?? 0}:${row?.last ?? 0}:${row?.sum ?? 0}`;
}

export interface ResponseForResults {
  region: string | null;
  level: string | null;
  answers: Answers;
}

/** Every counted response of a survey with its plesso's region and school level (null without a plesso). Never leaves the API. */
export async function responsesForResults(db: DbOrTx, surveyId: number): Promise<ResponseForResults[]> {
  return db
    .select({ region: schoolSites.region, level: schoolSites.schoolLevel, answers: surveyResponses.answers })
    .from(surveyResponses)
    .leftJoin(schoolSites, eq(schoolSites.id, surveyResponses.schoolSiteId))
    .where(and(eq(surveyResponses.surveyId, surveyId), countedResponse))
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

/** Anonymous demo responses (no user, no access code), in one statement. */
export async function insertDemoResponses(
  db: DbOrTx,
  rows: { surveyId: number; schoolSiteId: number; answers: Answers; submittedAt: Date }[],
): Promise<void> {
  if (rows.length > 0) await db.insert(surveyResponses).values(rows);
}
