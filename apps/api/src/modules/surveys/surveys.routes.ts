import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  answerFieldKey,
  answersNotForGroup,
  canTransitionSurvey,
  groupsOf,
  includesGroup,
  questionsForGroup,
  createSurvey,
  exportSurveys,
  getCurrentSurvey,
  getMyResponse,
  getSurvey,
  listSurveys,
  replaceSurveyQuestions,
  submitMyResponse,
  SURVEY_MESSAGES,
  SURVEY_PARTICIPANTS_LABELS,
  SURVEY_STATE_LABELS,
  surveyDateErrors,
  transitionSurvey,
  updateSurvey,
  validateAnswers,
  type SurveySummary,
} from '@portale/shared/surveys';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, changedFields } from '../../lib/audit.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { FieldErrors } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { authOf } from '../../plugins/authorization.ts';
import * as repo from './surveys.repository.ts';

const EXPORT_COLUMNS: ExportColumn<SurveySummary>[] = [
  { header: 'Titolo', value: (r) => r.title },
  { header: 'Destinatari', value: (r) => r.audience },
  { header: 'Chi risponde', value: (r) => SURVEY_PARTICIPANTS_LABELS[r.participants] },
  { header: 'Stato', value: (r) => SURVEY_STATE_LABELS[r.state] },
  { header: 'Apertura', value: (r) => r.opensOn, type: 'date' },
  { header: 'Chiusura', value: (r) => r.closesOn, type: 'date' },
  { header: 'Domande', value: (r) => r.questionCount },
  { header: 'Risposte', value: (r) => r.responseCount },
  { header: 'Aggiornata il', value: (r) => new Date(r.updatedAt) },
];

const surveyNotFound = () => new HttpError(404, 'not_found', SURVEY_MESSAGES.notFound);
const conflict = (message: string, code = 'conflict') => new HttpError(409, code, message);

async function surveyOf(request: FastifyRequest) {
  const { surveyId } = request.params as { surveyId: number };
  const survey = await repo.findSurveyWithQuestions(request.server.db, surveyId);
  return survey && { ownerUserIds: [] };
}

/** The open survey's response endpoints act on the caller's own response. */
async function ownResponse(request: FastifyRequest) {
  return { ownerUserIds: [authOf(request).user.id] };
}

/** A slug from the title (lowercase ASCII words), made unique with a number. */
async function uniqueSlug(app: FastifyInstance, title: string): Promise<string> {
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
    if (!(await repo.slugExists(app.db, slug))) return slug;
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

/**
 * Surveys (issue 12). Staff build a survey in `bozza`, say who answers it (teachers, code holders or
 * both, and per question when both: decision 046), give it questions, open it (one survey is `aperta`
 * per group of respondents: opening a second for the same group is a 409 naming the open one) and
 * close it. Questions change only while the survey has no responses. A logged-in teacher or educator
 * answers the survey open for teachers once, and only its teachers' questions: the unique index
 * (survey, user) decides between concurrent submissions.
 */
export async function surveyRoutes(app: FastifyInstance) {
  registerEndpoint(app, listSurveys, {}, async (request) => {
    const { page, pageSize, ...filters } = request.query;
    const [items, total] = await Promise.all([
      repo.listSurveys(app.db, filters, pageSize, (page - 1) * pageSize),
      repo.countSurveys(app.db, filters),
    ]);
    return { items, total, page, pageSize };
  });

  registerEndpoint(app, exportSurveys, {}, async (request, reply) => {
    const { format, ...filters } = request.query;
    const now = app.clock.now();
    return sendExport(reply, {
      format,
      name: 'indagini',
      sheetName: 'Indagini',
      columns: EXPORT_COLUMNS,
      total: await repo.countSurveys(app.db, filters),
      today: now,
      produce: async (write) => {
        for (let offset = 0; ; offset += 500) {
          const rows = await repo.listSurveys(app.db, filters, 500, offset);
          if (rows.length > 0) await write(rows);
          if (rows.length < 500) return;
        }
      },
    });
  });

  registerEndpoint(app, createSurvey, {}, async (request, reply) => {
    const body = request.body;
    const userId = authOf(request).user.id;
    const slug = await uniqueSlug(app, body.title);
    const id = await withTransaction(app.db, async (tx) => {
      const row = await repo.insertSurvey(tx, {
        ...body,
        slug,
        state: 'bozza',
        createdByUserId: userId,
        updatedByUserId: userId,
      });
      await auditWrite(tx, request, {
        action: 'survey.created',
        entity: 'survey',
        entityId: row.id,
        after: { ...editable(row), slug },
      });
      return row.id;
    });
    reply.header('location', `/api/surveys/${id}`);
    return (await repo.surveyDetail(app.db, id))!;
  });

  registerEndpoint(app, getCurrentSurvey, {}, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const survey = await repo.findOpenSurvey(app.db, 'insegnanti');
    const forCodes = await repo.findOpenSurvey(app.db, 'codici');
    const codeSurvey =
      forCodes && forCodes.id !== survey?.id
        ? (({ questions: _q, ...brief }) => brief)(repo.toOpenSurvey(forCodes, 'codici'))
        : null;
    return { survey: survey ? repo.toOpenSurvey(survey, 'insegnanti') : null, codeSurvey };
  });

  registerEndpoint(app, getMyResponse, { resource: ownResponse }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const survey = await repo.findOpenSurvey(app.db, 'insegnanti');
    if (!survey) return { response: null };
    const row = await repo.findUserResponse(app.db, survey.id, authOf(request).user.id);
    return {
      response: row
        ? { surveyId: row.surveyId, answers: row.answers, submittedAt: row.submittedAt.toISOString() }
        : null,
    };
  });

  registerEndpoint(app, submitMyResponse, { resource: ownResponse }, async (request) => {
    const userId = authOf(request).user.id;
    const survey = await repo.findOpenSurvey(app.db, 'insegnanti');
    if (!survey) {
      // Decision 046: the survey open now may be for code holders only.
      const forCodes = await repo.findOpenSurvey(app.db, 'codici');
      throw conflict(
        forCodes ? SURVEY_MESSAGES.noOpenSurveyForTeachers : SURVEY_MESSAGES.noOpenSurvey,
        'survey_not_open',
      );
    }
    if (await repo.findUserResponse(app.db, survey.id, userId))
      throw conflict(SURVEY_MESSAGES.alreadyAnswered, 'already_answered');
    // Only the teachers' questions: an answer to another of the survey's questions is refused by name.
    const questions = questionsForGroup(survey.participants, survey.questions, 'insegnanti');
    const notForYou = answersNotForGroup(survey.questions, questions, request.body.answers);
    if (notForYou.length > 0)
      throw new FieldErrors(
        Object.fromEntries(notForYou.map((id) => [answerFieldKey(id), [SURVEY_MESSAGES.answerNotForYou]])),
      );
    const result = validateAnswers(questions, request.body.answers);
    if (!result.valid)
      throw new FieldErrors(
        Object.fromEntries(
          Object.entries(result.errors).map(([id, messages]) => [answerFieldKey(id), messages]),
        ),
      );
    const { schoolSiteId, approved } = await repo.findUserSchoolSite(app.db, userId);
    const saved = await repo.insertUserResponse(app.db, {
      surveyId: survey.id,
      userId,
      schoolSiteId,
      answers: result.answers,
      submittedAt: app.clock.now(),
    });
    // A concurrent submission won the unique index: exactly one response per person.
    if (!saved) throw conflict(SURVEY_MESSAGES.alreadyAnswered, 'already_answered');
    // Kept either way; the results count it only while the teacher is approved (decision 029).
    const message = approved ? SURVEY_MESSAGES.responded : SURVEY_MESSAGES.respondedPendingApproval;
    return { message, submittedAt: saved.submittedAt.toISOString(), answers: result.answers };
  });

  registerEndpoint(app, getSurvey, { resource: surveyOf }, async (request) => {
    const detail = await repo.surveyDetail(app.db, request.params.surveyId);
    if (!detail) throw surveyNotFound();
    return detail;
  });

  registerEndpoint(app, updateSurvey, { resource: surveyOf }, async (request) => {
    const { surveyId } = request.params;
    const userId = authOf(request).user.id;
    await withTransaction(app.db, async (tx) => {
      const current = await repo.lockSurvey(tx, surveyId);
      if (!current) throw surveyNotFound();
      const before = editable(current);
      const merged = {
        ...before,
        ...Object.fromEntries(Object.entries(request.body).filter(([, v]) => v !== undefined)),
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
      await repo.updateSurveyFields(tx, surveyId, diff.after, { userId, at: app.clock.now() });
      await auditWrite(tx, request, {
        action: 'survey.updated',
        entity: 'survey',
        entityId: surveyId,
        ...diff,
      });
    });
    return (await repo.surveyDetail(app.db, surveyId))!;
  });

  registerEndpoint(app, replaceSurveyQuestions, { resource: surveyOf }, async (request) => {
    const { surveyId } = request.params;
    const userId = authOf(request).user.id;
    await withTransaction(app.db, async (tx) => {
      const current = await repo.lockSurvey(tx, surveyId);
      if (!current) throw surveyNotFound();
      if (current.state === 'chiusa') throw conflict(SURVEY_MESSAGES.questionsNotDraft, 'survey_closed');
      // Responses are inserted only while the survey is open; the row lock above serialises this check with the replace.
      if ((await repo.countResponses(tx, surveyId)) > 0)
        throw conflict(SURVEY_MESSAGES.questionsLocked, 'survey_has_responses');
      const before = await repo.findQuestions(tx, surveyId);
      const questions = request.body.questions.map((q) => ({
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
      await repo.replaceQuestions(tx, surveyId, questions, { userId, at: app.clock.now() });
      await auditWrite(tx, request, {
        action: 'survey.questions-replaced',
        entity: 'survey',
        entityId: surveyId,
        before: before.map(({ id: _id, ...q }) => q),
        after: questions.map((q, i) => ({ position: i + 1, ...q })),
      });
    });
    return (await repo.surveyDetail(app.db, surveyId))!;
  });

  registerEndpoint(app, transitionSurvey, { resource: surveyOf }, async (request) => {
    const { surveyId } = request.params;
    const { to } = request.body;
    const userId = authOf(request).user.id;
    await withTransaction(app.db, async (tx) => {
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
      if (!(await repo.setSurveyState(tx, surveyId, current.state, to, { userId, at: app.clock.now() })))
        throw conflict(SURVEY_MESSAGES.stateChanged);
      await auditWrite(tx, request, {
        action: 'survey.transitioned',
        entity: 'survey',
        entityId: surveyId,
        before: { state: current.state },
        after: { state: to },
      });
    });
    return (await repo.surveyDetail(app.db, surveyId))!;
  });
}
