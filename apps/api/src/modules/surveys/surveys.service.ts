import {
  answerFieldKey,
  answersNotForGroup,
  canTransitionSurvey,
  groupsOf,
  includesGroup,
  questionsForGroup,
  SURVEY_MESSAGES,
  SURVEY_STATE_LABELS,
  surveyDateErrors,
  validateAnswers,
  type Answers,
  type QuestionListInputSchema,
  type RespondentGroup,
  type SurveyDetail,
  type SurveyInputSchema,
  type SurveyParticipants,
  type SurveyQuestion,
  type SurveyState,
  type SurveyUpdate,
} from '@portale/shared/surveys';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { withTransaction, type DbOrTx } from '../../db/transaction.ts';
import { auditWrite, changedFields, type SignedInActor } from '../../lib/audit.ts';
import { FieldErrors } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import * as repo from './surveys.repository.ts';

export const surveyNotFound = () => new HttpError(404, 'not_found', SURVEY_MESSAGES.notFound);
const conflict = (message: string, code = 'conflict') => new HttpError(409, code, message);

/**
 * The answers a respondent of `group` may give to `survey`, checked: an answer to a question not for
 * the group is refused by name (decision 046), then the group's questions validate the rest. Field
 * errors are thrown as a 422; nothing is written.
 */
export function checkedAnswers(
  survey: { participants: SurveyParticipants; questions: SurveyQuestion[] },
  group: RespondentGroup,
  answers: Readonly<Record<string, unknown>>,
): Answers {
  const questions = questionsForGroup(survey.participants, survey.questions, group);
  const notForYou = answersNotForGroup(survey.questions, questions, answers);
  if (notForYou.length > 0)
    throw new FieldErrors(
      Object.fromEntries(notForYou.map((id) => [answerFieldKey(id), [SURVEY_MESSAGES.answerNotForYou]])),
    );
  const result = validateAnswers(questions, answers);
  if (!result.valid)
    throw new FieldErrors(
      Object.fromEntries(
        Object.entries(result.errors).map(([id, messages]) => [answerFieldKey(id), messages]),
      ),
    );
  return result.answers;
}

/** A slug from the title (lowercase ASCII words), made unique with a number. */
async function uniqueSlug(db: DbOrTx, title: string): Promise<string> {
  const base =
    title
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'indagine';
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!(await repo.slugExists(db, slug))) return slug;
  }
}

const editable = (s: repo.SurveyRow) => ({
  title: s.title,
  purpose: s.purpose,
  audience: s.audience,
  opensOn: s.opensOn,
  closesOn: s.closesOn,
  participants: s.participants,
});

/** A new survey in `bozza`, with a unique slug from its title, audited. */
export async function createSurvey(
  db: Db,
  actor: SignedInActor,
  input: z.output<typeof SurveyInputSchema>,
): Promise<SurveyDetail> {
  const userId = actor.userId;
  const slug = await uniqueSlug(db, input.title);
  const id = await withTransaction(db, async (tx) => {
    const row = await repo.insertSurvey(tx, {
      ...input,
      slug,
      state: 'bozza',
      createdByUserId: userId,
      updatedByUserId: userId,
    });
    await auditWrite(tx, actor, {
      action: 'survey.created',
      entity: 'survey',
      entityId: row.id,
      after: { ...editable(row), slug },
    });
    return row.id;
  });
  return (await repo.surveyDetail(db, id))!;
}

/**
 * The survey's fields changed (an `undefined` field is left as it is), checked together: the dates,
 * and who answers, which is fixed once the survey opens and must cover its questions (decision 046).
 * A save that changes nothing writes nothing.
 */
export async function updateSurvey(
  db: Db,
  actor: SignedInActor,
  surveyId: number,
  changes: SurveyUpdate,
): Promise<SurveyDetail> {
  const userId = actor.userId;
  await withTransaction(db, async (tx) => {
    const current = await repo.lockSurvey(tx, surveyId);
    if (!current) throw surveyNotFound();
    const before = editable(current);
    const merged = {
      ...before,
      ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
    } as typeof before;
    const errors = surveyDateErrors(merged);
    if (Object.keys(errors).length > 0) throw new FieldErrors(errors);
    // Who answers is fixed once the survey opens (decision 046): codes, responses and the open
    // survey of each group depend on it.
    if (merged.participants !== before.participants && current.state !== 'bozza')
      throw conflict(SURVEY_MESSAGES.participantsLocked, 'participants_locked');
    if (merged.participants !== before.participants && merged.participants !== 'entrambi') {
      const outside = (await repo.findQuestions(tx, surveyId)).find(
        (q) => q.participants !== 'entrambi' && q.participants !== merged.participants,
      );
      if (outside && outside.participants !== 'entrambi')
        throw new FieldErrors({
          participants: [SURVEY_MESSAGES.participantsQuestionsOutside(outside.participants)],
        });
    }
    const diff = changedFields(before, merged);
    if (Object.keys(diff.after).length === 0) return;
    await repo.updateSurveyFields(tx, surveyId, diff.after, { userId, at: actor.at });
    await auditWrite(tx, actor, {
      action: 'survey.updated',
      entity: 'survey',
      entityId: surveyId,
      ...diff,
    });
  });
  return (await repo.surveyDetail(db, surveyId))!;
}

/**
 * The survey's questions replaced as a whole, while it is not closed and has no responses; each
 * question is for the survey's participants or some of them (decision 046).
 */
export async function replaceSurveyQuestions(
  db: Db,
  actor: SignedInActor,
  surveyId: number,
  input: z.output<typeof QuestionListInputSchema>['questions'],
): Promise<SurveyDetail> {
  const userId = actor.userId;
  await withTransaction(db, async (tx) => {
    const current = await repo.lockSurvey(tx, surveyId);
    if (!current) throw surveyNotFound();
    if (current.state === 'chiusa') throw conflict(SURVEY_MESSAGES.questionsNotDraft, 'survey_closed');
    // Responses are inserted only while the survey is open; the row lock above serialises this check with the replace.
    if ((await repo.countResponses(tx, surveyId)) > 0)
      throw conflict(SURVEY_MESSAGES.questionsLocked, 'survey_has_responses');
    const before = await repo.findQuestions(tx, surveyId);
    const questions = input.map((q) => ({
      type: q.type,
      label: q.label,
      help: q.help,
      required: q.required,
      options: q.options,
      participants: q.participants,
    }));
    // A question is for the survey's participants or some of them (decision 046).
    const outside: Record<string, string[]> = {};
    questions.forEach((q, i) => {
      if (q.participants !== 'entrambi' && !includesGroup(current.participants, q.participants))
        outside[`questions.${i}.participants`] = [SURVEY_MESSAGES.questionOutsideSurvey(q.participants)];
    });
    if (Object.keys(outside).length > 0) throw new FieldErrors(outside);
    await repo.replaceQuestions(tx, surveyId, questions, { userId, at: actor.at });
    await auditWrite(tx, actor, {
      action: 'survey.questions-replaced',
      entity: 'survey',
      entityId: surveyId,
      before: before.map(({ id: _id, ...q }) => q),
      after: questions.map((q, i) => ({ position: i + 1, ...q })),
    });
  });
  return (await repo.surveyDetail(db, surveyId))!;
}

/**
 * The survey moved to state `to`. Opening needs questions for each group that answers, and no other
 * survey open for any of those groups (decision 046, amending 016): openings are serialised by a lock.
 */
export async function transitionSurvey(
  db: Db,
  actor: SignedInActor,
  surveyId: number,
  to: SurveyState,
): Promise<SurveyDetail> {
  const userId = actor.userId;
  await withTransaction(db, async (tx) => {
    if (to === 'aperta') await repo.lockSurveyOpening(tx);
    const current = await repo.lockSurvey(tx, surveyId);
    if (!current) throw surveyNotFound();
    if (!canTransitionSurvey(current.state, to)) {
      throw conflict(
        SURVEY_MESSAGES.badTransition(SURVEY_STATE_LABELS[current.state], SURVEY_STATE_LABELS[to]),
        'invalid_transition',
      );
    }
    if (to === 'aperta') {
      const questions = await repo.findQuestions(tx, surveyId);
      if (questions.length === 0)
        throw conflict(SURVEY_MESSAGES.openNeedsQuestions, 'survey_without_questions');
      const groups = groupsOf(current.participants);
      for (const group of groups)
        if (questionsForGroup(current.participants, questions, group).length === 0)
          throw conflict(SURVEY_MESSAGES.openNeedsGroupQuestions(group), 'survey_without_questions');
      // Decision 046 (amending 016): one open survey per group of respondents.
      const other = await repo.findOtherOpenSurvey(tx, surveyId, groups);
      if (other) {
        const shared = groups.find((g) => includesGroup(other.participants, g))!;
        throw conflict(SURVEY_MESSAGES.anotherOpen(other.title, shared), 'another_survey_open');
      }
    }
    if (!(await repo.setSurveyState(tx, surveyId, current.state, to, { userId, at: actor.at })))
      throw conflict(SURVEY_MESSAGES.stateChanged);
    await auditWrite(tx, actor, {
      action: 'survey.transitioned',
      entity: 'survey',
      entityId: surveyId,
      before: { state: current.state },
      after: { state: to },
    });
  });
  return (await repo.surveyDetail(db, surveyId))!;
}

/**
 * The signed-in teacher's one response to the survey open for teachers, only to its teachers'
 * questions: the unique index (survey, user) decides between concurrent submissions. It is kept
 * either way; the results count it only while the teacher is approved (decision 029).
 */
export async function submitTeacherResponse(
  db: Db,
  actor: SignedInActor,
  answers: Readonly<Record<string, unknown>>,
): Promise<{ message: string; submittedAt: string; answers: Answers }> {
  const userId = actor.userId;
  const survey = await repo.findOpenSurvey(db, 'insegnanti');
  if (!survey) {
    // Decision 046: the survey open now may be for code holders only.
    const forCodes = await repo.findOpenSurvey(db, 'codici');
    throw conflict(
      forCodes ? SURVEY_MESSAGES.noOpenSurveyForTeachers : SURVEY_MESSAGES.noOpenSurvey,
      'survey_not_open',
    );
  }
  if (await repo.findUserResponse(db, survey.id, userId))
    throw conflict(SURVEY_MESSAGES.alreadyAnswered, 'already_answered');
  const checked = checkedAnswers(survey, 'insegnanti', answers);
  const { schoolSiteId, approved } = await repo.findUserSchoolSite(db, userId);
  const saved = await repo.insertUserResponse(db, {
    surveyId: survey.id,
    userId,
    schoolSiteId,
    answers: checked,
    submittedAt: actor.at,
  });
  // A concurrent submission won the unique index: exactly one response per person.
  if (!saved) throw conflict(SURVEY_MESSAGES.alreadyAnswered, 'already_answered');
  const message = approved ? SURVEY_MESSAGES.responded : SURVEY_MESSAGES.respondedPendingApproval;
  return { message, submittedAt: saved.submittedAt.toISOString(), answers: checked };
}
