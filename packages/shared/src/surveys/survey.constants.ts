/** Survey states (product §5): `bozza` → `aperta` → `chiusa`; results are public only when `chiusa`. */
export const SURVEY_STATES = ['bozza', 'aperta', 'chiusa'] as const;
export type SurveyState = (typeof SURVEY_STATES)[number];
export const SURVEY_STATE_LABELS: Record<SurveyState, string> = {
  bozza: 'Bozza',
  aperta: 'Aperta',
  chiusa: 'Chiusa',
};
export const SURVEY_TRANSITIONS: Record<SurveyState, readonly SurveyState[]> = {
  bozza: ['aperta'],
  aperta: ['chiusa'],
  chiusa: [],
};
export function canTransitionSurvey(from: SurveyState, to: SurveyState): boolean {
  return SURVEY_TRANSITIONS[from].includes(to);
}

/** Question types (product §3). `scala`: an integer 1–5. */
export const QUESTION_TYPES = [
  'scelta_singola',
  'scelta_multipla',
  'scala',
  'testo_breve',
  'testo_lungo',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  scelta_singola: 'Scelta singola',
  scelta_multipla: 'Scelta multipla',
  scala: 'Scala da 1 a 5',
  testo_breve: 'Testo breve',
  testo_lungo: 'Testo lungo',
};
/** Types whose answers are options of the question (aggregated in the results). */
export const CHOICE_QUESTION_TYPES: readonly QuestionType[] = ['scelta_singola', 'scelta_multipla'];
export const SCALE_MIN = 1;
export const SCALE_MAX = 5;
export const SHORT_TEXT_MAX = 200;
export const LONG_TEXT_MAX = 4000;
export const QUESTION_OPTIONS_MAX = 20;
export const SURVEY_QUESTIONS_MAX = 60;

/**
 * Access codes (seed-spec §5): exactly 7 letters or digits. Typed in any case (decision 037): new codes
 * are drawn from capitals and digits without the look-alikes I, L, O, 0 and 1 (31^7 ≈ 2.75·10^10
 * codes); codes made before keep working, matched without regard to case.
 */
export const ACCESS_CODE_LENGTH = 7;
export const ACCESS_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** The most uses of one code: a staff code (the demo code has 500); a teacher's code is capped lower (decision 029). */
export const ACCESS_CODE_MAX_USES = 500;
/** The default cap of a teacher's code: a class (the API reads ACCESS_CODE_TEACHER_MAX_USES). */
export const ACCESS_CODE_TEACHER_MAX_USES = 40;
/** How many codes a teacher may create in one request (one per class or per pupil). */
export const ACCESS_CODES_PER_REQUEST_MAX = 60;
/** The demo code always seeded for the open survey (issue 12). */
export const DEMO_ACCESS_CODE = 'PROVA01';

/**
 * The default of the public results' threshold (issue 12): no group or count smaller is shown or
 * derivable. The API reads the value in force from RESULTS_MIN_CELL (decision 035) and sends it.
 */
export const RESULTS_MIN_GROUP = 5;
/** The lowest threshold the API accepts (statistical releases). */
export const RESULTS_LEGAL_FLOOR = 3;
/** The flag of a withheld figure in the page and the exports (Eurostat's "c", confidential). */
export const RESULTS_FLAG = 'c';
/** The public page that explains the protections (decision 035). */
export const RESULTS_METHODOLOGY_PATH = '/risultati/metodologia';

/** Slugs of the demo surveys every fresh start seeds (closed with results, open to answer). */
export const DEMO_SURVEY_SLUGS = { closed: 'indagine-pilota-2025', open: 'indagine-nazionale-2026' } as const;

/**
 * Who answers a survey or sees a question (issue 35, decision 046): teachers and educators who sign in
 * (`insegnanti`), students and families with an access code (`codici`), or both (`entrambi`).
 */
export const SURVEY_PARTICIPANTS = ['insegnanti', 'codici', 'entrambi'] as const;
export type SurveyParticipants = (typeof SURVEY_PARTICIPANTS)[number];
/** The two groups of respondents: a response belongs to exactly one. */
export const RESPONDENT_GROUPS = ['insegnanti', 'codici'] as const;
export type RespondentGroup = (typeof RESPONDENT_GROUPS)[number];
export const SURVEY_PARTICIPANTS_LABELS: Record<SurveyParticipants, string> = {
  insegnanti: 'Insegnanti ed educatori (con accesso al portale)',
  codici: 'Studenti e famiglie (con codice di accesso)',
  entrambi: 'Insegnanti ed educatori, studenti e famiglie',
};
/** A question's participants, as the editor says them. */
export const QUESTION_PARTICIPANTS_LABELS: Record<SurveyParticipants, string> = {
  entrambi: 'Tutti i partecipanti',
  insegnanti: 'Solo insegnanti ed educatori',
  codici: 'Solo studenti e famiglie',
};
export const RESPONDENT_GROUP_LABELS: Record<RespondentGroup, string> = {
  insegnanti: 'Insegnanti ed educatori',
  codici: 'Studenti e famiglie',
};
/** Whether `participants` includes the group. */
export const includesGroup = (participants: SurveyParticipants, group: RespondentGroup): boolean =>
  participants === 'entrambi' || participants === group;
/** The groups of `participants`, teachers first. */
export const groupsOf = (participants: SurveyParticipants): RespondentGroup[] =>
  RESPONDENT_GROUPS.filter((g) => includesGroup(participants, g));
/** Two surveys for a common group cannot both be open (decision 046, amending 016). */
export const participantsOverlap = (a: SurveyParticipants, b: SurveyParticipants): boolean =>
  groupsOf(a).some((g) => includesGroup(b, g));
/** The questions a group sees: none when the survey is not for it, else those for it or for everyone. */
export function questionsForGroup<Q extends { participants: SurveyParticipants }>(
  surveyParticipants: SurveyParticipants,
  questions: readonly Q[],
  group: RespondentGroup,
): Q[] {
  if (!includesGroup(surveyParticipants, group)) return [];
  return questions.filter((q) => includesGroup(q.participants, group));
}
