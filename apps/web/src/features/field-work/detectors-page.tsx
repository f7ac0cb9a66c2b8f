import {
  Form,
  useActionData,
  useLoaderData,
  useNavigation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import {
  assignSchoolSites,
  exportDetectors,
  listDetectors,
  type AssignmentBody,
  type AssignmentFilter,
  type AssignmentResult,
  type DetectorSummary,
  type DetectorUpdate,
  updateDetector,
} from '@portale/shared/field-work';
import { getPage } from '@portale/shared/pages';
import { SCHOOL_LEVEL_LABELS, SCHOOL_LEVELS } from '@portale/shared/registry';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatNumber, formatShortDateTime } from '../../lib/format.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { ALL_PROVINCES, PROVINCE_FILTER } from './field-work-labels.ts';
import { FieldError } from '../../components/form/field.tsx';

const DEFAULT_SORT = 'name';
const column = listColumnHelper<DetectorSummary>();
const COLUMNS = [
  column.display({
    id: 'name',
    header: 'Rilevatore',
    meta: { rowHeader: true },
    cell: (c) => `${c.row.original.lastName} ${c.row.original.firstName}`,
  }),
  column.accessor('email', {
    header: 'E-mail',
    cell: (c) => <a href={`mailto:${c.getValue()}`}>{c.getValue()}</a>,
  }),
  column.accessor('provinces', {
    header: 'Province',
    enableSorting: false,
    cell: (c) => c.getValue().join(', ') || <span className="text-muted">nessuna</span>,
  }),
  column.accessor('siteCount', { header: 'Plessi', cell: (c) => formatNumber(c.getValue()) }),
  column.accessor('nextVisitAt', {
    header: 'Prossima visita',
    enableSorting: false,
    cell: (c) => (c.getValue() ? formatShortDateTime(c.getValue()!) : ''),
  }),
  column.accessor('active', {
    header: 'Attivo',
    enableSorting: false,
    cell: (c) => (c.getValue() ? 'Sì' : 'No'),
  }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'name', label: 'Cognome e nome' },
  { value: 'email', label: 'E-mail' },
  { value: 'siteCount', label: 'Numero di plessi' },
]);
const ACTIVE_FILTER: SelectFilter = {
  name: 'active',
  label: 'Stato',
  anyLabel: 'Tutti',
  options: [
    { value: 'true', label: 'Attivi' },
    { value: 'false', label: 'Non attivi' },
  ],
};

interface Data extends ListLoaderData<typeof listDetectors> {
  /** Every detector, for the assignment form's choices. */
  all: DetectorSummary[];
}

export async function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  const [list, all] = await Promise.all([
    loadList(listDetectors, request),
    callApi(listDetectors, { query: { pageSize: 100, sort: 'name' } } as never, { signal: request.signal }),
  ]);
  return { ...list, all: all.items };
}

interface AssignResult {
  /** The provinces form's outcome. */
  provinces?: { ok?: string; message?: string; values?: Record<string, string> };
  preview?: AssignmentResult;
  done?: AssignmentResult;
  /** The form's values, to show the confirmation with the same target. */
  values?: Record<string, string>;
  message?: string;
  errors?: Record<string, string[]>;
}

const TARGET_FIELDS = [
  'detectorUserId',
  'province',
  'level',
  'participating',
  'currentDetector',
  'q',
] as const;

function bodyOf(values: Record<string, string>, confirm: boolean): AssignmentBody {
  const filter: AssignmentFilter = {};
  if (values.province) filter.province = values.province as AssignmentFilter['province'];
  if (values.level) filter.level = values.level as AssignmentFilter['level'];
  if (values.participating === 'true') filter.participating = true;
  if (values.currentDetector)
    filter.currentDetector = values.currentDetector === 'none' ? 'none' : Number(values.currentDetector);
  if (values.q?.trim()) filter.q = values.q.trim();
  return {
    detectorUserId: values.detectorUserId === 'none' ? null : Number(values.detectorUserId),
    filter,
    confirm,
    ...(confirm && values.expectedCount ? { expectedCount: Number(values.expectedCount) } : {}),
  };
}

export async function action({ request }: ActionFunctionArgs): Promise<AssignResult> {
  const form = await request.formData();
  if (form.get('intent') === 'provinces') return { provinces: await saveProvinces(form) };
  const values: Record<string, string> = {};
  for (const key of [...TARGET_FIELDS, 'expectedCount']) values[key] = String(form.get(key) ?? '');
  const confirm = form.get('intent') === 'apply';
  if (!values.detectorUserId)
    return {
      values,
      message: 'Controlla i campi evidenziati.',
      errors: { detectorUserId: ['Scegli il rilevatore.'] },
    };
  try {
    const result = await callApi(assignSchoolSites, { body: bodyOf(values, confirm) });
    return confirm ? { done: result, values } : { preview: result, values };
  } catch (error) {
    if (error instanceof ApiError && error.status !== 401) {
      const errors = (error.body as { errors?: Record<string, string[]> } | undefined)?.errors;
      return { values, message: error.message, ...(errors ? { errors } : {}) };
    }
    throw error;
  }
}

async function saveProvinces(form: FormData): Promise<NonNullable<AssignResult['provinces']>> {
  const values = {
    detector: String(form.get('detector') ?? ''),
    provinces: String(form.get('provinces') ?? ''),
  };
  const userId = Number(values.detector);
  if (!userId) return { values, message: 'Scegli il rilevatore.' };
  const provinces = [
    ...new Set(
      values.provinces
        .toUpperCase()
        .split(/[\s,;]+/)
        .filter(Boolean),
    ),
  ];
  const unknown = provinces.filter((p) => !ALL_PROVINCES.includes(p));
  if (unknown.length) return { values, message: `Sigle di provincia sconosciute: ${unknown.join(', ')}.` };
  try {
    const detector = await callApi(updateDetector, {
      params: { userId },
      body: { provinces: provinces as DetectorUpdate['provinces'] },
    });
    return {
      ok: `Province di ${detector.firstName} ${detector.lastName}: ${detector.provinces.join(', ') || 'nessuna'}.`,
    };
  } catch (error) {
    if (error instanceof ApiError && error.status !== 401) return { values, message: error.message };
    throw error;
  }
}

function ProvincesForm({ detectors }: { detectors: DetectorSummary[] }) {
  const result = useActionData<AssignResult>()?.provinces;
  const busy = useNavigation().state === 'submitting';
  return (
    <section aria-labelledby="province-title" className="mb-5">
      <h2 id="province-title" className="h4">
        Province coperte
      </h2>
      <Form method="post" className="row g-3 align-items-end">
        <input type="hidden" name="intent" value="provinces" />
        <div className="col-md-4">
          <label htmlFor="provinces-detector" className="form-label">
            Rilevatore
          </label>
          <select
            id="provinces-detector"
            name="detector"
            className="form-select"
            required
            defaultValue={result?.values?.detector ?? ''}
          >
            <option value="">Scegli…</option>
            {detectors.map((d) => (
              <option key={d.id} value={d.id}>
                {d.lastName} {d.firstName}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-5">
          <label htmlFor="provinces-list" className="form-label">
            Sigle delle province, separate da virgole
          </label>
          <input
            id="provinces-list"
            name="provinces"
            className="form-control"
            placeholder="RM, PV"
            defaultValue={result?.values?.provinces ?? ''}
            aria-describedby="provinces-outcome"
          />
        </div>
        <div className="col-md-3">
          <button type="submit" className="btn btn-outline-primary" disabled={busy}>
            Salva le province
          </button>
        </div>
      </Form>
      <div id="provinces-outcome" role="status" className="mt-2">
        {result?.ok && <div className="alert alert-success">{result.ok}</div>}
        {result?.message && <div className="alert alert-danger">{result.message}</div>}
      </div>
    </section>
  );
}

function AssignmentForm({ detectors }: { detectors: DetectorSummary[] }) {
  const result = useActionData<AssignResult>();
  const busy = useNavigation().state === 'submitting';
  const v = result?.values ?? {};
  const filterError =
    result?.errors?.['filter.province'] ?? result?.errors?.filter ?? result?.errors?.province;
  const nameOf = (id: string) => {
    if (id === 'none') return 'nessun rilevatore';
    const d = detectors.find((x) => String(x.id) === id);
    return d ? `${d.firstName} ${d.lastName}` : '';
  };
  return (
    <section aria-labelledby="assegna-title" className="mb-5">
      <h2 id="assegna-title" className="h4">
        Assegna plessi
      </h2>
      <p>
        Scegli il rilevatore e i plessi: tutti i plessi di una provincia, un filtro più stretto, i plessi di
        un altro rilevatore (per spostarli) o un solo plesso cercandone il codice meccanografico. Prima conta
        i plessi, poi conferma: l’assegnazione avviene tutta insieme. Un plesso ha al massimo un rilevatore.
      </p>
      <Form method="post" className="row g-3" aria-describedby="assegna-title">
        <div className="col-md-4">
          <label htmlFor="detectorUserId" className="form-label">
            Rilevatore
          </label>
          <select
            id="detectorUserId"
            name="detectorUserId"
            className="form-select"
            defaultValue={v.detectorUserId ?? ''}
            required
            aria-invalid={result?.errors?.detectorUserId ? true : undefined}
            aria-describedby="detectorUserId-error"
          >
            <option value="">Scegli…</option>
            {detectors.map((d) => (
              <option key={d.id} value={d.id}>
                {d.lastName} {d.firstName} ({d.provinces.join(', ') || 'nessuna provincia'})
              </option>
            ))}
            <option value="none">Nessuno (togli il rilevatore)</option>
          </select>
          <FieldError id="detectorUserId" error={result?.errors?.detectorUserId?.[0]} />
        </div>
        <div className="col-md-2">
          <label htmlFor="assign-province" className="form-label">
            Provincia
          </label>
          <select
            id="assign-province"
            name="province"
            className="form-select"
            defaultValue={v.province ?? ''}
            aria-describedby="assign-filter-error"
          >
            <option value="">Tutte</option>
            {ALL_PROVINCES.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-3">
          <label htmlFor="assign-level" className="form-label">
            Grado
          </label>
          <select id="assign-level" name="level" className="form-select" defaultValue={v.level ?? ''}>
            <option value="">Tutti i gradi</option>
            {SCHOOL_LEVELS.map((l) => (
              <option key={l} value={l}>
                {SCHOOL_LEVEL_LABELS[l]}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-3">
          <label htmlFor="assign-current" className="form-label">
            Rilevatore attuale
          </label>
          <select
            id="assign-current"
            name="currentDetector"
            className="form-select"
            defaultValue={v.currentDetector ?? ''}
          >
            <option value="">Qualsiasi</option>
            <option value="none">Nessuno (plessi liberi)</option>
            {detectors.map((d) => (
              <option key={d.id} value={d.id}>
                {d.lastName} {d.firstName}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-5">
          <label htmlFor="assign-q" className="form-label">
            Nome, comune o codice del plesso
          </label>
          <input id="assign-q" name="q" className="form-control" maxLength={100} defaultValue={v.q ?? ''} />
        </div>
        <div className="col-md-4 d-flex align-items-end">
          <div className="form-check">
            <input
              id="assign-participating"
              name="participating"
              type="checkbox"
              value="true"
              className="form-check-input"
              defaultChecked={result?.values ? v.participating === 'true' : true}
            />
            <label htmlFor="assign-participating" className="form-check-label">
              Solo i plessi partecipanti
            </label>
          </div>
        </div>
        <div className="col-md-3 d-flex align-items-end">
          <button
            type="submit"
            name="intent"
            value="preview"
            className="btn btn-outline-primary"
            disabled={busy}
          >
            Conta i plessi
          </button>
        </div>
        <FieldError id="assign-filter" error={filterError?.[0]} />
        {result?.preview && (
          <div className="col-12" role="status" data-testid="assignment-preview">
            <div className="alert alert-info">
              <p className="mb-2">
                <strong>{formatNumber(result.preview.matched)} plessi</strong> corrispondono:{' '}
                {formatNumber(result.preview.added)} senza rilevatore, {formatNumber(result.preview.moved)} da
                spostare da un altro rilevatore, {formatNumber(result.preview.unchanged)} già assegnati a{' '}
                {nameOf(v.detectorUserId ?? '')}.
              </p>
              {result.preview.matched > 0 ? (
                <>
                  <input type="hidden" name="expectedCount" value={result.preview.matched} />
                  <button
                    type="submit"
                    name="intent"
                    value="apply"
                    className="btn btn-primary"
                    disabled={busy}
                  >
                    Conferma: assegna {formatNumber(result.preview.matched)} plessi a{' '}
                    {nameOf(v.detectorUserId ?? '')}
                  </button>
                </>
              ) : (
                <p className="mb-0">Nessun plesso da assegnare: cambia il filtro.</p>
              )}
            </div>
          </div>
        )}
      </Form>
      <div role="status" data-testid="assignment-result">
        {result?.done && (
          <div className="alert alert-success mt-3">
            Assegnazione completata: {formatNumber(result.done.updated)} plessi aggiornati (
            {formatNumber(result.done.added)} nuovi, {formatNumber(result.done.moved)} spostati,{' '}
            {formatNumber(result.done.unchanged)} già assegnati).
          </div>
        )}
      </div>
      {result?.message && (
        <div className="alert alert-danger mt-3" role="alert">
          {result.message}
        </div>
      )}
    </section>
  );
}

/** Staff: the detectors, the provinces each covers and how many plessi each has; bulk assignment. */
export function Component() {
  const { query, result, problem, all } = useLoaderData<Data>();
  const page = getPage('portal.detectors');
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      <AssignmentForm detectors={all} />
      <ProvincesForm detectors={all} />
      <h2 className="h4">Elenco dei rilevatori</h2>
      <FilterBar
        label="Cerca nei rilevatori"
        query={query}
        search={{ label: 'Cerca', hint: 'Nome, cognome o e-mail del rilevatore.' }}
        selects={[PROVINCE_FILTER, ACTIVE_FILTER]}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Rilevatori"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'rilevatore trovato', many: 'rilevatori trovati' }}
        noMatch="Nessun rilevatore corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportDetectors}
        exportName="rilevatori"
      />
    </>
  );
}
