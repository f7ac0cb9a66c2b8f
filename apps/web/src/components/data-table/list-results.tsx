import { Link } from 'react-router';
import type { Endpoint } from '@portale/shared/http';
import type { ListProblem as Problem } from '../../lib/list-loader.ts';
import { DataTable, type ListColumn } from './data-table.tsx';
import { ExportButton } from './export-button.tsx';
import { ListProblem } from './list-problem.tsx';
import { ListEmpty, listSummary } from './list-summary.tsx';
import { Pager } from './pager.tsx';
import { useListParams } from './use-list-params.ts';

/** A stable empty list (a new [] each render would make the table recompute). */
const NONE: never[] = [];

interface Page<T> {
  items: T[];
  total: number;
  totalApproximate?: boolean;
  page: number;
  pageSize: number;
}

interface ListResultsProps<T extends { id: number }> {
  /** What the loader returned: the URL's query and the page, or the API's 422. */
  query: Record<string, string>;
  result: Page<T> | null;
  problem: Problem | null;
  caption: string;
  columns: ListColumn<T>[];
  defaultSort: string;
  /** "istituto trovato" / "istituti trovati" for the status line. */
  nouns: { one: string; many: string };
  /** The empty state when filters match nothing. */
  noMatch: string;
  exportEndpoint: Endpoint;
  /** Base of the downloaded file's name (`istituti` → `istituti-2026-11-22.csv`). */
  exportName: string;
  /** Path params of the export endpoint (the bookings of one slot). */
  exportParams?: Record<string, string | number>;
}

/**
 * Everything under a list's filter bar, the same on every list: the 422 message, the export of
 * exactly what is shown, the table with its status line and empty state, and the pager.
 */
export function ListResults<T extends { id: number }>(props: ListResultsProps<T>) {
  const { query, result, problem } = props;
  const list = useListParams(props.defaultSort);
  const total = result?.total ?? 0;
  return (
    <>
      {problem && <ListProblem problem={problem} />}
      <div className="d-flex flex-wrap justify-content-between align-items-start gap-3 mb-2">
        <ExportButton
          endpoint={props.exportEndpoint}
          query={query}
          total={total}
          fileBase={props.exportName}
          params={props.exportParams}
        />
        {result?.totalApproximate && (
          <Link to={list.hrefWith({ exactTotal: 'true' })} preventScrollReset>
            Conta esattamente i risultati
          </Link>
        )}
      </div>
      <DataTable
        caption={props.caption}
        summary={listSummary(result, props.nouns)}
        columns={props.columns}
        data={result?.items ?? (NONE as T[])}
        sort={list.sort}
        onSortChange={list.setSort}
        getRowId={(row) => String(row.id)}
        empty={
          <ListEmpty
            refused={Boolean(problem)}
            page={list.page}
            total={total}
            firstPageHref={list.hrefWith({ page: null })}
            noMatch={props.noMatch}
          />
        }
      />
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
