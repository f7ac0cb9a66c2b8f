import { Link, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
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
import { getPage, href } from '@portale/shared/pages';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatNumber, formatShortDateTime } from '../../lib/format.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { ALL_PROVINCES, PROVINCE_FILTER } from './field-work-labels.ts';
import { AssignmentForm, ProvincesForm } from './detector-assignment-forms.tsx';
import {
  draftsImportAction,
  DraftsImportForm,
  IMPORT_INTENTS,
  type DraftsImportOutcome,
} from './detector-drafts-import.tsx';
import { unsentLabel } from './offline/sync-age.ts';

const DEFAULT_SORT = 'name';
const column = listColumnHelper<DetectorSummary>();
const COLUMNS = [
  column.display({
    id: 'name',
    header: 'Rilevatore',
    meta: { rowHeader: true },
    cell: (c) => (
      <Link to={href('portal.detector', { userId: c.row.original.id })}>
        {c.row.original.lastName} {c.row.original.firstName}
      </Link>
    ),
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
  column.accessor('unsentReports', {
    header: 'Resoconti non inviati',
    enableSorting: false,
    // What the detector's devices last said (issue 39): staff call a detector whose reports wait.
    cell: (c) => {
      const label = unsentLabel(c.row.original);
      return c.getValue() > 0 ? <strong className="text-danger">{label}</strong> : label;
    },
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

export interface AssignResult {
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

export async function action({ request }: ActionFunctionArgs): Promise<AssignResult | DraftsImportOutcome> {
  const form = await request.formData();
  if (form.get('intent') === 'provinces') return { provinces: await saveProvinces(form) };
  if (IMPORT_INTENTS.includes(form.get('intent') as (typeof IMPORT_INTENTS)[number]))
    return draftsImportAction(form);
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

export function Component() {
  const { query, result, problem, all } = useLoaderData<Data>();
  const page = getPage('portal.detectors');
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      <AssignmentForm detectors={all} />
      <ProvincesForm detectors={all} />
      <DraftsImportForm detectors={all} />
      <p>
        <Link to={href('portal.detector-conflicts')}>Conflitti da risolvere</Link>: i resoconti arrivati per
        visite annullate, mancate o di un altro rilevatore.
      </p>
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
