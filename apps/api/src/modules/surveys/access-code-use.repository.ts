// Using an access code: the code a person typed, its uses, the answer given with it (decision 037).
import { and, eq, gt, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Answers } from '@portale/shared/surveys';
import { accessCodes, schoolSites, surveyResponses, surveys } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

/**
 * The stored code a person typed, in whatever case (decision 037): the code as typed when it exists,
 * otherwise the one code equal to it without regard to case. Two older codes differing only by case
 * and typed in a third way are ambiguous: undefined, as for an unknown code.
 */
export async function resolveTypedCode(db: DbOrTx, typed: string): Promise<string | undefined> {
  const rows = await db
    .select({ code: accessCodes.code })
    .from(accessCodes)
    .where(sql`upper(${accessCodes.code}) = ${typed.toUpperCase()}`)
    .limit(8);
  if (rows.some((r) => r.code === typed)) return typed;
  return rows.length === 1 ? rows[0]!.code : undefined;
}

/** A code that opens its questionnaire now (matched as typed, in any case): not revoked, not expired, uses left, its survey open. */
export async function findUsableCode(db: DbOrTx, typed: string, now: Date) {
  const code = await resolveTypedCode(db, typed);
  if (code === undefined) return undefined;
  const [row] = await db
    .select({
      id: accessCodes.id,
      code: accessCodes.code,
      surveyId: accessCodes.surveyId,
      schoolSiteId: accessCodes.schoolSiteId,
      classLabel: accessCodes.classLabel,
      ownerUserId: accessCodes.ownerUserId,
      expiresAt: accessCodes.expiresAt,
      schoolSiteName: schoolSites.name,
      municipality: schoolSites.municipalityName,
    })
    .from(accessCodes)
    .innerJoin(surveys, eq(surveys.id, accessCodes.surveyId))
    .innerJoin(schoolSites, eq(schoolSites.id, accessCodes.schoolSiteId))
    .where(and(eq(accessCodes.code, code), usableNow(now), eq(surveys.state, 'aperta')));
  return row;
}

function usableNow(now: Date): SQL {
  return and(
    isNull(accessCodes.revokedAt),
    gt(accessCodes.expiresAt, now),
    lt(accessCodes.uses, accessCodes.maxUses),
  )!;
}

/**
 * Takes one use of a code, atomically: the row changes only while it is usable (PostgreSQL re-checks
 * the condition on the latest row version after waiting for a concurrent update), so however many
 * submissions race for the last uses, exactly that many get one; the check constraint
 * `uses <= max_uses` backs it. Undefined: no use taken (unknown, revoked, expired or used up).
 */
export async function takeUse(tx: DbOrTx, code: string, now: Date) {
  const [row] = await tx
    .update(accessCodes)
    .set({ uses: sql`${accessCodes.uses} + 1` })
    .where(
      and(
        eq(accessCodes.code, code),
        usableNow(now),
        sql`exists (select 1 from ${surveys} where ${surveys.id} = ${accessCodes.surveyId} and ${surveys.state} = 'aperta')`,
      ),
    )
    .returning({
      id: accessCodes.id,
      surveyId: accessCodes.surveyId,
      schoolSiteId: accessCodes.schoolSiteId,
    });
  return row;
}

export async function insertCodeResponse(
  tx: DbOrTx,
  values: {
    surveyId: number;
    schoolSiteId: number;
    accessCodeId: number;
    answers: Answers;
    submittedAt: Date;
  },
): Promise<number> {
  const [row] = await tx
    .insert(surveyResponses)
    .values({ ...values, userId: null, participantGroup: 'codici' })
    .returning({ id: surveyResponses.id });
  return row!.id;
}
