// One question of the editor: drag handle, text, type, options, required, audience, move and remove.
import { isChoice, shortLabel, type EditorQuestion } from './editor-questions.ts';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  QUESTION_OPTIONS_MAX,
  QUESTION_PARTICIPANTS_LABELS,
  QUESTION_TYPE_LABELS,
  QUESTION_TYPES,
  SURVEY_PARTICIPANTS,
  type QuestionType,
  type SurveyParticipants,
} from '@portale/shared/surveys';

interface QuestionProps {
  q: EditorQuestion;
  index: number;
  count: number;
  errors: Record<string, string>;
  /** Whether to offer «Chi vede la domanda» (a survey for both, or a question that needs fixing). */
  showParticipants: boolean;
  onChange: (patch: Partial<EditorQuestion>) => void;
  onMove: (to: number, focusId: string) => void;
  onRemove: () => void;
}

export function SortableQuestion({
  q,
  index,
  count,
  errors,
  showParticipants,
  onChange,
  onMove,
  onRemove,
}: QuestionProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: q.key });
  const style = {
    transform: CSS.Transform.toString(transform),
    transition,
    zIndex: isDragging ? 2 : undefined,
    position: 'relative' as const,
  };
  const id = (field: string) => `${q.key}-${field}`;
  const name = shortLabel(q, index);
  const invalid = (field: string) =>
    errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': id(`${field}-error`) } : {};
  const error = (field: string) =>
    errors[field] ? (
      <p id={id(`${field}-error`)} className="text-danger small mt-1 mb-0">
        {errors[field]}
      </p>
    ) : null;
  const upId = id('up');
  const downId = id('down');

  return (
    <li
      ref={setNodeRef}
      style={style}
      className={`card card-bg mb-3 p-3 border ${isDragging ? 'shadow' : ''}`}
      data-testid="editor-question"
      aria-label={`Domanda ${index + 1} di ${count}`}
    >
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <button
          type="button"
          ref={setActivatorNodeRef}
          className="btn btn-sm btn-outline-secondary"
          style={{ cursor: 'grab', touchAction: 'none' }}
          {...attributes}
          {...listeners}
          aria-label={`Trascina per spostare la ${name}`}
          aria-roledescription="elemento trascinabile"
        >
          <span aria-hidden="true">⠿</span> Trascina
        </button>
        <strong className="me-auto">Domanda {index + 1}</strong>
        <button
          type="button"
          id={upId}
          className="btn btn-sm btn-outline-primary"
          disabled={index === 0}
          aria-label={`Sposta su la ${name}`}
          onClick={() => onMove(index - 1, index - 1 === 0 ? downId : upId)}
        >
          Sposta su
        </button>
        <button
          type="button"
          id={downId}
          className="btn btn-sm btn-outline-primary"
          disabled={index === count - 1}
          aria-label={`Sposta giù la ${name}`}
          onClick={() => onMove(index + 1, index + 1 === count - 1 ? upId : downId)}
        >
          Sposta giù
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline-danger"
          aria-label={`Elimina la ${name}`}
          onClick={onRemove}
        >
          Elimina
        </button>
      </div>
      <div className="row">
        <div className="col-12 col-md-4 mb-3">
          <div className="select-wrapper">
            <label htmlFor={id('type')}>Tipo</label>
            <select
              id={id('type')}
              value={q.type}
              onChange={(e) => {
                const type = e.target.value as QuestionType;
                onChange({
                  type,
                  options:
                    isChoice(type) && q.options.length < 2
                      ? [...q.options, '', ''].slice(0, Math.max(2, q.options.length))
                      : q.options,
                });
              }}
              {...invalid('type')}
            >
              {QUESTION_TYPES.map((t) => (
                <option key={t} value={t}>
                  {QUESTION_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </div>
          {error('type')}
        </div>
        <div className="col-12 col-md-8 mb-3">
          <label className="form-label fw-semibold" htmlFor={id('label')}>
            Testo della domanda
          </label>
          <input
            id={id('label')}
            className="form-control"
            type="text"
            maxLength={500}
            value={q.label}
            onChange={(e) => onChange({ label: e.target.value })}
            {...invalid('label')}
          />
          {error('label')}
        </div>
        <div className="col-12 mb-3">
          <label className="form-label" htmlFor={id('help')}>
            Aiuto (facoltativo)
          </label>
          <input
            id={id('help')}
            className="form-control"
            type="text"
            maxLength={1000}
            value={q.help}
            onChange={(e) => onChange({ help: e.target.value })}
            {...invalid('help')}
          />
          {error('help')}
        </div>
        {showParticipants && (
          <div className="col-12 col-md-6 mb-3">
            <div className="select-wrapper">
              <label htmlFor={id('participants')}>Chi vede la domanda</label>
              <select
                id={id('participants')}
                value={q.participants}
                onChange={(e) => onChange({ participants: e.target.value as SurveyParticipants })}
                {...invalid('participants')}
              >
                {SURVEY_PARTICIPANTS.map((p) => (
                  <option key={p} value={p}>
                    {QUESTION_PARTICIPANTS_LABELS[p]}
                  </option>
                ))}
              </select>
            </div>
            {error('participants')}
          </div>
        )}
      </div>
      <div className="form-check mb-2">
        <input
          id={id('required')}
          type="checkbox"
          className="form-check-input"
          checked={q.required}
          onChange={(e) => onChange({ required: e.target.checked })}
        />
        <label className="form-check-label" htmlFor={id('required')}>
          Risposta obbligatoria
        </label>
      </div>
      {isChoice(q.type) && (
        <OptionsEditor
          q={q}
          errorId={errors.options ? id('options-error') : undefined}
          onChange={(options) => onChange({ options })}
        />
      )}
      {error('options')}
    </li>
  );
}

function OptionsEditor({
  q,
  errorId,
  onChange,
}: {
  q: EditorQuestion;
  errorId: string | undefined;
  onChange: (options: string[]) => void;
}) {
  const groupId = `${q.key}-options`;
  return (
    <fieldset className="mt-2" aria-describedby={errorId}>
      <legend className="fs-6 fw-semibold">Opzioni (da 2 a {QUESTION_OPTIONS_MAX}, tutte diverse)</legend>
      {q.options.map((option, i) => (
        <div key={i} className="d-flex gap-2 align-items-center mb-2">
          <label className="visually-hidden" htmlFor={`${groupId}-${i}`}>
            Opzione {i + 1}
          </label>
          <input
            id={`${groupId}-${i}`}
            className="form-control"
            type="text"
            maxLength={200}
            value={option}
            placeholder={`Opzione ${i + 1}`}
            onChange={(e) => onChange(q.options.map((o, j) => (j === i ? e.target.value : o)))}
            {...(errorId ? { 'aria-invalid': true as const } : {})}
          />
          <button
            type="button"
            className="btn btn-sm btn-outline-danger text-nowrap"
            aria-label={`Rimuovi l’opzione ${i + 1}`}
            onClick={() => onChange(q.options.filter((_, j) => j !== i))}
          >
            Rimuovi
          </button>
        </div>
      ))}
      <button
        type="button"
        className="btn btn-sm btn-outline-primary"
        disabled={q.options.length >= QUESTION_OPTIONS_MAX}
        onClick={() => onChange([...q.options, ''])}
      >
        Aggiungi un’opzione
      </button>
    </fieldset>
  );
}
