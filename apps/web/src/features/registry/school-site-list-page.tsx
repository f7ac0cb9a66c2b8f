import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { getPage, href } from '@portale/shared/pages';
import {
  exportSchoolSites,
  listSchoolSites,
  SCHOOL_LEVEL_LABELS,
  type SchoolSiteSummary,
} from '@portale/shared/registry';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { useListParams } from '../../components/data-table/use-list-params.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { AdhesionBadge } from '../../components/adhesion-badge.tsx';
import {
  ADHESION_FILTER,
  LEVEL_FILTER,
  PARTICIPATING_FILTER,
  STATE_SCHOOL_FILTER,
} from './registry-labels.ts';

const DEFAULT_SORT = 'name';
const column = listColumnHelper<SchoolSiteSummary>();
const COLUMNS = [
  column.accessor('ministryCode', {
    header: 'Codice',
    cell: (c) => <span className="text-nowrap">{c.getValue()}</span>,
  }),
  column.accessor('name', {
    header: 'Denominazione',
    meta: { rowHeader: true },
    cell: (c) => <Link to={href('portal.site', { siteId: c.row.original.id })}>{c.getValue()}</Link>,
  }),
  column.accessor('schoolLevel', { header: 'Grado', cell: (c) => SCHOOL_LEVEL_LABELS[c.getValue()] }),
  column.accessor('municipalityName', { header: 'Comune' }),
  column.accessor('province', { header: 'Prov.', meta: { label: 'Provincia' } }),
  column.accessor('region', { header: 'Regione' }),
  column.accessor('instituteName', {
    header: 'Istituto',
    cell: (c) => (
      <Link to={href('portal.institute', { instituteId: c.row.original.instituteId })}>{c.getValue()}</Link>
    ),
  }),
  column.accessor('adhesionState', {
    header: 'Adesione',
    meta: { label: "Stato di adesione dell'istituto" },
    cell: (c) => <AdhesionBadge state={c.getValue()} />,
  }),
  column.accessor('participating', {
    header: 'Partecipa',
    enableSorting: false,
    cell: (c) => (c.getValue() ? 'Sì' : 'No'),
  }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'name', label: 'Denominazione' },
  { value: 'ministryCode', label: 'Codice meccanografico' },
  { value: 'schoolLevel', label: 'Grado' },
  { value: 'municipalityName', label: 'Comune' },
  { value: 'province', label: 'Provincia' },
  { value: 'region', label: 'Regione' },
  { value: 'instituteName', label: 'Istituto' },
  { value: 'adhesionState', label: 'Stato di adesione' },
]);

type Data = ListLoaderData<typeof listSchoolSites>;

export function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  return loadList(listSchoolSites, request);
}

/** Staff: the plessi of the national registry, with the same list pattern as the institutes. */
export function Component() {
  const { query, result, problem } = useLoaderData<Data>();
  const page = getPage('portal.sites');
  const list = useListParams(DEFAULT_SORT);
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      {query.instituteId && (
        <p className="alert alert-info" data-testid="institute-filter">
          Stai vedendo solo i plessi di un istituto.{' '}
          <Link to={list.hrefWith({ instituteId: null })}>Mostra tutti i plessi</Link>.
        </p>
      )}
      <FilterBar
        label="Cerca nei plessi"
        query={query}
        search={{
          label: 'Cerca',
          hint: 'Parte del nome, del comune o del codice meccanografico del plesso.',
        }}
        geography
        selects={[LEVEL_FILTER, PARTICIPATING_FILTER, STATE_SCHOOL_FILTER, ADHESION_FILTER]}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      >
        {query.instituteId && <input type="hidden" name="instituteId" value={query.instituteId} />}
      </FilterBar>
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Plessi dell'anagrafe nazionale"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'plesso trovato', many: 'plessi trovati' }}
        noMatch="Nessun plesso corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportSchoolSites}
        exportName="plessi"
      />
    </>
  );
}
