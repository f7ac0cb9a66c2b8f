import { z } from 'zod';
import { ExportFormatSchema, optionalEnum } from '../lists/list-query.ts';
import { REGIONS, SCHOOL_LEVELS } from '../registry/registry.constants.ts';
import {
  QUESTION_TYPES,
  RESPONDENT_GROUPS,
  RESULTS_FLAG,
  RESULTS_METHODOLOGY_PATH,
  SURVEY_PARTICIPANTS,
} from './survey.constants.ts';

/** The Italian texts of the public results (API and web); `n` is the threshold in force (`minGroup`). */
export const RESULTS_MESSAGES = {
  notFound: 'Indagine non trovata tra quelle concluse.',
  survey: 'Indagine non valida.',
  groupTooSmall: 'Troppo poche risposte per mostrare questo gruppo',
  groupTooSmallDetail: (n: number) =>
    `Per proteggere l’anonimato non mostriamo i risultati di gruppi con meno di ${n} persone, né quelli da cui un gruppo così piccolo si potrebbe ricavare confrontandoli con altri risultati. Un gruppo in cui nessuno ha risposto si presenta allo stesso modo. Prova con un filtro più ampio.`,
  empty: 'Nessuna risposta a questa indagine.',
  /** Decision 046: `?participants=` names a group the survey did not ask. */
  groupNotAsked: (group: string) => `Questa indagine non era rivolta a ${group.toLowerCase()}.`,
  noClosedSurvey:
    'Non ci sono ancora indagini concluse: i risultati saranno pubblicati alla chiusura della prima indagine.',
  /** The flag of a withheld figure (Eurostat's "c", confidential). */
  protectedCell: RESULTS_FLAG,
  protectedCellLabel: 'dato protetto',
  protectedCellDetail: (n: number) =>
    `«${RESULTS_FLAG}» indica un dato protetto: il numero è minore di ${n}, oppure è nascosto perché, insieme agli altri numeri pubblicati (anche di altre edizioni dell’indagine), permetterebbe di ricavarne uno minore di ${n} o di sapere come ha risposto qualcuno (per esempio quando quasi tutto un gruppo ha dato la stessa risposta).`,
  methodologyLink: 'Come proteggiamo i risultati',
  /** The note of the exports: what the flag means and where the methodology is. */
  exportNote: (n: number, url: string) =>
    `${RESULTS_FLAG} = dato protetto (gruppi o numeri minori di ${n}, o da cui si ricaverebbero). Metodologia: ${url}`,
} as const;

/** The public methodology page (decision 035): the threshold in force, the legal floor and the flag. */
export const ResultsMethodologySchema = z.object({
  /** The threshold in force (RESULTS_MIN_CELL). */
  minGroup: z.number().int(),
  /** The lowest threshold the portal accepts. */
  legalFloor: z.number().int(),
  /** The flag of a withheld figure. */
  flag: z.literal(RESULTS_FLAG),
  /** Earlier closed surveys each survey's repeated questions are compared with. */
  earlierWaves: z.number().int(),
  path: z.literal(RESULTS_METHODOLOGY_PATH),
});
export type ResultsMethodology = z.infer<typeof ResultsMethodologySchema>;

/** The key of the "no answer" row (questions that are not required). */
export const NO_ANSWER_KEY = '__nessuna';
export const NO_ANSWER_LABEL = 'Nessuna risposta';

/** `?survey=` (default: the latest closed survey), `?region=`, `?schoolLevel=`: all optional. */
export const ResultsQuerySchema = z.object({
  survey: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string({ error: RESULTS_MESSAGES.survey })
      .regex(/^[1-9]\d{0,15}$/, RESULTS_MESSAGES.survey)
      .transform((v) => Number(v))
      .optional(),
  ),
  region: optionalEnum(REGIONS, 'Regione'),
  schoolLevel: optionalEnum(SCHOOL_LEVELS, 'Grado scolastico'),
  /** Whose answers (decision 046); default: the survey's first group (teachers when it has them). */
  participants: optionalEnum(RESPONDENT_GROUPS, 'Chi ha risposto'),
});
export type ResultsQuery = z.output<typeof ResultsQuerySchema>;
/** The export: the same filters, as CSV (default) or XLSX. */
export const ResultsExportQuerySchema = z.object({
  ...ResultsQuerySchema.shape,
  ...ExportFormatSchema.shape,
});
export const RESULTS_FILTER_KEYS = ['survey', 'region', 'schoolLevel', 'participants'] as const;

/** One row of a question's table: an option (or a scale value, or "no answer") and its count; `null` = protected. */
export const ResultRowSchema = z.object({
  key: z.string(),
  label: z.string(),
  count: z.number().int().nonnegative().nullable(),
  /** Share of the group's respondents, in percent (one decimal); null when the count is protected. */
  percent: z.number().nullable(),
});
export type ResultRow = z.infer<typeof ResultRowSchema>;

/** One aggregable question (single/multiple choice, scale) of the chosen group. */
export const QuestionResultSchema = z.object({
  id: z.number().int(),
  position: z.number().int(),
  type: z.enum(QUESTION_TYPES),
  label: z.string(),
  rows: z.array(ResultRowSchema),
  /** Respondents who answered: only when no row of the question is protected (else it would give one back). */
  answered: z.number().int().nullable(),
  /** Scale: the mean (two decimals) of the answers, only when no row is protected. */
  mean: z.number().nullable(),
  protectedRows: z.number().int(),
});
export type QuestionResult = z.infer<typeof QuestionResultSchema>;

export const ClosedSurveySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  purpose: z.string(),
  audience: z.string(),
  participants: z.enum(SURVEY_PARTICIPANTS),
  opensOn: z.string(),
  closesOn: z.string(),
});
export type ClosedSurvey = z.infer<typeof ClosedSurveySchema>;

/** `shown`: the figures; `suppressed`: the group is too small (or would make another derivable); `empty`: nobody in the group answered. */
export const RESULT_STATUSES = ['shown', 'suppressed', 'empty'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

export const ResultsResponseSchema = z.object({
  /** The closed surveys, latest first. */
  surveys: z.array(z.object({ id: z.number().int(), title: z.string(), closesOn: z.string() })),
  /** The chosen survey (null when no survey is closed yet). */
  survey: ClosedSurveySchema.nullable(),
  region: z.enum(REGIONS).nullable(),
  schoolLevel: z.enum(SCHOOL_LEVELS).nullable(),
  /**
   * Whose answers these are (decision 046): each group is published on its own, with its own
   * protections, and the two together never (null only when no survey is closed).
   */
  participants: z.enum(RESPONDENT_GROUPS).nullable(),
  /** The groups the chosen survey asked, teachers first. */
  participantGroups: z.array(z.enum(RESPONDENT_GROUPS)),
  minGroup: z.number().int(),
  status: z.enum(RESULT_STATUSES),
  /** Respondents of the group; null unless `shown` (0 when `empty`). */
  respondents: z.number().int().nullable(),
  questions: z.array(QuestionResultSchema),
  /** Open-text questions are never published: how many the survey has. */
  textQuestions: z.number().int(),
});
export type ResultsResponse = z.infer<typeof ResultsResponseSchema>;
