import {
  ACCESS_CODE_MESSAGES,
  includesGroup,
  isAccessCodeShape,
  type AccessCodeInputSchema,
  type AccessCodeSummary,
} from '@portale/shared/surveys';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import type { Env } from '../../env.ts';
import { auditWrite, type SignedInActor } from '../../lib/audit.ts';
import { FieldErrors } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { endOfRomeDay, generateCode, romeToday, startOfRomeDay } from './access-code-values.ts';
import * as repo from './access-codes.repository.ts';
import { findSurveyWithQuestions } from './surveys.repository.ts';
import { checkedAnswers } from './surveys.service.ts';

const CODE_ATTEMPTS = 20;

/** The one answer for any code that opens nothing (malformed, unknown, expired, revoked, used up). */
export const codeNotFound = () => new HttpError(404, 'access_code_not_found', ACCESS_CODE_MESSAGES.notFound);

const italianDay = (day: string) => day.split('-').reverse().join('/');

type CodeLimits = Pick<
  Env,
  | 'ACCESS_CODE_TEACHER_MAX_USES'
  | 'ACCESS_CODE_TEACHER_MAX_CODES_PER_DAY'
  | 'ACCESS_CODE_SITE_MAX_USES_PER_DAY'
>;

/**
 * New codes for a plesso's class, audited as one. `staff` says whether the caller may make codes for
 * any plesso (`create:access-code`): staff codes belong to nobody and keep the contract's ceiling of
 * uses; a teacher's codes are theirs (a substitution moves them), serve a class (decision 029) and
 * count against a daily cap read and raised under a per-teacher lock.
 */
export async function createCodes(
  db: Db,
  limits: CodeLimits,
  actor: SignedInActor,
  staff: boolean,
  input: z.output<typeof AccessCodeInputSchema>,
): Promise<AccessCodeSummary[]> {
  const userId = actor.userId;
  const now = actor.at;
  const errors: Record<string, string[]> = {};
  const siteId = input.schoolSiteId ?? (await repo.teacherSchoolSite(db, userId))?.id;
  if (siteId === undefined)
    errors.schoolSiteId = [staff ? ACCESS_CODE_MESSAGES.schoolSite : ACCESS_CODE_MESSAGES.noSchoolSite];
  else if (!(await repo.schoolSiteExists(db, siteId)))
    errors.schoolSiteId = [ACCESS_CODE_MESSAGES.schoolSiteUnknown];
  const survey = await repo.findSurveyForCodes(db, input.surveyId);
  if (!survey || survey.state !== 'aperta')
    errors.surveyId = [survey ? ACCESS_CODE_MESSAGES.surveyNotOpen : ACCESS_CODE_MESSAGES.survey];
  else if (!includesGroup(survey.participants, 'codici'))
    errors.surveyId = [ACCESS_CODE_MESSAGES.surveyNotForCodes];
  if (input.expiresOn < romeToday(now)) errors.expiresOn = [ACCESS_CODE_MESSAGES.expiresInPast];
  else if (survey && input.expiresOn > survey.closesOn)
    errors.expiresOn = [ACCESS_CODE_MESSAGES.expiresAfterClose(italianDay(survey.closesOn))];
  // A teacher's code serves a class (decision 029); staff codes (the demo code) keep the contract's ceiling.
  const isTeacher = !staff;
  const teacherMaxUses = limits.ACCESS_CODE_TEACHER_MAX_USES;
  if (isTeacher && input.maxUses > teacherMaxUses)
    errors.maxUses = [ACCESS_CODE_MESSAGES.teacherMaxUses(teacherMaxUses)];
  if (Object.keys(errors).length > 0) throw new FieldErrors(errors);

  // A teacher's codes are theirs (a substitution moves them); staff make codes that belong to nobody.
  const ownerUserId = isTeacher ? userId : null;
  const expiresAt = endOfRomeDay(input.expiresOn);
  const ids = await withTransaction(db, async (tx) => {
    if (isTeacher) {
      // The daily cap is read and raised under a per-teacher lock: two requests at once cannot both pass it.
      await repo.lockTeacherCodes(tx, userId);
      const max = limits.ACCESS_CODE_TEACHER_MAX_CODES_PER_DAY;
      if ((await repo.codesCreatedSince(tx, userId, startOfRomeDay(now))) + input.count > max) {
        throw new HttpError(429, 'access_code_daily_limit', ACCESS_CODE_MESSAGES.teacherDailyCodes(max));
      }
    }
    const created: number[] = [];
    for (let n = 0; n < input.count; n++) {
      let id: number | undefined;
      for (let attempt = 0; id === undefined && attempt < CODE_ATTEMPTS; attempt++) {
        const code = generateCode();
        id = await repo.insertCodeIfFree(tx, {
          code,
          surveyId: input.surveyId,
          schoolSiteId: siteId!,
          classLabel: input.classLabel,
          ownerUserId,
          createdByUserId: userId,
          maxUses: input.maxUses,
          expiresAt,
          createdAt: now,
        });
      }
      if (id === undefined) throw new Error('could not draw a free access code');
      created.push(id);
    }
    await auditWrite(tx, actor, {
      action: 'access-code.created',
      entity: 'access-code',
      entityId: created[0]!,
      after: {
        ids: created,
        surveyId: input.surveyId,
        schoolSiteId: siteId,
        classLabel: input.classLabel,
        maxUses: input.maxUses,
        expiresOn: input.expiresOn,
      },
    });
    return created;
  });
  return repo.codeSummaries(db, ids, now);
}

/** The code revoked (a second revoke is a 409), audited; its summary as it is now. */
export async function revokeCode(db: Db, actor: SignedInActor, id: number): Promise<AccessCodeSummary> {
  const now = actor.at;
  await withTransaction(db, async (tx) => {
    if (!(await repo.revokeCode(tx, id, now)))
      throw new HttpError(409, 'access_code_revoked', ACCESS_CODE_MESSAGES.alreadyRevoked);
    await auditWrite(tx, actor, {
      action: 'access-code.revoked',
      entity: 'access-code',
      entityId: id,
      before: { revokedAt: null },
      after: { revokedAt: now.toISOString() },
    });
  });
  const [summary] = await repo.codeSummaries(db, [id], now);
  return summary!;
}

/**
 * The code `code` opens now, with its survey; `undefined` when it opens nothing (malformed, unknown,
 * expired, revoked, used up, or its survey is not for code holders: decision 046, codes are made only
 * for theirs).
 */
export async function usableCode(db: Db, code: string, now: Date) {
  if (!isAccessCodeShape(code)) return undefined;
  const found = await repo.findUsableCode(db, code, now);
  const survey = found && (await findSurveyWithQuestions(db, found.surveyId));
  if (!found || !survey || !includesGroup(survey.participants, 'codici')) return undefined;
  return { found, survey };
}

/**
 * An anonymous response through a code: checked against the code holders' questions before any use is
 * taken (a 422 changes nothing), then the use and the response commit together. A teacher's code is
 * capped per plesso and day (decision 029). `unknown_code` is a code that opens nothing at the
 * look-up (the route counts it against the failed look-ups' ceiling); a use raced away meanwhile is
 * the same 404, thrown.
 */
export async function submitCodeResponse(
  db: Db,
  limits: CodeLimits,
  code: string,
  answers: Readonly<Record<string, unknown>>,
  now: Date,
): Promise<{ ok: true } | { ok: false; reason: 'unknown_code' }> {
  const usable = await usableCode(db, code, now);
  if (!usable) return { ok: false, reason: 'unknown_code' };
  const { found, survey } = usable;
  // Only the code holders' questions (decision 046): an answer to a teachers' question is refused by name.
  const checked = checkedAnswers(survey, 'codici', answers);
  await withTransaction(db, async (tx) => {
    if (found.ownerUserId !== null) {
      // A teacher's code: the plesso's answers of the day are capped (decision 029), counted under a per-plesso lock.
      await repo.lockSiteAnswers(tx, found.schoolSiteId);
      if (
        (await repo.teacherCodeAnswersSince(tx, found.surveyId, found.schoolSiteId, startOfRomeDay(now))) >=
        limits.ACCESS_CODE_SITE_MAX_USES_PER_DAY
      ) {
        throw new HttpError(429, 'access_code_site_daily_limit', ACCESS_CODE_MESSAGES.siteDailyUses);
      }
    }
    // The use and the response commit together; no use left (raced away meanwhile) → the same 404.
    const taken = await repo.takeUse(tx, found.code, now);
    if (!taken || taken.surveyId !== survey.id) throw codeNotFound();
    await repo.insertCodeResponse(tx, {
      surveyId: taken.surveyId,
      schoolSiteId: taken.schoolSiteId,
      accessCodeId: taken.id,
      answers: checked,
      submittedAt: now,
    });
  });
  return { ok: true };
}
