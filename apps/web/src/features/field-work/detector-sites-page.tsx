import { lazy, Suspense } from 'react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { exportMySchoolSites, listMySchoolSites, type DetectorSiteSummary } from '@portale/shared/field-work';
import { getPage, href } from '@portale/shared/pages';
import { SCHOOL_LEVEL_LABELS } from '@portale/shared/registry';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatShortDateTime } from '../../lib/format.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { LEVEL_FILTER, PLANNED_FILTER, PROVINCE_FILTER } from './field-work-labels.ts';

const DEFAULT_SORT = 'name';
const column = listColumnHelper<DetectorSiteSummary>();
const COLUMNS = [
  column.accessor('ministryCode', {
    header: 'Codice',
    enableSorting: false,
    cell: (c) => <span className="text-nowrap">{c.getValue()}</span>,
  }),
  column.accessor('name', {
    header: 'Plesso',
    meta: { rowHeader: true },
    cell: (c) => <Link to={href('portal.detector-site', { siteId: c.row.original.id })}>{c.getValue()}</Link>,
  }),
  column.accessor('schoolLevel', {
    header: 'Grado',
    enableSorting: false,
    cell: (c) => SCHOOL_LEVEL_LABELS[c.getValue()],
  }),
  column.accessor('address', {
    header: 'Indirizzo',
    enableSorting: false,
    cell: (c) =>
      [c.getValue(), [c.row.original.postalCode, c.row.original.municipalityName].filter(Boolean).join(' ')]
        .filter(Boolean)
        .join(', '),
  }),
  column.accessor('municipalityName', { header: 'Comune' }),
  column.accessor('province', { header: 'Prov.', meta: { label: 'Provincia' } }),
  column.accessor('teacherCount', { header: 'Insegnanti' }),
  column.accessor('nextVisitAt', {
    header: 'Prossima visita',
    cell: (c) => {
      const v = c.getValue();
      return v ? formatShortDateTime(v) : <span className="text-muted">nessuna</span>;
    },
  }),
  column.accessor('detector', {
    header: 'Rilevatore',
    enableSorting: false,
    cell: (c) => {
      const d = c.getValue();
      return d ? `${d.firstName} ${d.lastName}` : '';
    },
  }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'name', label: 'Plesso' },
  { value: 'municipalityName', label: 'Comune' },
  { value: 'province', label: 'Provincia' },
  { value: 'nextVisitAt', label: 'Prossima visita' },
  { value: 'teacherCount', label: 'Numero di insegnanti' },
]);

type Data = ListLoaderData<typeof listMySchoolSites>;

/**
 * The unsent reports on this device, on the detector's first page too: a report of a plesso that went to
 * another detector stays reachable (retry, export, discard) once that plesso's pages are not (decision 061).
 */
const OfflineReportsPanel = lazy(() => import('./offline/offline-reports-panel.tsx'));

export function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  return loadList(listMySchoolSites, request);
}

/** A detector's own plessi (the super-admin sees every assigned plesso). */
export function Component() {
  const { query, result, problem } = useLoaderData<Data>();
  const page = getPage('portal.detector-sites');
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      <Suspense fallback={null}>
        <OfflineReportsPanel />
      </Suspense>
      <FilterBar
        label="Cerca nei miei plessi"
        query={query}
        search={{
          label: 'Cerca',
          hint: 'Parte del nome, del comune o del codice meccanografico del plesso.',
        }}
        selects={[PROVINCE_FILTER, LEVEL_FILTER, PLANNED_FILTER]}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Plessi assegnati"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'plesso trovato', many: 'plessi trovati' }}
        noMatch="Nessun plesso assegnato corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportMySchoolSites}
        exportName="plessi-assegnati"
      />
    </>
  );
}
