import {
  answerFieldKey,
  CHOICE_QUESTION_TYPES,
  LONG_TEXT_MAX,
  SCALE_MAX,
  SCALE_MIN,
  SHORT_TEXT_MAX,
  type AnswerValue,
  type Answers,
  type SurveyQuestion,
} from '@portale/shared/surveys';

/**
 * The questionnaire of a survey, shared by `/indagine` (a logged-in teacher) and `/{code}` (a student or
 * parent with an access code). Render `QuestionnaireFields` inside your own `<Form noValidate>`; read the
 * answers back with `answersFromForm` (field names `q-<questionId>`); the API's 422 keys
 * (`answers.<id>`) are the `errors` keys. `QuestionnaireAnswers` shows what was sent.
 */

export const questionFieldName = (questionId: number) => `q-${questionId}`;
const SCALE_VALUES = Array.from({ length: SCALE_MAX - SCALE_MIN + 1 }, (_, i) => SCALE_MIN + i);

/** The answers of the form, shaped as the API reads them (blank answers left out). */
export function answersFromForm(questions: readonly SurveyQuestion[], form: FormData): Answers {
  const answers: Answers = {};
  for (const q of questions) {
    const name = questionFieldName(q.id);
    if (q.type === 'scelta_multipla') {
      const chosen = form.getAll(name).filter((v): v is string => typeof v === 'string');
      if (chosen.length > 0) answers[String(q.id)] = chosen;
      continue;
    }
    const value = form.get(name);
    if (typeof value !== 'string' || value.trim() === '') continue;
    answers[String(q.id)] = q.type === 'scala' && /^\d+$/.test(value) ? Number(value) : value;
  }
  return answers;
}

/** An answer as text, for the review of what was sent. */
export function answerText(question: Pick<SurveyQuestion, 'type'>, value: AnswerValue | undefined): string {
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0))
    return 'Nessuna risposta';
  if (Array.isArray(value)) return value.join('; ');
  if (question.type === 'scala') return `${value} su ${SCALE_MAX}`;
  return String(value);
}

interface FieldsProps {
  questions: readonly SurveyQuestion[];
  /** Values to start from (a saved draft, or the answers sent back after a refusal). */
  defaultValues?: Answers | undefined;
  /** Per-question messages, keyed `answers.<questionId>` as the API answers a 422. */
  errors?: Record<string, string> | undefined;
  /** Prefix of the element ids (two questionnaires on one page). */
  idPrefix?: string;
  disabled?: boolean;
}

function Legend({ q, index, id }: { q: SurveyQuestion; index: number; id?: string }) {
  return (
    <>
      <span className="me-1">{index + 1}.</span>
      <span id={id}>{q.label}</span>
      {q.required ? (
        <span className="ms-1 fw-normal">(obbligatoria)</span>
      ) : (
        <span className="ms-1 fw-normal text-muted">(facoltativa)</span>
      )}
    </>
  );
}

/** One question's inputs, labelled, with its help and its error tied to them. */
function QuestionField({
  q,
  index,
  value,
  error,
  idPrefix,
  disabled,
}: {
  q: SurveyQuestion;
  index: number;
  value: AnswerValue | undefined;
  error: string | undefined;
  idPrefix: string;
  disabled: boolean;
}) {
  const base = `${idPrefix}-${q.id}`;
  const name = questionFieldName(q.id);
  const helpId = q.help ? `${base}-help` : undefined;
  const errorId = error ? `${base}-error` : undefined;
  const describedBy = [helpId, errorId].filter(Boolean).join(' ') || undefined;
  const invalid = error ? { 'aria-invalid': true as const } : {};
  const help = q.help ? (
    <p id={helpId} className="small text-muted mb-2">
      {q.help}
    </p>
  ) : null;
  const errorLine = error ? (
    <p id={errorId} className="text-danger small mt-1 mb-0">
      {error}
    </p>
  ) : null;

  if ((CHOICE_QUESTION_TYPES as readonly string[]).includes(q.type) || q.type === 'scala') {
    const multiple = q.type === 'scelta_multipla';
    const options = q.type === 'scala' ? SCALE_VALUES.map(String) : q.options;
    const checked = (option: string) =>
      Array.isArray(value) ? value.includes(option) : value !== undefined && String(value) === option;
    return (
      <fieldset className="mb-4" data-testid={`question-${q.id}`} aria-describedby={describedBy}>
        <legend className="form-label fw-semibold fs-6 mb-2">
          <Legend q={q} index={index} />
        </legend>
        {help}
        <div className={q.type === 'scala' ? 'd-flex flex-wrap gap-3' : undefined}>
          {options.map((option, i) => {
            const id = `${base}-${i}`;
            return (
              <div key={option} className="form-check">
                <input
                  id={id}
                  name={name}
                  value={option}
                  type={multiple ? 'checkbox' : 'radio'}
                  className="form-check-input"
                  defaultChecked={checked(option)}
                  disabled={disabled}
                  {...invalid}
                  {...(errorId ? { 'aria-describedby': errorId } : {})}
                />
                <label htmlFor={id} className="form-check-label">
                  {option}
                </label>
              </div>
            );
          })}
        </div>
        {q.type === 'scala' && (
          <p className="small text-muted mb-0">
            {SCALE_MIN} è il valore più basso, {SCALE_MAX} il più alto.
          </p>
        )}
        {errorLine}
      </fieldset>
    );
  }

  const id = `${base}-text`;
  const long = q.type === 'testo_lungo';
  const max = long ? LONG_TEXT_MAX : SHORT_TEXT_MAX;
  const common = {
    id,
    name,
    className: 'form-control',
    defaultValue: typeof value === 'string' ? value : '',
    maxLength: max,
    disabled,
    'aria-describedby': describedBy,
    ...(q.required ? { 'aria-required': true as const } : {}),
    ...invalid,
  };
  return (
    <div className="mb-4" data-testid={`question-${q.id}`}>
      <label htmlFor={id} className="form-label fw-semibold d-block">
        <Legend q={q} index={index} />
      </label>
      {help}
      {long ? <textarea rows={5} {...common} /> : <input type="text" {...common} />}
      <p className="small text-muted mb-0">Al massimo {max.toLocaleString('it-IT')} caratteri.</p>
      {errorLine}
    </div>
  );
}

/** The questions as form fields (put them inside your form with `noValidate`). */
export function QuestionnaireFields({
  questions,
  defaultValues,
  errors,
  idPrefix = 'questionario',
  disabled = false,
}: FieldsProps) {
  return (
    <div data-testid="questionnaire">
      {questions.map((q, index) => (
        <QuestionField
          key={q.id}
          q={q}
          index={index}
          value={defaultValues?.[String(q.id)]}
          error={errors?.[answerFieldKey(q.id)]}
          idPrefix={idPrefix}
          disabled={disabled}
        />
      ))}
    </div>
  );
}

/** What was sent: each question with its answer. */
export function QuestionnaireAnswers({
  questions,
  answers,
}: {
  questions: readonly SurveyQuestion[];
  answers: Answers;
}) {
  return (
    <dl data-testid="questionnaire-answers">
      {questions.map((q, index) => (
        <div key={q.id} className="mb-3">
          <dt>
            {index + 1}. {q.label}
          </dt>
          <dd className="mb-0">{answerText(q, answers[String(q.id)])}</dd>
        </div>
      ))}
    </dl>
  );
}
