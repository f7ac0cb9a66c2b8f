import { useDeferredValue, useMemo } from 'react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { decodeMapColumns, getMapSchoolSites, type MapSchoolSites } from '@portale/shared/map';
import { getPage } from '@portale/shared/pages';
import { PageHeader } from '../../components/page-header.tsx';
import { formatNumber } from '../../lib/format.ts';
import { loadList, type ListProblem } from '../../lib/list-loader.ts';
import { MapFilters } from './map-filters.tsx';
import { MapLegend } from './map-legend.tsx';
import { SiteCountsTable } from './site-counts-table.tsx';
import './map.css';

// MapLibre (WebGL, ~250 KB gzip) arrives only with this page, together with its data: never on other
// pages. The loader waits for both, so the page renders the map at once: a lazy component would show a
// fallback first, and React holds a revealed fallback for up to 300 ms.
let schoolMapModule: typeof import('./school-map.tsx') | null = null;

interface MapData {
  query: Record<string, string>;
  data: MapSchoolSites | null;
  problem: ListProblem | null;
}

export async function loader({ request }: LoaderFunctionArgs): Promise<MapData> {
  const [module, { query, result, problem }] = await Promise.all([
    import('./school-map.tsx'),
    loadList(getMapSchoolSites, request),
  ]);
  schoolMapModule = module;
  return { query, data: result, problem };
}

/** Staff: every plesso of the registry on a map of Italy, with its accessible twin (a table of counts). */
export function Component() {
  const { query, data, problem } = useLoaderData<MapData>();
  const SchoolMap = schoolMapModule!.default;
  const page = getPage('portal.map');
  const sites = useMemo(() => (data ? decodeMapColumns(data) : null), [data]);
  // The table renders just after the map has handed its places to MapLibre's worker: its ~130 rows
  // are drawn while the worker clusters, not before (the first clustered view is 0.1–0.2 s sooner).
  const tableSites = useDeferredValue(sites, null);
  const filtered = Object.keys(query).length > 0;
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      <MapFilters query={query} errors={problem?.errors ?? {}} />
      {problem && (
        <div className="alert alert-danger" role="alert" data-testid="map-problem">
          {problem.message} Correggi i filtri evidenziati.
        </div>
      )}
      {sites && (
        <>
          <p role="status" className="fw-semibold" data-testid="map-total">
            {sites.count === 1 ? '1 plesso' : `${formatNumber(sites.count)} plessi`}
            {filtered ? ' corrispondono ai filtri.' : " dell'anagrafe nazionale."}
          </p>
          {sites.count === 0 ? (
            <div className="alert alert-info" data-testid="map-empty">
              <p className="mb-2">
                Nessun plesso corrisponde ai filtri scelti: la mappa non ha nulla da mostrare.
              </p>
              <Link to="?">Mostra tutti i plessi</Link>
            </div>
          ) : (
            <>
              <a className="visually-hidden-focusable" href="#tabella-plessi">
                Salta la mappa e vai alla tabella dei conteggi
              </a>
              <div className="row g-3 mb-4">
                <div className="col-12 col-lg-9">
                  <section aria-label="Mappa dei plessi" aria-describedby="map-help">
                    <p id="map-help" className="small mb-2">
                      Trascina o usa le frecce per spostarti, i tasti + e − o i pulsanti per ingrandire;
                      seleziona un gruppo per aprirlo e un plesso per vederne i dati. La tabella sotto la
                      mappa riporta gli stessi plessi.
                    </p>
                    <SchoolMap sites={sites} />
                  </section>
                </div>
                <div className="col-12 col-lg-3">
                  <MapLegend />
                </div>
              </div>
              <section id="tabella-plessi" aria-labelledby="tabella-plessi-titolo" tabIndex={-1}>
                <h2 id="tabella-plessi-titolo" className="h4">
                  Plessi per regione e provincia
                </h2>
                {tableSites === sites ? (
                  <SiteCountsTable sites={sites} query={query} />
                ) : (
                  <p className="small" data-testid="map-counts-loading">
                    Preparazione della tabella…
                  </p>
                )}
              </section>
            </>
          )}
        </>
      )}
    </>
  );
}
