import type { SchoolLevel } from '@portale/shared/registry';
import {
  DEMO_SURVEY_SLUGS,
  SCALE_MAX,
  SCALE_MIN,
  type Answers,
  type SurveyQuestion,
} from '@portale/shared/surveys';
import type { DbOrTx } from '../db/transaction.ts';
import {
  findDemoSchoolSite,
  hasResponses,
  insertDemoResponses,
} from '../modules/results/results.repository.ts';
import { findSurveyBySlug } from '../modules/surveys/surveys.repository.ts';
import { seededSequence } from '../lib/seeded-sequence.ts';

/**
 * Who answered the closed demo survey: enough for charts in several regions and levels, and small
 * groups to show the suppression (decision 018). With the sample registry (Rome and Pavia only):
 * Lazio and Lombardia are shown, Lazio × infanzia (3) is refused, and so is what would give it away.
 * With the full registry, Toscana has fewer than 5 respondents. Groups without a plesso are skipped.
 */
export const DEMO_CLOSED_GROUPS: { region: string; level: SchoolLevel; n: number }[] = [
  { region: 'Lazio', level: 'primaria', n: 18 },
  { region: 'Lazio', level: 'secondaria_primo_grado', n: 12 },
  { region: 'Lazio', level: 'infanzia', n: 3 },
  { region: 'Lombardia', level: 'primaria', n: 11 },
  { region: 'Lombardia', level: 'secondaria_secondo_grado', n: 9 },
  { region: 'Campania', level: 'primaria', n: 10 },
  { region: 'Toscana', level: 'secondaria_primo_grado', n: 3 },
];

/** A few answers to the open survey (it stays open: they are never published). */
const DEMO_OPEN_GROUPS: { region: string; level: SchoolLevel; n: number }[] = [
  { region: 'Lazio', level: 'primaria', n: 4 },
  { region: 'Lombardia', level: 'primaria', n: 2 },
];

const LEVEL_OPTION: Record<SchoolLevel, number> = {
  infanzia: 0,
  primaria: 1,
  secondaria_primo_grado: 2,
  secondaria_secondo_grado: 3,
  altro: 1,
};
const SCALE_WEIGHTS = [3, 4, 6, 7, 5];
const WORDS = ['Cortile', 'Palestra', 'Laboratori', 'Biblioteca', 'Connessione', 'Arredi'];

function weighted(random: () => number, weights: number[]): number {
  const total = weights.reduce((a, b) => a + b, 0);
  let x = random() * total;
  for (let i = 0; i < weights.length; i++) if ((x -= weights[i]!) < 0) return i;
  return weights.length - 1;
}

/**
 * The answers of one demo respondent, valid for the questions: a single choice about the school
 * level follows the plesso, the others are drawn (deterministically); not required ones are sometimes
 * skipped; texts are short and never published.
 */
export function demoAnswers(questions: SurveyQuestion[], level: SchoolLevel, index: number): Answers {
  const random = seededSequence(index * 7919 + 17);
  const answers: Answers = {};
  for (const q of questions) {
    if (!q.required && random() < 0.12) continue;
    const key = String(q.id);
    if (q.type === 'scelta_singola') {
      answers[key] =
        q.options.length === 4 && /ordine di scuola/i.test(q.label)
          ? q.options[LEVEL_OPTION[level]]!
          : q.options[
              weighted(
                random,
                q.options.map((_, i) => q.options.length - i + 1),
              )
            ]!;
    } else if (q.type === 'scelta_multipla') {
      const chosen = q.options.filter((_, i) => random() < [0.75, 0.6, 0.45, 0.65, 0.35][i % 5]!);
      answers[key] = chosen.length > 0 ? chosen : [q.options[0]!];
    } else if (q.type === 'scala') {
      answers[key] = Math.min(SCALE_MAX, SCALE_MIN + weighted(random, SCALE_WEIGHTS));
    } else if (random() < 0.5) {
      answers[key] =
        q.type === 'testo_breve'
          ? WORDS[Math.floor(random() * WORDS.length)]!
          : 'Più tempo per progettare insieme ai colleghi.';
    }
  }
  return answers;
}

async function seedResponses(
  db: DbOrTx,
  slug: string,
  groups: typeof DEMO_CLOSED_GROUPS,
  firstDay: Date,
  days: number,
  seed: number,
): Promise<number> {
  const survey = await findSurveyBySlug(db, slug);
  if (!survey || (await hasResponses(db, survey.id))) return 0;
  const rows: Parameters<typeof insertDemoResponses>[1] = [];
  let index = seed;
  for (const group of groups) {
    const site = await findDemoSchoolSite(db, group.region, group.level);
    if (site === undefined) continue;
    for (let i = 0; i < group.n; i++, index++) {
      rows.push({
        surveyId: survey.id,
        schoolSiteId: site,
        answers: demoAnswers(survey.questions, group.level, index),
        submittedAt: new Date(firstDay.getTime() + (index % days) * 86_400_000 + (index % 9) * 3_600_000),
      });
    }
  }
  await insertDemoResponses(db, rows);
  return rows.length;
}

/**
 * Demo responses (issue 12) to the closed pilot survey (its public results) and a few to the open
 * one. Idempotent: a survey that has any response is left alone.
 */
export async function seedDemoResponses(db: DbOrTx, now: Date): Promise<void> {
  await seedResponses(
    db,
    DEMO_SURVEY_SLUGS.closed,
    DEMO_CLOSED_GROUPS,
    new Date(now.getTime() - 115 * 86_400_000),
    80,
    0,
  );
  await seedResponses(
    db,
    DEMO_SURVEY_SLUGS.open,
    DEMO_OPEN_GROUPS,
    new Date(now.getTime() - 6 * 86_400_000),
    5,
    1000,
  );
}
