import { useMemo } from 'react';
import { Link, useLoaderData, useParams, type LoaderFunctionArgs } from 'react-router';
import { canSome } from '@portale/shared/auth';
import { href } from '@portale/shared/pages';
import {
  exportReviews,
  listReviews,
  REVIEW_STATE_LABELS,
  REVIEW_STATES,
  REVIEW_TYPE_LABELS,
  type ReviewState,
  type ReviewSummary,
  type ReviewType,
} from '@portale/shared/reviews';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar } from '../../components/data-table/filter-bar.tsx';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { useListParams } from '../../components/data-table/use-list-params.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { useSession } from '../../lib/session.ts';
import { StateBadge } from './review-item.tsx';
import { boundTo, DEFAULT_SORT, QUEUE_TEXTS, SORT_OPTIONS, STATE_FILTER } from './review-labels.ts';

type Data = ListLoaderData<typeof listReviews>;

export function loader({ params, request }: LoaderFunctionArgs): Promise<Data> {
  // The router has already checked that `reviewType` is a known type (404 page otherwise).
  return loadList(boundTo(listReviews, params.reviewType as ReviewType), request);
}

const column = listColumnHelper<ReviewSummary>();

function columnsFor(type: ReviewType, canDecide: boolean) {
  const texts = QUEUE_TEXTS[type];
  return [
    column.accessor('title', {
      header: texts.subject,
      meta: { rowHeader: true },
      cell: (c) =>
        canDecide ? (
          <Link to={`${href('portal.review', { reviewType: type })}?item=${c.row.original.id}`}>
            {c.getValue()}
          </Link>
        ) : (
          c.getValue()
        ),
    }),
    column.accessor('code', { header: texts.code, enableSorting: false }),
    column.accessor('place', { header: texts.place, enableSorting: false, cell: (c) => c.getValue() ?? '—' }),
    column.accessor('state', {
      header: 'Stato',
      enableSorting: false,
      cell: (c) => (
        <>
          <StateBadge state={c.getValue()} />
          {c.row.original.claimedBy && (
            <span className="d-block small text-muted">in revisione: {c.row.original.claimedBy}</span>
          )}
        </>
      ),
    }),
    column.accessor('submittedAt', { header: 'Inviato il', cell: (c) => formatDateTime(c.getValue()) }),
    column.accessor('decidedAt', {
      header: 'Deciso il',
      cell: (c) => {
        const at = c.getValue();
        if (!at) return <span className="text-muted">—</span>;
        const by = c.row.original.decidedBy;
        return (
          <>
            {formatDateTime(at)}
            {by && <span className="d-block small">da {by}</span>}
          </>
        );
      },
    }),
  ];
}

/** The counts per state of the whole queue, each a link that filters the list (the current one marked). */
function StateChips({
  counts,
  current,
}: {
  counts: Record<ReviewState, number>;
  current: string | undefined;
}) {
  const list = useListParams(DEFAULT_SORT);
  const total = REVIEW_STATES.reduce((sum, s) => sum + counts[s], 0);
  const chips: { state: ReviewState | null; label: string; value: number }[] = [
    { state: null, label: 'Tutti', value: total },
    ...REVIEW_STATES.map((s) => ({ state: s, label: REVIEW_STATE_LABELS[s], value: counts[s] })),
  ];
  return (
    <nav aria-label="Filtra per stato" className="mb-4">
      <ul className="list-inline mb-0" data-testid="review-counts">
        {chips.map((chip) => {
          const active = (chip.state ?? undefined) === (current || undefined);
          return (
            <li key={chip.label} className="list-inline-item mb-2">
              <Link
                to={list.hrefWith({ state: chip.state, page: null })}
                className={`btn btn-sm ${active ? 'btn-primary' : 'btn-outline-primary'}`}
                data-state={chip.state ?? 'tutti'}
                data-count={chip.value}
                {...(active ? { 'aria-current': 'true' as const } : {})}
              >
                {chip.label}: {formatNumber(chip.value)}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** Staff and user.index: a review queue with its counts; staff start walking it from here. */
export function Component() {
  const { query, result, problem } = useLoaderData<Data>();
  const type = useParams().reviewType as ReviewType;
  const { user } = useSession();
  const canDecide = canSome(user, 'decide:review');
  const columns = useMemo(() => columnsFor(type, canDecide), [type, canDecide]);
  const exportEndpoint = useMemo(() => boundTo(exportReviews, type), [type]);
  const texts = QUEUE_TEXTS[type];
  const title = `Revisioni: ${REVIEW_TYPE_LABELS[type].toLowerCase()}`;
  const pending = result?.counts.in_attesa ?? 0;
  return (
    <>
      <PageHeader
        title={title}
        description={`La coda delle revisioni: ${REVIEW_TYPE_LABELS[type].toLowerCase()}, con i conteggi per stato.`}
      >
        {canDecide && (
          <p className="mb-0">
            <Link
              className="btn btn-primary"
              to={href('portal.review', { reviewType: type })}
              data-testid="start-review"
            >
              Inizia la revisione
            </Link>
            <span className="ms-3">
              {pending === 1 ? '1 elemento in attesa' : `${formatNumber(pending)} elementi in attesa`}
            </span>
          </p>
        )}
      </PageHeader>
      {result && <StateChips counts={result.counts} current={query.state} />}
      <FilterBar
        label="Cerca nella coda"
        query={query}
        search={{ label: 'Cerca', hint: texts.search }}
        selects={[STATE_FILTER]}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption={REVIEW_TYPE_LABELS[type]}
        columns={columns}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: texts.one, many: texts.many }}
        noMatch={texts.noMatch}
        exportEndpoint={exportEndpoint}
        exportName={`revisioni-${type}`}
      />
    </>
  );
}
