import { useEffect, useRef } from 'react';
import {
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import {
  ACTION_EVIDENCE_LABELS,
  ACTION_TARGET_LABELS,
  ACTION_TARGETS,
  ActionModelCreateSchema,
  ActionModelUpdateSchema,
  createActionModel,
  exportActionModels,
  getActionModel,
  listActionModels,
  updateActionModel,
  type ActionModel,
} from '@portale/shared/actions';
import { getPage } from '@portale/shared/pages';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { failureResult, text, type FormResult } from '../../lib/form-data.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { invalidForm } from '../../lib/form-action.ts';
import { ModelForm } from './action-model-form.tsx';

const DEFAULT_SORT = 'title';
const EDIT_PARAM = 'modifica';

function EditLink({ model }: { model: ActionModel }) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.set(EDIT_PARAM, String(model.id));
  return (
    <Link to={`?${params.toString()}#modifica-modello`} preventScrollReset>
      {model.title}
    </Link>
  );
}

const column = listColumnHelper<ActionModel>();
const COLUMNS = [
  column.accessor('title', {
    header: 'Modello',
    meta: { rowHeader: true },
    cell: (c) => <EditLink model={c.row.original} />,
  }),
  column.accessor('category', { header: 'Categoria' }),
  column.accessor('target', { header: 'Destinatari', cell: (c) => ACTION_TARGET_LABELS[c.getValue()] }),
  column.accessor('defaultDurationDays', {
    header: 'Durata',
    enableSorting: false,
    cell: (c) => `${formatNumber(c.getValue())} giorni`,
  }),
  column.accessor('evidence', {
    header: 'Prova richiesta',
    enableSorting: false,
    cell: (c) => ACTION_EVIDENCE_LABELS[c.getValue()],
  }),
  column.accessor('actionCount', {
    header: 'Azioni',
    enableSorting: false,
    cell: (c) => formatNumber(c.getValue()),
  }),
  column.accessor('active', {
    header: 'Attivo',
    enableSorting: false,
    cell: (c) => (c.getValue() ? 'Sì' : <span className="badge bg-secondary">Disattivato</span>),
  }),
  column.accessor('createdAt', { header: 'Creato il', cell: (c) => formatDate(c.getValue()) }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'title', label: 'Titolo' },
  { value: 'category', label: 'Categoria' },
  { value: 'target', label: 'Destinatari' },
  { value: 'createdAt', label: 'Data di creazione' },
]);
const FILTERS: SelectFilter[] = [
  {
    name: 'target',
    label: 'Destinatari',
    anyLabel: 'Tutti',
    options: ACTION_TARGETS.map((t) => ({ value: t, label: ACTION_TARGET_LABELS[t] })),
  },
  {
    name: 'active',
    label: 'Stato',
    anyLabel: 'Tutti',
    options: [
      { value: 'true', label: 'Attivi' },
      { value: 'false', label: 'Disattivati' },
    ],
  },
];

interface Data extends ListLoaderData<typeof listActionModels> {
  editing: ActionModel | null;
  editProblem: string | null;
}

export async function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  const id = Number(new URL(request.url).searchParams.get(EDIT_PARAM));
  const list = await loadList(listActionModels, request);
  if (!Number.isInteger(id) || id <= 0) return { ...list, editing: null, editProblem: null };
  try {
    return {
      ...list,
      editing: await callApi(getActionModel, { params: { modelId: id } }, { signal: request.signal }),
      editProblem: null,
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      return { ...list, editing: null, editProblem: 'Il modello da modificare non esiste.' };
    throw error;
  }
}

function values(form: FormData) {
  const duration = text(form, 'defaultDurationDays').trim();
  return {
    title: text(form, 'title'),
    description: text(form, 'description'),
    category: text(form, 'category'),
    defaultDurationDays: duration === '' ? undefined : Number(duration),
    evidence: text(form, 'evidence') || undefined,
  };
}

export type Outcome = FormResult & { intent?: string };

export async function action({ request }: ActionFunctionArgs): Promise<Outcome> {
  const form = await request.formData();
  const intent = text(form, 'intent');
  try {
    if (intent === 'create') {
      const body = { ...values(form), target: text(form, 'target') || undefined };
      const parsed = ActionModelCreateSchema.safeParse(body);
      if (!parsed.success) return { intent, ...invalidForm(parsed.error.issues) };
      const model = await callApi(createActionModel, { body: parsed.data });
      return { intent, ok: true, message: `Modello «${model.title}» creato.` };
    }
    const modelId = Number(text(form, 'modelId'));
    const body = { ...values(form), active: form.get('active') === 'true' };
    const parsed = ActionModelUpdateSchema.safeParse(body);
    if (!parsed.success) return { intent, ...invalidForm(parsed.error.issues) };
    const model = await callApi(updateActionModel, { params: { modelId }, body: parsed.data });
    return {
      intent,
      ok: true,
      message: `Modello «${model.title}» salvato${model.active ? '' : ' (disattivato: non si assegnano nuove azioni)'}.`,
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw error;
    return { intent, ...failureResult(error) };
  }
}

export function Component() {
  const { query, result, problem, editing, editProblem } = useLoaderData<Data>();
  const outcome = useActionData<Outcome>();
  const page = getPage('portal.action-models');
  const location = useLocation();
  const closeParams = new URLSearchParams(location.search);
  closeParams.delete(EDIT_PARAM);
  const closeHref = `?${closeParams.toString()}`;
  const createOutcome = outcome?.intent === 'create' ? outcome : undefined;
  // Opened from a row far below: bring the edit form into view and move the focus to its heading.
  const editHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    editHeading.current?.scrollIntoView({ block: 'start' });
    editHeading.current?.focus({ preventScroll: true });
  }, [editing?.id]);
  const updateOutcome = outcome?.intent === 'update' ? outcome : undefined;
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      {editing && (
        <section aria-labelledby="modifica-modello" className="mb-5 p-3 border rounded">
          <h2 id="modifica-modello" className="h4" tabIndex={-1} ref={editHeading}>
            Modifica «{editing.title}»
          </h2>
          <FormMessage message={updateOutcome?.message} tone={updateOutcome?.ok ? 'success' : 'danger'} />
          <ModelForm model={editing} prefix="modifica" outcome={updateOutcome} />
          <Link to={closeHref} className="d-inline-block mt-2" preventScrollReset>
            Chiudi la modifica
          </Link>
        </section>
      )}
      {editProblem && (
        <div className="alert alert-warning" role="alert">
          {editProblem}
        </div>
      )}
      <h2 className="h4">Elenco dei modelli</h2>
      <FilterBar
        label="Cerca nei modelli"
        query={query}
        search={{ label: 'Cerca', hint: 'Parte del titolo o della categoria.' }}
        selects={FILTERS}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Modelli di azione"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'modello trovato', many: 'modelli trovati' }}
        noMatch="Nessun modello corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportActionModels}
        exportName="modelli-di-azione"
      />
      <section aria-labelledby="nuovo-modello" className="mt-5">
        <h2 id="nuovo-modello" className="h4">
          Nuovo modello
        </h2>
        <FormMessage message={createOutcome?.message} tone={createOutcome?.ok ? 'success' : 'danger'} />
        <ModelForm prefix="nuovo" outcome={createOutcome} />
      </section>
    </>
  );
}
