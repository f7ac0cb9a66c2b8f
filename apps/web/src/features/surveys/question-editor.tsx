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
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import {
  QUESTION_TYPE_LABELS,
  QUESTION_TYPES,
  SURVEY_QUESTIONS_MAX,
  type QuestionType,
  type SurveyParticipants,
  type SurveyQuestion,
} from '@portale/shared/surveys';
import { Button } from 'design-react-kit';
import { SelectField } from '../../components/form/select-field.tsx';
import { SortableQuestion } from './sortable-question.tsx';
import {
  editorToInput,
  isChoice,
  newKey,
  shortLabel,
  toEditorQuestions,
  type EditorQuestion,
} from './editor-questions.ts';

/** A question being edited; `key` is the editor's own id (new questions have no database id yet). */
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
        <Button type="button" color="primary" onClick={save} disabled={saving} data-testid="save-questions">
          {saving ? 'Salvataggio…' : 'Salva le domande'}
        </Button>
        {dirty && <span className="text-danger fw-semibold">Ci sono modifiche non salvate.</span>}
      </div>
    </section>
  );
}

function AddQuestion({ disabled, onAdd }: { disabled: boolean; onAdd: (type: QuestionType) => void }) {
  const [type, setType] = useState<QuestionType>('scelta_singola');
  return (
    <div className="d-flex flex-wrap align-items-end gap-2 mt-3 border-top pt-3">
      <SelectField
        id="aggiungi-tipo"
        label="Tipo della nuova domanda"
        fieldClassName="select-wrapper"
        labelClassName=""
        className=""
        value={type}
        onChange={(e) => setType(e.target.value as QuestionType)}
        options={QUESTION_TYPES.map((t) => ({ value: t, label: QUESTION_TYPE_LABELS[t] }))}
      />
      <Button color="primary" outline type="button" disabled={disabled} onClick={() => onAdd(type)}>
        Aggiungi una domanda
      </Button>
    </div>
  );
}
