import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createSurvey,
  exportSurveys,
  getCurrentSurvey,
  getMyResponse,
  getSurvey,
  listSurveys,
  replaceSurveyQuestions,
  submitMyResponse,
  SURVEY_PARTICIPANTS_LABELS,
  SURVEY_STATE_LABELS,
  transitionSurvey,
  updateSurvey,
  type SurveySummary,
} from '@portale/shared/surveys';
import { signedInActorOf } from '../../plugins/service-context.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { authOf } from '../../plugins/authorization.ts';
import * as repo from './surveys.repository.ts';
import * as service from './surveys.service.ts';

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

async function surveyOf(request: RequestWithParams<{ surveyId: number }>) {
  const { surveyId } = request.params;
  const survey = await repo.findSurveyWithQuestions(request.server.db, surveyId);
  return survey && { ownerUserIds: [] };
}

/** The open survey's response endpoints act on the caller's own response. */
async function ownResponse(request: FastifyRequest) {
  return { ownerUserIds: [authOf(request).user.id] };
}

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
    const detail = await service.createSurvey(app.db, signedInActorOf(request), request.body);
    reply.header('location', `/api/surveys/${detail.id}`);
    return detail;
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

  registerEndpoint(app, submitMyResponse, { resource: ownResponse }, (request) =>
    service.submitTeacherResponse(app.db, signedInActorOf(request), request.body.answers),
  );

  registerEndpoint(app, getSurvey, { resource: surveyOf }, async (request) => {
    const detail = await repo.surveyDetail(app.db, request.params.surveyId);
    if (!detail) throw service.surveyNotFound();
    return detail;
  });

  registerEndpoint(app, updateSurvey, { resource: surveyOf }, (request) =>
    service.updateSurvey(app.db, signedInActorOf(request), request.params.surveyId, request.body),
  );

  registerEndpoint(app, replaceSurveyQuestions, { resource: surveyOf }, (request) =>
    service.replaceSurveyQuestions(
      app.db,
      signedInActorOf(request),
      request.params.surveyId,
      request.body.questions,
    ),
  );

  registerEndpoint(app, transitionSurvey, { resource: surveyOf }, async (request) => {
    const survey = await service.transitionSurvey(
      app.db,
      signedInActorOf(request),
      request.params.surveyId,
      request.body.to,
    );
    // Decision 058: a closed survey's results are computed now, in the background, not by its first visitor.
    if (request.body.to === 'chiusa') void app.resultSnapshots.refresh();
    return survey;
  });
}
