import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { getPage, href } from '@portale/shared/pages';
import { exportInstitutes, listInstitutes, type InstituteSummary } from '@portale/shared/registry';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { formatNumber } from '../../lib/format.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { AdhesionBadge } from '../../components/adhesion-badge.tsx';
import { ADHESION_FILTER, LEVEL_FILTER, STATE_SCHOOL_FILTER } from './registry-labels.ts';

const DEFAULT_SORT = 'name';
const column = listColumnHelper<InstituteSummary>();
const COLUMNS = [
  column.accessor('ministryCode', {
    header: 'Codice',
    cell: (c) => <span className="text-nowrap">{c.getValue()}</span>,
  }),
  column.accessor('name', {
    header: 'Denominazione',
    meta: { rowHeader: true },
    cell: (c) => (
      <Link to={href('portal.institute', { instituteId: c.row.original.id })}>{c.getValue()}</Link>
    ),
  }),
  column.accessor('municipalityName', { header: 'Comune' }),
  column.accessor('province', { header: 'Prov.', meta: { label: 'Provincia' } }),
  column.accessor('region', { header: 'Regione' }),
  column.accessor('isStateSchool', {
    header: 'Tipo',
    enableSorting: false,
    cell: (c) => (c.getValue() ? 'Statale' : 'Paritaria'),
  }),
  column.accessor('adhesionState', {
    header: 'Adesione',
    meta: { label: 'Stato di adesione' },
    cell: (c) => <AdhesionBadge state={c.getValue()} />,
  }),
  column.accessor('schoolSiteCount', {
    header: 'Plessi',
    meta: { className: 'text-end' },
    cell: (c) => formatNumber(c.getValue()),
  }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'name', label: 'Denominazione' },
  { value: 'ministryCode', label: 'Codice meccanografico' },
  { value: 'municipalityName', label: 'Comune' },
  { value: 'province', label: 'Provincia' },
  { value: 'region', label: 'Regione' },
  { value: 'adhesionState', label: 'Stato di adesione' },
  { value: 'adhesionStateChangedAt', label: "Data dell'ultimo cambio di stato" },
  { value: 'schoolSiteCount', label: 'Numero di plessi' },
]);

type Data = ListLoaderData<typeof listInstitutes>;

export function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  return loadList(listInstitutes, request);
}

/** Staff: the national registry of institutes, searched, filtered, sorted and paged on the server. */
export function Component() {
  const { query, result, problem } = useLoaderData<Data>();
  const page = getPage('portal.institutes');
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      <FilterBar
        label="Cerca negli istituti"
        query={query}
        search={{ label: 'Cerca', hint: 'Parte del nome, del comune o del codice meccanografico.' }}
        geography
        selects={[LEVEL_FILTER, STATE_SCHOOL_FILTER, ADHESION_FILTER]}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Istituti dell'anagrafe nazionale"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'istituto trovato', many: 'istituti trovati' }}
        noMatch="Nessun istituto corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportInstitutes}
        exportName="istituti"
      />
    </>
  );
}
