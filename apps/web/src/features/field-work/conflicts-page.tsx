// "Conflitti da risolvere" (issue 39, decision 051): reports that arrived for a visit staff changed
// meanwhile, the device's version beside the visit as it is now; staff accept or discard each one.
import { useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import {
  CONFLICT_CODE_LABELS,
  CONFLICT_CODES,
  CONFLICT_STATE_LABELS,
  CONFLICT_STATES,
  exportVisitReportConflicts,
  listDetectors,
  listVisitReportConflicts,
  resolveVisitReportConflict,
  type DetectorSummary,
} from '@portale/shared/field-work';
import { getPage } from '@portale/shared/pages';
import { ExportButton } from '../../components/data-table/export-button.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListProblem } from '../../components/data-table/list-problem.tsx';
import { ListEmpty, listSummary } from '../../components/data-table/list-summary.tsx';
import { Pager } from '../../components/data-table/pager.tsx';
import { useListParams } from '../../components/data-table/use-list-params.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { failureResult, text } from '../../lib/form-data.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { ConflictCard, type ResolveResult } from './conflict-card.tsx';

const DEFAULT_SORT = '-submittedAt';
const SORT_OPTIONS = sortOptionsOf([{ value: 'submittedAt', label: 'Data di arrivo' }]);

interface Data extends ListLoaderData<typeof listVisitReportConflicts> {
  detectors: DetectorSummary[];
}

export async function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  const [list, detectors] = await Promise.all([
    loadList(listVisitReportConflicts, request),
    callApi(listDetectors, { query: { pageSize: 100, sort: 'name' } } as never, { signal: request.signal }),
  ]);
  return { ...list, detectors: detectors.items };
}

/** One conflict decided (a fetcher per card): accept, or discard with a note. */
export async function action({ request }: ActionFunctionArgs): Promise<ResolveResult> {
  const form = await request.formData();
  const clientReportId = text(form, 'clientReportId');
  const decision = text(form, 'decision') as 'accept' | 'discard';
  const note = text(form, 'note').trim();
  try {
    await callApi(resolveVisitReportConflict, {
      params: { clientReportId },
      body: { decision, ...(note ? { note } : {}) },
    });
    return {
      clientReportId,
      ok: true,
      message:
        decision === 'accept'
          ? 'Resoconto accettato: la visita è svolta e il resoconto è in revisione.'
          : 'Resoconto scartato: la versione del dispositivo resta nel registro con la nota.',
    };
  } catch (error) {
    return { clientReportId, ...failureResult(error) };
  }
}

export function Component() {
  const { query, result, problem, detectors } = useLoaderData<Data>();
  const page = getPage('portal.detector-conflicts');
  const list = useListParams(DEFAULT_SORT);
  const selects: SelectFilter[] = [
    {
      name: 'state',
      label: 'Stato',
      options: [
        ...CONFLICT_STATES.map((s) => ({ value: s, label: CONFLICT_STATE_LABELS[s] })),
        { value: 'all', label: 'Tutti' },
      ],
    },
    {
      name: 'code',
      label: 'Motivo',
      anyLabel: 'Tutti i motivi',
      options: CONFLICT_CODES.map((c) => ({ value: c, label: CONFLICT_CODE_LABELS[c] })),
    },
    {
      name: 'detectorId',
      label: 'Rilevatore',
      anyLabel: 'Tutti i rilevatori',
      options: detectors.map((d) => ({ value: String(d.id), label: `${d.lastName} ${d.firstName}` })),
    },
  ];
  const total = result?.total ?? 0;
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      <FilterBar
        label="Cerca nei conflitti"
        query={query}
        search={{ label: 'Cerca', hint: 'Nome o codice del plesso, nome del rilevatore.' }}
        selects={selects}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      {problem && <ListProblem problem={problem} />}
      <div className="mt-3">
        <ExportButton
          endpoint={exportVisitReportConflicts}
          query={query}
          total={total}
          fileBase="conflitti-resoconti"
        />
      </div>
      <p role="status" className="mt-3" data-testid="conflicts-summary">
        {listSummary(result, { one: 'conflitto trovato', many: 'conflitti trovati' })}
      </p>
      {result && result.items.length > 0 ? (
        result.items.map((c) => <ConflictCard key={c.clientReportId} conflict={c} />)
      ) : (
        <p>
          <ListEmpty
            refused={Boolean(problem)}
            page={list.page}
            total={total}
            firstPageHref={list.hrefWith({ page: null })}
            noMatch="Nessun conflitto corrisponde ai filtri."
          />
        </p>
      )}
      {result && (
        <Pager
          page={result.page}
          pageSize={result.pageSize}
          total={total}
          hrefFor={(n) => list.hrefWith({ page: n })}
        />
      )}
    </>
  );
}
