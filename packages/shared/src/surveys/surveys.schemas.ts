import { z } from 'zod';
import {
  listResponseSchema,
  PaginationSchema,
  optionalEnum,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import {
  CHOICE_QUESTION_TYPES,
  LONG_TEXT_MAX,
  QUESTION_OPTIONS_MAX,
  QUESTION_TYPES,
  SCALE_MAX,
  SCALE_MIN,
  SHORT_TEXT_MAX,
  RESPONDENT_GROUP_LABELS,
  SURVEY_PARTICIPANTS,
  SURVEY_QUESTIONS_MAX,
  SURVEY_STATES,
  type QuestionType,
  type RespondentGroup,
} from './survey.constants.ts';

/** The Italian texts of surveys (API messages and the web's). */
export const SURVEY_MESSAGES = {
  title: 'Inserisci un titolo da 3 a 200 caratteri.',
  purpose: 'Descrivi lo scopo dell’indagine (da 10 a 4000 caratteri).',
  audience: 'Indica chi partecipa (da 3 a 500 caratteri).',
  opensOn: 'Inserisci la data di apertura (gg/mm/aaaa).',
  closesOn: 'Inserisci la data di chiusura (gg/mm/aaaa).',
  closesBeforeOpens: 'La data di chiusura non può essere precedente alla data di apertura.',
  notFound: 'Indagine non trovata.',
  questionType: 'Scegli il tipo della domanda.',
  questionLabel: 'Scrivi il testo della domanda (da 3 a 500 caratteri).',
  questionHelp: 'Il testo di aiuto può contenere al massimo 1000 caratteri.',
  questionRequired: 'Indica se la risposta è obbligatoria.',
  optionsCount: `Una domanda a scelta ha da 2 a ${QUESTION_OPTIONS_MAX} opzioni.`,
  optionEmpty: 'Ogni opzione deve avere un testo (al massimo 200 caratteri).',
  optionDuplicate: 'Le opzioni devono essere tutte diverse.',
  questionsMax: `Un’indagine può avere al massimo ${SURVEY_QUESTIONS_MAX} domande.`,
  questionsLocked: 'L’indagine ha già ricevuto risposte: le domande non possono più essere modificate.',
  questionsNotDraft: 'Le domande si possono modificare solo finché l’indagine non ha risposte.',
  openNeedsQuestions: 'Per aprire l’indagine serve almeno una domanda.',
  anotherOpen: (title: string, group: RespondentGroup) =>
    `C’è già un’indagine aperta per ${RESPONDENT_GROUP_LABELS[group].toLowerCase()} («${title}»): chiudila prima di aprirne un’altra per le stesse persone, oppure scegli chi risponde in modo che le due indagini non si sovrappongano.`,
  participants: 'Scegli chi risponde all’indagine.',
  questionParticipants: 'Scegli a chi è rivolta la domanda.',
  /** A question for a group the survey does not ask. */
  questionOutsideSurvey: (group: RespondentGroup) =>
    `L’indagine non è rivolta a ${RESPONDENT_GROUP_LABELS[group].toLowerCase()}: scegli «Tutti i partecipanti» oppure cambia chi risponde all’indagine.`,
  participantsLocked: 'Chi risponde si può cambiare solo finché l’indagine è in bozza.',
  participantsQuestionsOutside: (group: RespondentGroup) =>
    `Alcune domande sono rivolte solo a ${RESPONDENT_GROUP_LABELS[group].toLowerCase()}: rivolgile a tutti i partecipanti prima di cambiare chi risponde.`,
  openNeedsGroupQuestions: (group: RespondentGroup) =>
    `Per aprire l’indagine serve almeno una domanda per ${RESPONDENT_GROUP_LABELS[group].toLowerCase()}.`,
  /** A teacher or educator when the open surveys are for code holders only. */
  noOpenSurveyForTeachers:
    'In questo momento non c’è un’indagine aperta per insegnanti ed educatori: l’indagine in corso è rivolta a studenti e famiglie, che rispondono con un codice di accesso.',
  /** An answer to a question of the survey that is not for the respondent's group. */
  answerNotForYou: 'Questa domanda non è rivolta a te: rispondi solo alle domande mostrate.',
  badTransition: (from: string, to: string) => `Un’indagine «${from}» non può passare allo stato «${to}».`,
  stateChanged: 'Lo stato dell’indagine è cambiato nel frattempo: ricarica la pagina.',
  noOpenSurvey: 'In questo momento non c’è un’indagine aperta.',
  alreadyAnswered:
    'Hai già risposto a questa indagine: si può rispondere una sola volta. Puoi rivedere le risposte che hai inviato.',
  noPlesso: 'Per rispondere serve un profilo di docente associato a un plesso.',
  responded: 'Grazie! Le tue risposte sono state registrate.',
  /** A teacher not approved (yet): the answer is kept and counts in the results once staff approve them (decision 029). */
  respondedPendingApproval:
    'Grazie! Le tue risposte sono state registrate: saranno conteggiate nei risultati quando lo staff avrà approvato la tua registrazione.',
  // Answers (validateAnswers)
  answerRequired: 'Questa domanda è obbligatoria: rispondi prima di inviare.',
  answerChoice: 'Scegli una delle opzioni proposte.',
  answerChoices: 'Scegli solo tra le opzioni proposte.',
  answerScale: `Scegli un valore intero da ${SCALE_MIN} a ${SCALE_MAX}.`,
  answerText: 'La risposta deve essere un testo.',
  answerTooLong: (max: number) => `La risposta può contenere al massimo ${max} caratteri.`,
  answerUnknown: 'Questa domanda non fa parte dell’indagine.',
} as const;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar date `YYYY-MM-DD` that exists. */
export function isIsoDate(value: string): boolean {
  if (!DATE_RE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}
const isoDate = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .refine((v) => isIsoDate(v), message);

// ---- Questions ----

const OPTION_MAX = 200;

export const QuestionInputSchema = z
  .object({
    /** Ignored on write (the list is replaced); accepted so the editor can send back what it read. */
    id: z.number().int().positive().optional(),
    type: z.enum(QUESTION_TYPES, { error: SURVEY_MESSAGES.questionType }),
    label: z
      .string({ error: SURVEY_MESSAGES.questionLabel })
      .trim()
      .min(3, SURVEY_MESSAGES.questionLabel)
      .max(500, SURVEY_MESSAGES.questionLabel),
    help: z
      .string({ error: SURVEY_MESSAGES.questionHelp })
      .trim()
      .max(1000, SURVEY_MESSAGES.questionHelp)
      .default(''),
    required: z.boolean({ error: SURVEY_MESSAGES.questionRequired }).default(false),
    options: z
      .array(z.string({ error: SURVEY_MESSAGES.optionEmpty }).trim(), { error: SURVEY_MESSAGES.optionsCount })
      .max(QUESTION_OPTIONS_MAX, SURVEY_MESSAGES.optionsCount)
      .default([]),
    /** Who sees the question (decision 046); within the survey's participants. */
    participants: z
      .enum(SURVEY_PARTICIPANTS, { error: SURVEY_MESSAGES.questionParticipants })
      .default('entrambi'),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (!CHOICE_QUESTION_TYPES.includes(q.type)) return;
    if (q.options.length < 2)
      ctx.addIssue({ code: 'custom', path: ['options'], message: SURVEY_MESSAGES.optionsCount });
    if (q.options.some((o) => o.length === 0 || o.length > OPTION_MAX))
      ctx.addIssue({ code: 'custom', path: ['options'], message: SURVEY_MESSAGES.optionEmpty });
    const seen = new Set(q.options.map((o) => o.toLocaleLowerCase('it')));
    if (seen.size !== q.options.length)
      ctx.addIssue({ code: 'custom', path: ['options'], message: SURVEY_MESSAGES.optionDuplicate });
  })
  // Options belong to the choice types only.
  .transform((q) => ({ ...q, options: CHOICE_QUESTION_TYPES.includes(q.type) ? q.options : [] }));
export type QuestionInput = z.input<typeof QuestionInputSchema>;

export const QuestionListInputSchema = z
  .object({
    questions: z
      .array(QuestionInputSchema, { error: SURVEY_MESSAGES.questionsMax })
      .max(SURVEY_QUESTIONS_MAX, SURVEY_MESSAGES.questionsMax),
  })
  .strict();
export type QuestionListInput = z.input<typeof QuestionListInputSchema>;

/** A stored question, in `position` order (1-based). */
export const SurveyQuestionSchema = z.object({
  id: z.number().int(),
  position: z.number().int(),
  type: z.enum(QUESTION_TYPES),
  label: z.string(),
  help: z.string(),
  required: z.boolean(),
  options: z.array(z.string()),
  /** Who sees the question (decision 046). */
  participants: z.enum(SURVEY_PARTICIPANTS),
});
export type SurveyQuestion = z.infer<typeof SurveyQuestionSchema>;

// ---- Answers ----

export type AnswerValue = string | string[] | number;
/** question id (as a string) → value: a string (single choice, texts), a string[] (multiple choice) or a number (scale). */
export type Answers = Record<string, AnswerValue>;

/** The shape of the answers a client sends; `validateAnswers` checks them against the questions. */
export const AnswersSchema = z
  .record(
    z.string().regex(/^\d{1,15}$/, SURVEY_MESSAGES.answerUnknown),
    z.union(
      [
        z.string().max(LONG_TEXT_MAX * 2),
        z.array(z.string().max(OPTION_MAX * 2)).max(QUESTION_OPTIONS_MAX * 2),
        z.number(),
      ],
      { error: SURVEY_MESSAGES.answerText },
    ),
    { error: 'Invia le risposte come elenco domanda → risposta.' },
  )
  .refine((a) => Object.keys(a).length <= SURVEY_QUESTIONS_MAX * 2, {
    message: SURVEY_MESSAGES.questionsMax,
  });

/** The body of a submission (logged-in participant, or through an access code). */
export const ResponseInputSchema = z.object({ answers: AnswersSchema }).strict();
export type ResponseInput = z.input<typeof ResponseInputSchema>;

/** The 422 field key of a question's answer (`answers.<id>`), as the API returns it. */
export const answerFieldKey = (questionId: number | string) => `answers.${questionId}`;

type QuestionForAnswers = Pick<SurveyQuestion, 'id' | 'type' | 'required' | 'options'>;

/**
 * The keys of `answers` that are questions of the survey but not for the respondent's group
 * (decision 046): the API refuses them with `answerNotForYou`.
 */
export function answersNotForGroup(
  allQuestions: readonly Pick<SurveyQuestion, 'id'>[],
  groupQuestions: readonly Pick<SurveyQuestion, 'id'>[],
  answers: Readonly<Record<string, unknown>>,
): string[] {
  const ours = new Set(groupQuestions.map((q) => String(q.id)));
  const all = new Set(allQuestions.map((q) => String(q.id)));
  return Object.keys(answers).filter((k) => all.has(k) && !ours.has(k));
}

const isBlank = (v: unknown) =>
  v === undefined ||
  v === null ||
  (typeof v === 'string' && v.trim() === '') ||
  (Array.isArray(v) && v.length === 0);

/**
 * Checks answers against the survey's questions and normalises them: texts trimmed, a scale as an
 * integer (a numeric string is accepted), a multiple choice as a de-duplicated list in the options'
 * order (a single string is accepted as a list of one), blank optional answers dropped.
 * `errors` are keyed by question id (see `answerFieldKey` for the API's key); empty when valid.
 */
export function validateAnswers(
  questions: readonly QuestionForAnswers[],
  answers: Readonly<Record<string, unknown>>,
): { answers: Answers; errors: Record<string, string[]>; valid: boolean } {
  const errors: Record<string, string[]> = {};
  const out: Answers = {};
  const byId = new Map(questions.map((q) => [String(q.id), q]));
  for (const key of Object.keys(answers)) {
    if (!byId.has(key)) errors[key] = [SURVEY_MESSAGES.answerUnknown];
  }
  for (const q of questions) {
    const key = String(q.id);
    const raw = Object.hasOwn(answers, key) ? answers[key] : undefined;
    if (isBlank(raw)) {
      if (q.required) errors[key] = [SURVEY_MESSAGES.answerRequired];
      continue;
    }
    const result = normaliseAnswer(q, raw);
    if ('error' in result) errors[key] = [result.error];
    else out[key] = result.value;
  }
  return { answers: out, errors, valid: Object.keys(errors).length === 0 };
}

function normaliseAnswer(q: QuestionForAnswers, raw: unknown): { value: AnswerValue } | { error: string } {
  switch (q.type as QuestionType) {
    case 'scelta_singola': {
      if (typeof raw !== 'string' || !q.options.includes(raw)) return { error: SURVEY_MESSAGES.answerChoice };
      return { value: raw };
    }
    case 'scelta_multipla': {
      const list = typeof raw === 'string' ? [raw] : raw;
      if (!Array.isArray(list) || list.some((v) => typeof v !== 'string' || !q.options.includes(v)))
        return { error: SURVEY_MESSAGES.answerChoices };
      const chosen = new Set(list as string[]);
      return { value: q.options.filter((o) => chosen.has(o)) };
    }
    case 'scala': {
      const n =
        typeof raw === 'number'
          ? raw
          : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw)
            ? Number(raw)
            : Number.NaN;
      if (!Number.isInteger(n) || n < SCALE_MIN || n > SCALE_MAX)
        return { error: SURVEY_MESSAGES.answerScale };
      return { value: n };
    }
    case 'testo_breve':
    case 'testo_lungo': {
      if (typeof raw !== 'string') return { error: SURVEY_MESSAGES.answerText };
      const max = q.type === 'testo_breve' ? SHORT_TEXT_MAX : LONG_TEXT_MAX;
      const text = raw.trim();
      if (text.length > max) return { error: SURVEY_MESSAGES.answerTooLong(max) };
      return { value: text };
    }
    default:
      return { error: SURVEY_MESSAGES.answerUnknown };
  }
}

// ---- Surveys ----

const surveyFields = {
  title: z
    .string({ error: SURVEY_MESSAGES.title })
    .trim()
    .min(3, SURVEY_MESSAGES.title)
    .max(200, SURVEY_MESSAGES.title),
  purpose: z
    .string({ error: SURVEY_MESSAGES.purpose })
    .trim()
    .min(10, SURVEY_MESSAGES.purpose)
    .max(4000, SURVEY_MESSAGES.purpose),
  audience: z
    .string({ error: SURVEY_MESSAGES.audience })
    .trim()
    .min(3, SURVEY_MESSAGES.audience)
    .max(500, SURVEY_MESSAGES.audience),
  opensOn: isoDate(SURVEY_MESSAGES.opensOn),
  closesOn: isoDate(SURVEY_MESSAGES.closesOn),
  /** Who answers (decision 046): teachers, code holders or both. */
  participants: z.enum(SURVEY_PARTICIPANTS, { error: SURVEY_MESSAGES.participants }),
};

/** The cross-field rule (also checked by the API on a partial update, against the stored values). */
export function surveyDateErrors(s: { opensOn: string; closesOn: string }): Record<string, string[]> {
  return isIsoDate(s.opensOn) && isIsoDate(s.closesOn) && s.closesOn < s.opensOn
    ? { closesOn: [SURVEY_MESSAGES.closesBeforeOpens] }
    : {};
}

export const SurveyInputSchema = z
  .object({ ...surveyFields, participants: surveyFields.participants.default('entrambi') })
  .strict()
  .superRefine((s, ctx) => {
    for (const [path, messages] of Object.entries(surveyDateErrors(s)))
      for (const message of messages) ctx.addIssue({ code: 'custom', path: [path], message });
  });
export type SurveyInput = z.input<typeof SurveyInputSchema>;

export const SurveyUpdateSchema = z
  .object({
    title: surveyFields.title.optional(),
    purpose: surveyFields.purpose.optional(),
    audience: surveyFields.audience.optional(),
    opensOn: surveyFields.opensOn.optional(),
    closesOn: surveyFields.closesOn.optional(),
    participants: surveyFields.participants.optional(),
  })
  .strict();
export type SurveyUpdate = z.output<typeof SurveyUpdateSchema>;

export const SurveyTransitionSchema = z
  .object({ to: z.enum(SURVEY_STATES, { error: 'Stato non valido.' }) })
  .strict();

export const SurveySummarySchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  audience: z.string(),
  participants: z.enum(SURVEY_PARTICIPANTS),
  state: z.enum(SURVEY_STATES),
  opensOn: z.string(),
  closesOn: z.string(),
  questionCount: z.number().int(),
  responseCount: z.number().int(),
  updatedAt: z.string(),
});
export type SurveySummary = z.infer<typeof SurveySummarySchema>;

export const SurveyDetailSchema = SurveySummarySchema.extend({
  purpose: z.string(),
  openedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  createdAt: z.string(),
  /** False once the survey has responses (or is closed): the question list is read-only. */
  questionsEditable: z.boolean(),
  questions: z.array(SurveyQuestionSchema),
});
export type SurveyDetail = z.infer<typeof SurveyDetailSchema>;

export const SURVEY_SORTS = ['title', 'state', 'opensOn', 'closesOn', 'responseCount', 'updatedAt'] as const;
export const SurveyFiltersSchema = z.object({
  q: SearchTextSchema,
  state: optionalEnum(SURVEY_STATES, 'Stato'),
  /** Who answers (decision 046): teachers and educators, code holders, or both. */
  participants: optionalEnum(SURVEY_PARTICIPANTS, 'Chi risponde'),
  sort: sortSchema(SURVEY_SORTS),
});
export const SurveyListQuerySchema = SurveyFiltersSchema.extend(PaginationSchema.shape);
export type SurveyListQuery = z.output<typeof SurveyListQuerySchema>;
export const SurveyListResponseSchema = listResponseSchema(SurveySummarySchema);

// ---- Public / participants ----

/** An open survey as participants see it (no counts): only the questions for their group (decision 046). */
export const OpenSurveySchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  purpose: z.string(),
  audience: z.string(),
  participants: z.enum(SURVEY_PARTICIPANTS),
  opensOn: z.string(),
  closesOn: z.string(),
  questions: z.array(SurveyQuestionSchema),
});
export type OpenSurvey = z.infer<typeof OpenSurveySchema>;
/**
 * `survey`: the survey open for teachers and educators, with their questions (null when none).
 * `codeSurvey`: the survey open for code holders when it is another one (they answer it through
 * `/{code}`), without questions, so that `/indagine` can say who it is for.
 */
export const CurrentSurveySchema = z.object({
  survey: OpenSurveySchema.nullable(),
  codeSurvey: OpenSurveySchema.omit({ questions: true }).nullable(),
});
export type CurrentSurvey = z.infer<typeof CurrentSurveySchema>;

export const AnswersOutputSchema = z.record(
  z.string(),
  z.union([z.string(), z.array(z.string()), z.number()]),
);
export const MyResponseSchema = z.object({
  response: z
    .object({ surveyId: z.number().int(), submittedAt: z.string(), answers: AnswersOutputSchema })
    .nullable(),
});
export type MyResponse = z.infer<typeof MyResponseSchema>;
export const ResponseCreatedSchema = z.object({
  message: z.string(),
  submittedAt: z.string(),
  answers: AnswersOutputSchema,
});
