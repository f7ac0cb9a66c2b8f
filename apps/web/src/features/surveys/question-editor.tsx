import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigation, useSubmit } from 'react-router';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type ScreenReaderInstructions,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  CHOICE_QUESTION_TYPES,
  QUESTION_OPTIONS_MAX,
  QUESTION_PARTICIPANTS_LABELS,
  QUESTION_TYPE_LABELS,
  QUESTION_TYPES,
  SURVEY_PARTICIPANTS,
  SURVEY_QUESTIONS_MAX,
  type QuestionType,
  type SurveyParticipants,
  type SurveyQuestion,
} from '@portale/shared/surveys';

/** A question being edited; `key` is the editor's own id (new questions have no database id yet). */
export interface EditorQuestion {
  key: string;
  type: QuestionType;
  label: string;
  help: string;
  required: boolean;
  options: string[];
  /** Who sees it (decision 046). */
  participants: SurveyParticipants;
}

let nextKey = 0;
const newKey = () => `nuova-${++nextKey}`;
const isChoice = (type: QuestionType) => (CHOICE_QUESTION_TYPES as readonly string[]).includes(type);

export function toEditorQuestions(questions: readonly SurveyQuestion[]): EditorQuestion[] {
  return questions.map((q) => ({
    key: `d-${q.id}`,
    type: q.type,
    label: q.label,
    help: q.help,
    required: q.required,
    options: [...q.options],
    participants: q.participants,
  }));
}

/** The body of `PUT /api/surveys/:id/questions` for the editor's list. */
export function editorToInput(items: readonly EditorQuestion[]) {
  return items.map((q) => ({
    type: q.type,
    label: q.label,
    help: q.help,
    required: q.required,
    options: isChoice(q.type) ? q.options : [],
    participants: q.participants,
  }));
}

const shortLabel = (q: EditorQuestion, index: number) =>
  `domanda ${index + 1}${q.label.trim() ? ` «${q.label.trim()}»` : ''}`;

const INSTRUCTIONS: ScreenReaderInstructions = {
  draggable:
    'Per spostare una domanda con la tastiera premi spazio o invio sulla maniglia, usa le frecce su e giù per cambiarne la posizione, poi premi di nuovo spazio o invio per lasciarla, oppure Esc per annullare. In alternativa usa i pulsanti «Sposta su» e «Sposta giù».',
};

interface Props {
  initial: readonly SurveyQuestion[];
  /** The survey's participants: with both, each question says whom it is for (decision 046). */
  participants: SurveyParticipants;
  /** Messages of the last save, keyed `questions.<index>.<field>` (the index of the list that was sent). */
  errors: Record<string, string>;
  /** The stored questions' ids: a save replaces them, which resets the editor to what the server stored (a data edit does not). */
  version: string;
}

/**
 * The question editor: add, edit and remove questions of every type with their options; reorder by
 * drag (mouse, touch or the keyboard through the handle) and by the «Sposta su/giù» buttons, each move
 * announced in a live region. «Salva le domande» replaces the ordered list on the server.
 */
export function QuestionEditor({ initial, participants, errors, version }: Props) {
  const [items, setItems] = useState<EditorQuestion[]>(() => toEditorQuestions(initial));
  const [dirty, setDirty] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [sentKeys, setSentKeys] = useState<string[]>([]);
  const pendingFocus = useRef<string | null>(null);
  const submit = useSubmit();
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'questions';
  const headingId = useId();

  // A successful save: start again from what the server stored.
  useEffect(() => {
    setItems(toEditorQuestions(initial));
    setDirty(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version]);

  useEffect(() => {
    if (!pendingFocus.current) return;
    const el = document.getElementById(pendingFocus.current);
    pendingFocus.current = null;
    el?.focus();
  });

  /** Errors of the last save, by the editor key of the question they are about. */
  const errorsByKey = useMemo(() => {
    const out: Record<string, Record<string, string>> = {};
    for (const [path, message] of Object.entries(errors)) {
      const m = /^questions\.(\d+)\.(\w+)/.exec(path);
      const key = m ? sentKeys[Number(m[1])] : undefined;
      if (key && m) (out[key] ??= {})[m[2]!] ??= message;
    }
    return out;
  }, [errors, sentKeys]);
  const listError = errors.questions;

  const change = (next: EditorQuestion[]) => {
    setItems(next);
    setDirty(true);
  };
  const update = (key: string, patch: Partial<EditorQuestion>) =>
    change(items.map((q) => (q.key === key ? { ...q, ...patch } : q)));

  const move = (from: number, to: number, via: 'button' | 'drag', focusId?: string) => {
    if (to < 0 || to >= items.length || from === to) return;
    const moved = items[from]!;
    const next = arrayMove(items, from, to);
    change(next);
    setAnnouncement(
      `${shortLabel(moved, from).replace(/^d/, 'D')} spostata in posizione ${to + 1} di ${next.length}.`,
    );
    if (via === 'button' && focusId) pendingFocus.current = focusId;
  };

  const add = (type: QuestionType) => {
    const q: EditorQuestion = {
      key: newKey(),
      type,
      label: '',
      help: '',
      required: false,
      options: isChoice(type) ? ['', ''] : [],
      participants: 'entrambi',
    };
    change([...items, q]);
    pendingFocus.current = `${q.key}-label`;
    setAnnouncement(`Aggiunta la domanda ${items.length + 1} (${QUESTION_TYPE_LABELS[type]}).`);
  };

  const remove = (index: number) => {
    const q = items[index]!;
    const next = items.filter((_, i) => i !== index);
    change(next);
    setAnnouncement(`${shortLabel(q, index).replace(/^d/, 'D')} eliminata.`);
    pendingFocus.current = next[index]
      ? `${next[index].key}-label`
      : next[index - 1]
        ? `${next[index - 1]!.key}-label`
        : 'aggiungi-tipo';
  };

  const save = () => {
    setSentKeys(items.map((q) => q.key));
    const form = new FormData();
    form.set('intent', 'questions');
    form.set('questions', JSON.stringify(editorToInput(items)));
    submit(form, { method: 'post', preventScrollReset: true });
  };

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const positionOf = (id: string | number) => items.findIndex((q) => q.key === id) + 1;
  const labelOf = (id: string | number) => {
    const i = items.findIndex((q) => q.key === id);
    return i >= 0 ? shortLabel(items[i]!, i) : 'domanda';
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Hai preso la ${labelOf(active.id)}, in posizione ${positionOf(active.id)} di ${items.length}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `La ${labelOf(active.id)} è sopra la posizione ${positionOf(over.id)} di ${items.length}.`
        : `La ${labelOf(active.id)} non è sopra una posizione valida.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `Hai lasciato la ${labelOf(active.id)} in posizione ${positionOf(over.id)} di ${items.length}.`
        : `Hai lasciato la ${labelOf(active.id)}.`,
    onDragCancel: ({ active }) =>
      `Spostamento annullato: la ${labelOf(active.id)} resta in posizione ${positionOf(active.id)}.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    move(
      items.findIndex((q) => q.key === active.id),
      items.findIndex((q) => q.key === over.id),
      'drag',
    );
  };

  return (
    <section className="mt-5" aria-labelledby={headingId} data-testid="question-editor">
      <h2 id={headingId} className="h3">
        Domande
      </h2>
      <p>
        Trascina una domanda per la maniglia, oppure usa i pulsanti «Sposta su» e «Sposta giù», per cambiarne
        l’ordine. Le modifiche valgono dopo «Salva le domande».
      </p>
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="question-announcement">
        {announcement}
      </p>
      {listError && <p className="alert alert-danger">{listError}</p>}
      {items.length === 0 && (
        <p className="alert alert-info">
          Non ci sono ancora domande: aggiungine almeno una per poter aprire l’indagine.
        </p>
      )}

      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{ announcements, screenReaderInstructions: INSTRUCTIONS }}
      >
        <SortableContext items={items.map((q) => q.key)} strategy={verticalListSortingStrategy}>
          <ol className="list-unstyled" aria-label="Domande dell’indagine, in ordine">
            {items.map((q, index) => (
              <SortableQuestion
                key={q.key}
                q={q}
                index={index}
                count={items.length}
                errors={errorsByKey[q.key] ?? {}}
                showParticipants={participants === 'entrambi' || q.participants !== 'entrambi'}
                onChange={(patch) => update(q.key, patch)}
                onMove={(to, focusId) => move(index, to, 'button', focusId)}
                onRemove={() => remove(index)}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>

      <AddQuestion disabled={items.length >= SURVEY_QUESTIONS_MAX} onAdd={add} />

      <div className="d-flex flex-wrap align-items-center gap-3 mt-4">
        <button
          type="button"
          className="btn btn-primary"
          onClick={save}
          disabled={saving}
          data-testid="save-questions"
        >
          {saving ? 'Salvataggio…' : 'Salva le domande'}
        </button>
        {dirty && <span className="text-danger fw-semibold">Ci sono modifiche non salvate.</span>}
      </div>
    </section>
  );
}

function AddQuestion({ disabled, onAdd }: { disabled: boolean; onAdd: (type: QuestionType) => void }) {
  const [type, setType] = useState<QuestionType>('scelta_singola');
  return (
    <div className="d-flex flex-wrap align-items-end gap-2 mt-3 border-top pt-3">
      <div className="select-wrapper">
        <label htmlFor="aggiungi-tipo">Tipo della nuova domanda</label>
        <select id="aggiungi-tipo" value={type} onChange={(e) => setType(e.target.value as QuestionType)}>
          {QUESTION_TYPES.map((t) => (
            <option key={t} value={t}>
              {QUESTION_TYPE_LABELS[t]}
            </option>
          ))}
        </select>
      </div>
      <button
        type="button"
        className="btn btn-outline-primary"
        disabled={disabled}
        onClick={() => onAdd(type)}
      >
        Aggiungi una domanda
      </button>
    </div>
  );
}

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

function SortableQuestion({
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
