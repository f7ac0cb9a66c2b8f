// One question of the editor: drag handle, text, type, options, required, audience, move and remove.
import { isChoice, shortLabel, type EditorQuestion } from './editor-questions.ts';
import { CheckboxField } from '../../components/form/checkbox-field.tsx';
import { FieldError } from '../../components/form/field.tsx';
import { InputField } from '../../components/form/input-field.tsx';
import { SelectField } from '../../components/form/select-field.tsx';
import { useSortable } from '@dnd-kit/sortable';
import { Button } from 'design-react-kit';
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
        <Button
          type="button"
          id={upId}
          color="primary"
          outline
          size="sm"
          disabled={index === 0}
          aria-label={`Sposta su la ${name}`}
          onClick={() => onMove(index - 1, index - 1 === 0 ? downId : upId)}
        >
          Sposta su
        </Button>
        <Button
          type="button"
          id={downId}
          color="primary"
          outline
          size="sm"
          disabled={index === count - 1}
          aria-label={`Sposta giù la ${name}`}
          onClick={() => onMove(index + 1, index + 1 === count - 1 ? upId : downId)}
        >
          Sposta giù
        </Button>
        <Button
          type="button"
          color="danger"
          outline
          size="sm"
          aria-label={`Elimina la ${name}`}
          onClick={onRemove}
        >
          Elimina
        </Button>
      </div>
      <div className="row">
        <div className="col-12 col-md-4 mb-3">
          {/* Bootstrap Italia's select-wrapper: the label floats over the select, which has no class of its own. */}
          <SelectField
            id={id('type')}
            label="Tipo"
            fieldClassName="select-wrapper"
            labelClassName=""
            className=""
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
            options={QUESTION_TYPES.map((t) => ({ value: t, label: QUESTION_TYPE_LABELS[t] }))}
            error={errors.type}
          />
        </div>
        <InputField
          id={id('label')}
          label="Testo della domanda"
          fieldClassName="col-12 col-md-8 mb-3"
          type="text"
          maxLength={500}
          value={q.label}
          onChange={(e) => onChange({ label: e.target.value })}
          error={errors.label}
        />
        <InputField
          id={id('help')}
          label="Aiuto (facoltativo)"
          fieldClassName="col-12 mb-3"
          labelClassName="form-label"
          type="text"
          maxLength={1000}
          value={q.help}
          onChange={(e) => onChange({ help: e.target.value })}
          error={errors.help}
        />
        {showParticipants && (
          <div className="col-12 col-md-6 mb-3">
            <SelectField
              id={id('participants')}
              label="Chi vede la domanda"
              fieldClassName="select-wrapper"
              labelClassName=""
              className=""
              value={q.participants}
              onChange={(e) => onChange({ participants: e.target.value as SurveyParticipants })}
              options={SURVEY_PARTICIPANTS.map((p) => ({ value: p, label: QUESTION_PARTICIPANTS_LABELS[p] }))}
              error={errors.participants}
            />
          </div>
        )}
      </div>
      <CheckboxField
        id={id('required')}
        label="Risposta obbligatoria"
        fieldClassName="form-check mb-2"
        checked={q.required}
        onChange={(e) => onChange({ required: e.target.checked })}
      />
      {isChoice(q.type) && (
        <OptionsEditor
          q={q}
          errorId={errors.options ? id('options-error') : undefined}
          onChange={(options) => onChange({ options })}
        />
      )}
      <FieldError id={id('options')} error={errors.options} />
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
          <InputField
            id={`${groupId}-${i}`}
            label={`Opzione ${i + 1}`}
            fieldClassName="flex-grow-1"
            labelClassName="visually-hidden"
            type="text"
            maxLength={200}
            value={option}
            placeholder={`Opzione ${i + 1}`}
            onChange={(e) => onChange(q.options.map((o, j) => (j === i ? e.target.value : o)))}
            {...(errorId ? { 'aria-invalid': true as const } : {})}
          />
          <Button
            type="button"
            color="danger"
            outline
            size="sm"
            className="text-nowrap"
            aria-label={`Rimuovi l’opzione ${i + 1}`}
            onClick={() => onChange(q.options.filter((_, j) => j !== i))}
          >
            Rimuovi
          </Button>
        </div>
      ))}
      <Button
        type="button"
        color="primary"
        outline
        size="sm"
        disabled={q.options.length >= QUESTION_OPTIONS_MAX}
        onClick={() => onChange([...q.options, ''])}
      >
        Aggiungi un’opzione
      </Button>
    </fieldset>
  );
}
