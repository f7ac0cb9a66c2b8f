import { NO_ANSWER_KEY, SCALE_MAX, SCALE_MIN, type SurveyQuestion } from '@portale/shared/surveys';
import {
  choiceCategory,
  combinationCategory,
  scaleCategory,
  type ItemInSql,
  type ResponseForResults,
} from './results.repository.ts';
import type { ItemDef, RespondentCategories } from './results-suppression.ts';

/** The items the results are computed on, from a survey's questions (decisions 018, 033, 035). */

export const SCALE_VALUES = Array.from({ length: SCALE_MAX - SCALE_MIN + 1 }, (_, i) =>
  String(SCALE_MIN + i),
);

export const isAggregable = (q: SurveyQuestion) =>
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
