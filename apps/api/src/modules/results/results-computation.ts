import type { FastifyInstance } from 'fastify';
import {
  groupsOf,
  includesGroup,
  questionsForGroup,
  type RespondentGroup,
  type SurveyQuestion,
} from '@portale/shared/surveys';
import { PeriodicJob } from '../../lib/periodic-job.ts';
import { findQuestions } from '../surveys/index.ts';
import {
  listClosedSurveys,
  resultSnapshot,
  resultSnapshotStamps,
  resultStamps,
  resultTallies,
  saveResultSnapshot,
} from './results.repository.ts';
import { isAggregable, itemsInSql, itemsOf } from './results-items.ts';
import {
  withViews,
  type CategoryCount,
  type Group,
  type ResultTallies,
  type SuppressedResults,
  type ViewResult,
} from './results-suppression.ts';
import { suppressTalliesOffThread } from './results-suppression-thread.ts';

/**
 * The suppressed results of a closed survey for one group of respondents, computed once (decisions
 * 033, 050, 057) and stored (decision 058): kept in this process and in `survey_result_snapshots`,
 * computed in the background when a survey closes, so that no visitor waits for the suppression.
 */
export interface Computed {
  stamp: string;
  questions: SurveyQuestion[];
  textQuestions: number;
  results: SuppressedResults;
}

/**
 * The version of the suppression's rules, part of every stamp: raise it whenever a change to the
 * suppression (results-suppression.ts, results-audit*.ts, results-atom-rule.ts) can change what is
 * withheld, so that stored results computed by the old rules are computed again.
 */
export const SUPPRESSION_VERSION = 1;

/** Earlier closed surveys a survey's questions are compared with (decision 035: waves). */
export const MAX_EARLIER_WAVES = 3;
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

/**
 * Closed surveys do not change: their results are kept per app and group of respondents (again only
 * if the stamp changes). Keyed `surveyId:group`.
 */
const caches = new WeakMap<FastifyInstance, Map<string, Computed>>();
const CACHE_MAX = 20;
const computing = new WeakMap<FastifyInstance, Map<string, Promise<Computed>>>();
const cacheOf = (app: FastifyInstance) => {
  let cache = caches.get(app);
  if (!cache) caches.set(app, (cache = new Map()));
  return cache;
};
function remember(app: FastifyInstance, key: string, value: Computed): Computed {
  const cache = cacheOf(app);
  cache.delete(key);
  cache.set(key, value);
  while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return value;
}

/**
 * The stamp of a survey's results for a group (decisions 033, 058): everything the figures depend
 * on. The versions of its counted responses and of the earlier waves' (decision 035), when each
 * closed, the smallest group published and the suppression's version. One statement.
 */
async function stampOf(
  app: FastifyInstance,
  closed: ClosedList,
  surveyId: number,
  group: RespondentGroup,
): Promise<string> {
  const earlier = earlierOf(closed, surveyId, group).map((e) => e.id);
  const stamps = await resultStamps(app.db, [surveyId, ...earlier]);
  return [
    `s${SUPPRESSION_VERSION}`,
    `min${app.env.RESULTS_MIN_CELL}`,
    stamps.get(surveyId) ?? '-',
    ...earlier.map((id) => `${id}@${stamps.get(id) ?? '-'}`),
  ].join(';');
}

/**
 * The results of a closed survey for a group: this process's copy, else the stored one with the
 * current stamp, else computed now (and stored). Calls that arrive while the same results are
 * loaded or computed wait for that work (decision 033). `known`: the current stamp, when the caller
 * has just read it.
 */
export async function computed(
  app: FastifyInstance,
  closed: ClosedList,
  surveyId: number,
  group: RespondentGroup,
  known?: { stamp: string },
): Promise<Computed> {
  const stamp = known?.stamp ?? (await stampOf(app, closed, surveyId, group));
  const hit = cacheOf(app).get(`${surveyId}:${group}`);
  if (hit && hit.stamp === stamp) return hit;
  let inFlight = computing.get(app);
  if (!inFlight) computing.set(app, (inFlight = new Map()));
  const key = `${surveyId}:${group}:${stamp}`;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = load(app, { closed, surveyId, group, stamp }).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

/** What is stored: the questions shown and every view's figures, as the suppression left them. */
interface Payload {
  questions: SurveyQuestion[];
  textQuestions: number;
  views: [string, ViewResult][];
}
const isPayload = (p: unknown): p is Payload =>
  typeof p === 'object' &&
  p !== null &&
  Array.isArray((p as Payload).questions) &&
  typeof (p as Payload).textQuestions === 'number' &&
  Array.isArray((p as Payload).views);

/** One survey's results for one group of respondents, at a stamp. */
interface Target {
  closed: ClosedList;
  surveyId: number;
  group: RespondentGroup;
  stamp: string;
}

async function load(app: FastifyInstance, target: Target): Promise<Computed> {
  const { surveyId, group, stamp } = target;
  const key = `${surveyId}:${group}`;
  const stored = await resultSnapshot(app.db, surveyId, group, stamp);
  if (stored && isPayload(stored.payload)) {
    const { questions, textQuestions, views } = stored.payload;
    return remember(app, key, { stamp, questions, textQuestions, results: withViews(new Map(views)) });
  }
  const started = performance.now();
  const value = await compute(app, target);
  const payload: Payload = {
    questions: value.questions,
    textQuestions: value.textQuestions,
    views: [...value.results.views],
  };
  await saveResultSnapshot(app.db, {
    surveyId,
    participantGroup: group,
    stamp,
    payload,
    computedAt: app.clock.now(),
    computeMs: Math.round(performance.now() - started),
  });
  return remember(app, key, value);
}

async function compute(app: FastifyInstance, { closed, surveyId, group, stamp }: Target): Promise<Computed> {
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
  return { stamp, questions, textQuestions, results };
}

/** This process's copies are forgotten (tests: the next call reads the stored results). */
export function forgetComputedResults(app: FastifyInstance): void {
  caches.delete(app);
}

/**
 * Every closed survey's results for each group it asked, stored with the current stamp (decision
 * 058): what is missing or stale is computed, one at a time, in the suppression's worker. Returns how
 * many were computed.
 */
export async function storeClosedResults(app: FastifyInstance): Promise<number> {
  const closed = await listClosedSurveys(app.db);
  const stored = await resultSnapshotStamps(app.db);
  let made = 0;
  for (const survey of closed)
    for (const group of groupsOf(survey.participants)) {
      const stamp = await stampOf(app, closed, survey.id, group);
      if (stored.get(`${survey.id}:${group}`) === stamp) continue;
      await computed(app, closed, survey.id, group, { stamp });
      made++;
    }
  return made;
}

/**
 * The background job of decision 058, on the root instance (the surveys' routes wake it): at start and
 * every `RESULTS_PRECOMPUTE_SECONDS` (neither in tests), and when a survey closes
 * (`app.resultSnapshots.refresh()`).
 */
export function decorateResultSnapshots(app: FastifyInstance): void {
  const job = new PeriodicJob<number>({
    intervalMs: app.env.NODE_ENV === 'test' ? 0 : app.env.RESULTS_PRECOMPUTE_SECONDS * 1000,
    runAtStart: true,
    log: app.log,
    run: () => storeClosedResults(app),
    report: (made, log) => {
      if (made > 0) log.info({ made }, 'closed surveys’ results computed and stored');
    },
    failure: 'closed surveys’ results not computed',
  });
  let closing = false;
  app.decorate('resultSnapshots', {
    // A run in progress may have listed the surveys before this one closed: one more run after it.
    refresh: () => job.runOnce().then(() => (closing ? undefined : job.runOnce())),
  });
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => {
    closing = true;
    await job.stop();
  });
}
