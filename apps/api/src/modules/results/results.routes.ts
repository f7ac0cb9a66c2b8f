import type { FastifyInstance } from 'fastify';
import { SCHOOL_LEVEL_LABELS } from '@portale/shared/registry';
import {
  exportResults,
  getResults,
  getResultsMethodology,
  groupsOf,
  includesGroup,
  questionsForGroup,
  RESPONDENT_GROUP_LABELS,
  RESULTS_FLAG,
  RESULTS_LEGAL_FLOOR,
  RESULTS_METHODOLOGY_PATH,
  NO_ANSWER_KEY,
  NO_ANSWER_LABEL,
  RESULTS_MESSAGES,
  SCALE_MAX,
  SCALE_MIN,
  type QuestionResult,
  type RespondentGroup,
  type ResultsQuery,
  type ResultsResponse,
  type SurveyQuestion,
} from '@portale/shared/surveys';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { FieldErrors } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { findQuestions } from '../surveys/index.ts';
import {
  choiceCategory,
  combinationCategory,
  listClosedSurveys,
  resultTallies,
  scaleCategory,
  resultsVersion,
  type ItemInSql,
  type ResponseForResults,
} from './results.repository.ts';
import {
  type CategoryCount,
  type Group,
  type ItemDef,
  type ResultTallies,
  type RespondentCategories,
  type SuppressedResults,
} from './results-suppression.ts';
import { suppressTalliesOffThread } from './results-suppression-thread.ts';

const SCALE_VALUES = Array.from({ length: SCALE_MAX - SCALE_MIN + 1 }, (_, i) => String(SCALE_MIN + i));

const isAggregable = (q: SurveyQuestion) =>
  q.type === 'scelta_singola' || q.type === 'scelta_multipla' || q.type === 'scala';
/** A multiple choice's combination of ticked options: '1' or '0' per option, in the options' order (decision 035). */
const combination = (options: string[], chosen: Set<unknown>) =>
  options.map((o) => (chosen.has(o) ? '1' : '0')).join('');
/** Every combination of `m` options (only listed up to 12 options: the attacker of the tests reads them). */
const combinations = (m: number) =>
  m > 12 ? [] : Array.from({ length: 2 ** m }, (_, i) => i.toString(2).padStart(m, '0'));

/**
 * The items the suppression works on (decisions 018, 035): a single-choice or scale question, or a
 * multiple choice as a whole (its categories are the combinations of options ticked; each option's
 * count is the sum of the combinations that hold it).
 */
export function itemsOf(questions: SurveyQuestion[]): ItemDef[] {
  const items: ItemDef[] = [];
  for (const q of questions) {
    if (q.type === 'scelta_multipla') {
      const all = combinations(q.options.length);
      const none = '0'.repeat(q.options.length);
      items.push({
        id: String(q.id),
        categories: all,
        published: q.options,
        sums: Object.fromEntries(q.options.map((o, i) => [o, all.filter((c) => c[i] === '1')])),
        impossible: q.required ? [none] : [],
      });
    } else if (q.type === 'scelta_singola' || q.type === 'scala') {
      const values = q.type === 'scala' ? SCALE_VALUES : q.options;
      items.push({
        id: String(q.id),
        categories: [...values, NO_ANSWER_KEY],
        published: q.required ? values : [...values, NO_ANSWER_KEY],
        impossible: q.required ? [NO_ANSWER_KEY] : [],
      });
    }
  }
  return items;
}

/** One response reduced to its group and a category per item (anything unexpected counts as no answer). */
export function categoriesOf(
  questions: SurveyQuestion[],
  response: ResponseForResults,
): RespondentCategories {
  const categories: Record<string, string> = {};
  for (const q of questions) {
    const value = response.answers[String(q.id)];
    if (q.type === 'scelta_multipla') {
      categories[String(q.id)] = combination(q.options, new Set(Array.isArray(value) ? value : []));
    } else if (q.type === 'scelta_singola') {
      categories[String(q.id)] =
        typeof value === 'string' && q.options.includes(value) ? value : NO_ANSWER_KEY;
    } else if (q.type === 'scala') {
      categories[String(q.id)] =
        typeof value === 'number' && SCALE_VALUES.includes(String(value)) ? String(value) : NO_ANSWER_KEY;
    }
  }
  return { region: response.region, level: response.level, categories };
}

/**
 * The items of `itemsOf` with the SQL of `categoriesOf` (decision 033): the same category for every
 * response, computed by the database from the stored answers. A test holds the two to the same results.
 */
export function itemsInSql(questions: SurveyQuestion[]): ItemInSql[] {
  const items: ItemInSql[] = [];
  for (const q of questions) {
    if (q.type === 'scelta_multipla') {
      items.push({
        id: String(q.id),
        categories: combinations(q.options.length),
        category: combinationCategory(q.id, q.options),
        grouped: true,
      });
    } else if (q.type === 'scelta_singola') {
      items.push({
        id: String(q.id),
        categories: [...q.options, NO_ANSWER_KEY],
        category: choiceCategory(q.id, q.options, NO_ANSWER_KEY),
      });
    } else if (q.type === 'scala') {
      items.push({
        id: String(q.id),
        categories: [...SCALE_VALUES, NO_ANSWER_KEY],
        category: scaleCategory(q.id, SCALE_VALUES, NO_ANSWER_KEY),
      });
    }
  }
  return items;
}

interface Computed {
  stamp: string;
  questions: SurveyQuestion[];
  textQuestions: number;
  results: SuppressedResults;
}

/** Earlier closed surveys a survey's questions are compared with (decision 035: waves). */
const MAX_EARLIER_WAVES = 3;
type ClosedList = Awaited<ReturnType<typeof listClosedSurveys>>;

const normalized = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
/** The same question in another wave: the same type, text and options (in the same order). */
const sameQuestion = (a: SurveyQuestion, b: SurveyQuestion) =>
  a.type === b.type &&
  normalized(a.label) === normalized(b.label) &&
  a.options.length === b.options.length &&
  a.options.every((o, i) => o === b.options[i]);

/**
 * The surveys closed before this one that it is compared with for a group of respondents, latest
 * first: those that asked the same group (decision 046: each group is its own release).
 */
const earlierOf = (closed: ClosedList, surveyId: number, group: RespondentGroup) => {
  const asked = closed.filter((s) => s.id === surveyId || includesGroup(s.participants, group));
  const index = asked.findIndex((s) => s.id === surveyId);
  return index < 0 ? [] : asked.slice(index + 1, index + 1 + MAX_EARLIER_WAVES);
};

/**
 * Closed surveys do not change: their suppressed results are computed once per app and group of
 * respondents (again only if the responses change). Keyed `surveyId:group`.
 */
const caches = new WeakMap<FastifyInstance, Map<string, Computed>>();
const CACHE_MAX = 20;
const computing = new WeakMap<FastifyInstance, Map<string, Promise<Computed>>>();

/**
 * The version stamp of a survey's results (decision 033): its own responses' version and, since the
 * earlier waves enter the computation (decision 035), theirs.
 */
async function stampOf(
  app: FastifyInstance,
  closed: ClosedList,
  surveyId: number,
  group: RespondentGroup,
): Promise<string> {
  const parts = [await resultsVersion(app.db, surveyId)];
  for (const e of earlierOf(closed, surveyId, group))
    parts.push(`${e.id}@${await resultsVersion(app.db, e.id)}`);
  return parts.join(';');
}

async function computed(
  app: FastifyInstance,
  closed: ClosedList,
  surveyId: number,
  group: RespondentGroup,
): Promise<Computed> {
  let cache = caches.get(app);
  if (!cache) caches.set(app, (cache = new Map()));
  const stamp = await stampOf(app, closed, surveyId, group);
  const hit = cache.get(`${surveyId}:${group}`);
  if (hit && hit.stamp === stamp) return hit;
  // Calls that arrive while the same results are computed wait for that computation (decision 033).
  let inFlight = computing.get(app);
  if (!inFlight) computing.set(app, (inFlight = new Map()));
  const key = `${surveyId}:${group}:${stamp}`;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = compute(app, cache, closed, surveyId, group, stamp).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

/** The earlier waves' tallies of the questions this survey repeats, keyed by this survey's item ids (decision 035). */
async function earlierWaves(
  app: FastifyInstance,
  closed: ClosedList,
  surveyId: number,
  group: RespondentGroup,
  questions: SurveyQuestion[],
): Promise<{ groups: Group[]; pairs: [string, CategoryCount[]][] }[]> {
  const waves: { groups: Group[]; pairs: [string, CategoryCount[]][] }[] = [];
  for (const e of earlierOf(closed, surveyId, group)) {
    const theirs = questionsForGroup(e.participants, await findQuestions(app.db, e.id), group).filter(
      isAggregable,
    );
    const linked: { ours: SurveyQuestion; theirs: SurveyQuestion }[] = [];
    for (const q of questions) {
      const match = theirs.find((t) => sameQuestion(q, t));
      if (match) linked.push({ ours: q, theirs: match });
    }
    if (linked.length === 0) continue;
    const items = itemsInSql(linked.map((l) => l.theirs));
    const ids = new Map(linked.map((l) => [String(l.theirs.id), String(l.ours.id)]));
    const tallies: ResultTallies = await resultTallies(app.db, e.id, items, group);
    waves.push({ groups: tallies.groups, pairs: [...tallies.pairs].map(([id, p]) => [ids.get(id)!, p]) });
  }
  return waves;
}

async function compute(
  app: FastifyInstance,
  cache: Map<string, Computed>,
  closed: ClosedList,
  surveyId: number,
  group: RespondentGroup,
  stamp: string,
): Promise<Computed> {
  const participants = closed.find((s) => s.id === surveyId)!.participants;
  // Decision 046: the group's answers to the questions it was asked, and nothing of the other group.
  const all = questionsForGroup(participants, await findQuestions(app.db, surveyId), group);
  const questions = all.filter(isAggregable);
  const textQuestions = all.filter((q) => q.type === 'testo_breve' || q.type === 'testo_lungo').length;
  // Counted in SQL (decision 033); the same tallies as `suppressResults(itemsOf(…), responses.map(categoriesOf))`.
  const results = await suppressTalliesOffThread(
    itemsOf(questions),
    await resultTallies(app.db, surveyId, itemsInSql(questions), group),
    app.env.RESULTS_MIN_CELL,
    await earlierWaves(app, closed, surveyId, group, questions),
  );
  const value = { stamp, questions, textQuestions, results };
  const key = `${surveyId}:${group}`;
  cache.delete(key);
  cache.set(key, value);
  while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return value;
}

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
