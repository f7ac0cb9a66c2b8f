import type { FastifyInstance } from 'fastify';
import { SCHOOL_LEVEL_LABELS } from '@portale/shared/registry';
import {
  exportResults,
  getResults,
  getResultsMethodology,
  groupsOf,
  RESPONDENT_GROUP_LABELS,
  RESULTS_FLAG,
  RESULTS_LEGAL_FLOOR,
  RESULTS_METHODOLOGY_PATH,
  NO_ANSWER_KEY,
  NO_ANSWER_LABEL,
  RESULTS_MESSAGES,
  type QuestionResult,
  type ResultsQuery,
  type ResultsResponse,
  type SurveyQuestion,
} from '@portale/shared/surveys';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { FieldErrors } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { listClosedSurveys } from './results.repository.ts';
import { computed, MAX_EARLIER_WAVES } from './results-computation.ts';
import { SCALE_VALUES } from './results-items.ts';

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** One question of one shown view: its rows (null = protected), and the total and mean only when nothing is protected. */
function questionResult(
  q: SurveyQuestion,
  cells: Record<string, Record<string, number | null>>,
  respondents: number,
): QuestionResult {
  const percent = (count: number | null) =>
    count === null || respondents === 0 ? null : round((count / respondents) * 100, 1);
  const row = (key: string, label: string, count: number | null) => ({
    key,
    label,
    count,
    percent: percent(count),
  });
  let rows: QuestionResult['rows'];
  if (q.type === 'scelta_multipla') {
    const own = cells[String(q.id)] ?? {};
    rows = q.options.map((option) => row(option, option, own[option] ?? null));
  } else {
    const own = cells[String(q.id)] ?? {};
    const values = q.type === 'scala' ? SCALE_VALUES : q.options;
    rows = values.map((v) => row(v, v, own[v] ?? null));
    if (!q.required) rows.push(row(NO_ANSWER_KEY, NO_ANSWER_LABEL, own[NO_ANSWER_KEY] ?? null));
  }
  const protectedRows = rows.filter((r) => r.count === null).length;
  const answerRows = rows.filter((r) => r.key !== NO_ANSWER_KEY);
  const answered =
    q.type !== 'scelta_multipla' && protectedRows === 0 ? answerRows.reduce((s, r) => s + r.count!, 0) : null;
  const mean =
    q.type === 'scala' && answered
      ? round(answerRows.reduce((s, r) => s + Number(r.key) * r.count!, 0) / answered, 2)
      : null;
  return {
    id: q.id,
    position: q.position,
    type: q.type,
    label: q.label,
    rows,
    answered,
    mean,
    protectedRows,
  };
}

/**
 * The public results of a closed survey for a group (decision 018), of one group of respondents
 * (decision 046: teachers or code holders, each suppressed on its own; the two together are never
 * published, so no difference between them and one group exists). Raw answers never leave this function.
 */
export async function resultsOf(app: FastifyInstance, query: ResultsQuery): Promise<ResultsResponse> {
  const closed = await listClosedSurveys(app.db);
  const survey = query.survey === undefined ? closed[0] : closed.find((s) => s.id === query.survey);
  if (query.survey !== undefined && !survey) throw new HttpError(404, 'not_found', RESULTS_MESSAGES.notFound);
  const base = {
    surveys: closed.map((s) => ({ id: s.id, title: s.title, closesOn: s.closesOn })),
    region: query.region ?? null,
    schoolLevel: query.schoolLevel ?? null,
    minGroup: app.env.RESULTS_MIN_CELL,
  };
  if (!survey)
    return {
      ...base,
      survey: null,
      participants: null,
      participantGroups: [],
      status: 'empty',
      respondents: null,
      questions: [],
      textQuestions: 0,
    };
  const participantGroups = groupsOf(survey.participants);
  const group = query.participants ?? participantGroups[0]!;
  if (!participantGroups.includes(group))
    throw new FieldErrors({ participants: [RESULTS_MESSAGES.groupNotAsked(RESPONDENT_GROUP_LABELS[group])] });
  const { questions, textQuestions, results } = await computed(app, closed, survey.id, group);
  const view = results.view(query.region ?? null, query.schoolLevel ?? null);
  const common = { ...base, survey, participants: group, participantGroups, textQuestions };
  if (view.respondents === null) return { ...common, status: 'suppressed', respondents: null, questions: [] };
  if (view.respondents === 0) return { ...common, status: 'empty', respondents: 0, questions: [] };
  return {
    ...common,
    status: 'shown',
    respondents: view.respondents,
    questions: questions.map((q) => questionResult(q, view.cells, view.respondents!)),
  };
}

interface CsvRow {
  question: string;
  answer: string;
  /** A count or a mean (numbers), or the Italian note of what is withheld. */
  count: string | number;
  /** Percentage points of the group's respondents; null where none is shown. */
  percent: number | null;
  /** The first line's note: what the flag means and where the methodology is (decision 035); else empty. */
  note?: string;
}

/**
 * Exactly what the page shows, one line per figure (the group's respondents first). A withheld figure
 * is the flag `c` (decision 035); the first line's note says so and where the methodology is.
 */
export function csvRowsOf(data: ResultsResponse, methodologyUrl = RESULTS_METHODOLOGY_PATH): CsvRow[] {
  const note = RESULTS_MESSAGES.exportNote(data.minGroup, methodologyUrl);
  if (data.status === 'suppressed')
    return [
      {
        question: 'Rispondenti',
        answer: RESULTS_MESSAGES.groupTooSmall,
        count: RESULTS_FLAG,
        percent: null,
        note,
      },
    ];
  const out: CsvRow[] = [
    { question: 'Rispondenti', answer: '', count: data.respondents ?? 0, percent: null, note },
  ];
  for (const q of data.questions) {
    for (const r of q.rows)
      out.push({
        question: q.label,
        answer: r.label,
        count: r.count ?? RESULTS_MESSAGES.protectedCell,
        percent: r.percent,
      });
    if (q.answered !== null)
      out.push({ question: q.label, answer: 'Totale risposte', count: q.answered, percent: null });
    if (q.mean !== null)
      out.push({ question: q.label, answer: 'Media', count: Math.round(q.mean * 100) / 100, percent: null });
  }
  return out;
}

/** The public results of the closed surveys and their CSV (the same figures, the same protections). */
export async function resultsRoutes(app: FastifyInstance) {
  registerEndpoint(app, getResults, {}, (request) => resultsOf(app, request.query));

  registerEndpoint(app, getResultsMethodology, {}, async () => ({
    minGroup: app.env.RESULTS_MIN_CELL,
    legalFloor: RESULTS_LEGAL_FLOOR,
    flag: RESULTS_FLAG,
    earlierWaves: MAX_EARLIER_WAVES,
    path: RESULTS_METHODOLOGY_PATH,
  }));

  registerEndpoint(app, exportResults, {}, async (request, reply) => {
    const { format, ...query } = request.query;
    const data = await resultsOf(app, query);
    const methodologyUrl = `${app.env.publicWebUrl}${RESULTS_METHODOLOGY_PATH}`;
    const rows = csvRowsOf(data, methodologyUrl);
    const group = [
      ...(data.participants ? [RESPONDENT_GROUP_LABELS[data.participants]] : []),
      data.region ?? 'Tutte le regioni',
      data.schoolLevel ? SCHOOL_LEVEL_LABELS[data.schoolLevel] : 'Tutti i gradi',
    ].join(', ');
    const columns: ExportColumn<CsvRow>[] = [
      { header: 'Indagine', value: () => data.survey?.title ?? '' },
      { header: 'Gruppo', value: () => group },
      { header: 'Domanda', value: (r) => r.question },
      { header: 'Risposta', value: (r) => r.answer },
      { header: 'Numero', value: (r) => r.count },
      { header: 'Percentuale sui rispondenti', value: (r) => r.percent, type: 'percent' },
      { header: 'Note', value: (r) => r.note ?? '' },
    ];
    return sendExport(reply, {
      format,
      name: 'risultati',
      sheetName: 'Risultati',
      columns,
      total: rows.length,
      today: app.clock.now(),
      produce: async (write) => void (await write(rows)),
      describedBy: methodologyUrl,
      notes: {
        sheetName: 'Note',
        lines: [
          RESULTS_MESSAGES.exportNote(data.minGroup, methodologyUrl),
          RESULTS_MESSAGES.protectedCellDetail(data.minGroup),
        ],
      },
    });
  });
}
