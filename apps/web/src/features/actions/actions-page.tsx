import {
  Link,
  useLoaderData,
  useLocation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import {
  ACTION_STATE_LABELS,
  ACTION_STATES,
  ACTION_TARGET_LABELS,
  ACTION_TARGETS,
  assignActionBulk,
  exportActions,
  getAction,
  getActionModel,
  listActionModels,
  listActions,
  previewActionBulk,
  reviewAction,
  type ActionDetail,
  type ActionModel,
  type ActionSummary,
} from '@portale/shared/actions';
import { getPage } from '@portale/shared/pages';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format.ts';
import { failureResult, text } from '../../lib/form-data.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { BulkForm, filterOf } from './action-bulk-form.tsx';
import { ActionDetailPanel, StateBadge } from './action-detail-panel.tsx';
import type { Outcome } from './actions-outcome.ts';

const DEFAULT_SORT = 'dueOn';
const DETAIL_PARAM = 'azione';

function DetailLink({ action }: { action: ActionSummary }) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.set(DETAIL_PARAM, String(action.id));
  return (
    <Link to={`?${params.toString()}#dettaglio-azione`} preventScrollReset>
      {action.targetName}
    </Link>
  );
}

const column = listColumnHelper<ActionSummary>();
const COLUMNS = [
  column.accessor('targetName', {
    header: 'Destinatario',
    meta: { rowHeader: true },
    cell: (c) => <DetailLink action={c.row.original} />,
  }),
  column.accessor('target', {
    header: 'Tipo',
    enableSorting: false,
    cell: (c) => `${ACTION_TARGET_LABELS[c.getValue()]} · ${c.row.original.targetCode}`,
  }),
  column.accessor('modelTitle', { header: 'Azione' }),
  column.accessor('dueOn', { header: 'Scadenza', cell: (c) => formatDate(c.getValue()) }),
  column.accessor('state', {
    header: 'Stato',
    cell: (c) => <StateBadge state={c.getValue()} overdue={c.row.original.overdue} />,
  }),
  column.accessor('province', { header: 'Provincia', enableSorting: false, cell: (c) => c.getValue() ?? '' }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'dueOn', label: 'Scadenza' },
  { value: 'state', label: 'Stato' },
  { value: 'targetName', label: 'Destinatario' },
  { value: 'modelTitle', label: 'Azione' },
  { value: 'createdAt', label: 'Data di assegnazione' },
]);
const STATIC_FILTERS: SelectFilter[] = [
  {
    name: 'state',
    label: 'Stato',
    anyLabel: 'Tutti gli stati',
    options: ACTION_STATES.map((s) => ({ value: s, label: ACTION_STATE_LABELS[s] })),
  },
  {
    name: 'target',
    label: 'Destinatari',
    anyLabel: 'Tutti',
    options: ACTION_TARGETS.map((t) => ({ value: t, label: ACTION_TARGET_LABELS[t] })),
  },
  {
    name: 'overdue',
    label: 'Scadenza',
    anyLabel: 'Tutte',
    options: [
      { value: 'true', label: 'Scadute' },
      { value: 'false', label: 'Non scadute' },
    ],
  },
];

interface Data extends ListLoaderData<typeof listActions> {
  models: ActionModel[];
  detail: ActionDetail | null;
  detailProblem: string | null;
}

export async function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  const id = Number(new URL(request.url).searchParams.get(DETAIL_PARAM));
  const [list, models] = await Promise.all([
    loadList(listActions, request),
    callApi(listActionModels, { query: { pageSize: 100, sort: 'title' } } as never, {
      signal: request.signal,
    }),
  ]);
  const base = { ...list, models: models.items, detail: null, detailProblem: null };
  if (!Number.isInteger(id) || id <= 0) return base;
  try {
    return {
      ...base,
      detail: await callApi(getAction, { params: { actionId: id } }, { signal: request.signal }),
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      return { ...base, detailProblem: 'L’azione richiesta non esiste.' };
    throw error;
  }
}

const BULK_FIELDS = [
  'modelId',
  'q',
  'region',
  'province',
  'adhesionState',
  'participating',
  'reviewState',
  'expectedCount',
  'dueOn',
] as const;

export async function action({ request }: ActionFunctionArgs): Promise<Outcome> {
  const form = await request.formData();
  const intent = text(form, 'intent');
  try {
    if (intent === 'verify' || intent === 'send-back') {
      const actionId = Number(text(form, 'actionId'));
      const note = text(form, 'note');
      const result = await callApi(reviewAction, {
        params: { actionId },
        body:
          intent === 'verify'
            ? { to: 'verificata', ...(note.trim() ? { note } : {}) }
            : { to: 'in_corso', note },
      });
      return {
        intent,
        ok: true,
        message:
          result.state === 'verificata'
            ? 'Azione verificata.'
            : 'Azione rimandata al destinatario con la nota.',
      };
    }
    const values: Record<string, string> = {};
    for (const key of BULK_FIELDS) values[key] = text(form, key);
    const modelId = Number(values.modelId);
    if (!modelId)
      return {
        intent,
        values,
        message: 'Controlla i campi evidenziati.',
        errors: { modelId: 'Scegli il modello di azione.' },
      };
    const model = await callApi(getActionModel, { params: { modelId } });
    const filter = filterOf(values, model.target);
    if (intent === 'preview')
      return { intent, values, preview: await callApi(previewActionBulk, { body: { modelId, filter } }) };
    const done = await callApi(assignActionBulk, {
      body: {
        modelId,
        filter,
        expectedCount: Number(values.expectedCount),
        ...(values.dueOn ? { dueOn: values.dueOn } : {}),
      },
    });
    return { intent, values, ok: true, done };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw error;
    return {
      intent,
      values: Object.fromEntries(BULK_FIELDS.map((k) => [k, text(form, k)])),
      ...failureResult(error),
    };
  }
}

/** Staff: every action (list pattern, overdue filter), the bulk assignment and the verification of evidence. */
export function Component() {
  const { query, result, problem, models, detail, detailProblem } = useLoaderData<Data>();
  const page = getPage('portal.actions');
  const location = useLocation();
  const closeParams = new URLSearchParams(location.search);
  closeParams.delete(DETAIL_PARAM);
  const modelFilter: SelectFilter = {
    name: 'modelId',
    label: 'Modello',
    anyLabel: 'Tutti i modelli',
    options: models.map((m) => ({ value: String(m.id), label: m.title })),
  };
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      {detail && (
        <ActionDetailPanel key={detail.id} detail={detail} closeHref={`?${closeParams.toString()}`} />
      )}
      {detailProblem && (
        <div className="alert alert-warning" role="alert">
          {detailProblem}
        </div>
      )}
      <BulkForm models={models} />
      <h2 className="h4">Elenco delle azioni</h2>
      <FilterBar
        label="Cerca nelle azioni"
        query={query}
        search={{
          label: 'Cerca',
          hint: 'Nome o codice meccanografico dell’istituto o del plesso, nome o e-mail dell’insegnante.',
        }}
        geography
        selects={[modelFilter, ...STATIC_FILTERS]}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Azioni"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'azione trovata', many: 'azioni trovate' }}
        noMatch="Nessuna azione corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportActions}
        exportName="azioni"
      />
    </>
  );
}
