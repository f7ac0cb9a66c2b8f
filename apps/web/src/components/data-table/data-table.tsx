import { useMemo, type ReactNode } from 'react';
import {
  createColumnHelper,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowData,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useLocation, useNavigation } from 'react-router';
import { Button } from 'design-react-kit';
import type { SortState } from './list-params.ts';

/** What a column says beyond TanStack's definition. */
export interface DataColumnMeta {
  /** Label of the cell on a phone, where rows become cards (defaults to the string header). */
  label?: string;
  /** This column names the row: rendered as `<th scope="row">`. */
  rowHeader?: boolean;
  className?: string;
}

/** The table features of every list: server-side sorting only (filters and pages live in the URL). */
export const listFeatures = tableFeatures({ rowSortingFeature, columnMeta: {} as DataColumnMeta });
export type ListFeatures = typeof listFeatures;
export type ListColumn<T extends RowData> = ColumnDef<ListFeatures, T, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The column helper of a list of `T` (columns are module constants: stable inputs for the table). */
export function listColumnHelper<T extends RowData>() {
  return createColumnHelper<ListFeatures, T>();
}

/** True while the router loads a new view of the current list (filters, sort or page changed). */
export function useListLoading(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  return navigation.state === 'loading' && navigation.location?.pathname === location.pathname;
}

interface DataTableProps<T extends RowData> {
  /** Says what the table lists; read first by screen readers. */
  caption: ReactNode;
  columns: ListColumn<T>[];
  data: T[];
  sort: SortState;
  onSortChange: (sort: SortState) => void;
  getRowId: (row: T) => string;
  /** Shown in the table when no row matches. */
  empty: ReactNode;
  /** One sentence on the results ("19.659 istituti, pagina 1 di 787"), announced when it changes. */
  summary: string;
}

function ariaSort(sorted: false | 'asc' | 'desc'): 'ascending' | 'descending' | undefined {
  return sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined;
}

function SortIcon({ sorted }: { sorted: false | 'asc' | 'desc' }) {
  return (
    <span aria-hidden="true" className={`data-table-sort-icon${sorted ? ' is-active' : ''}`}>
      {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
    </span>
  );
}

/**
 * The list table of every staff screen (TanStack Table, server-side mode): a caption, `scope` headers,
 * sortable headers as buttons with `aria-sort`, an empty state, a loading state while the next view
 * loads, and rows that become labelled cards on a phone.
 */
export function DataTable<T extends RowData>({
  caption,
  columns,
  data,
  sort,
  onSortChange,
  getRowId,
  empty,
  summary,
}: DataTableProps<T>) {
  const loading = useListLoading();
  const sorting = useMemo<SortingState>(
    () => [{ id: sort.column, desc: sort.direction === 'desc' }],
    [sort.column, sort.direction],
  );
  const table = useTable({
    features: listFeatures,
    columns,
    data,
    getRowId,
    manualSorting: true,
    enableSortingRemoval: false,
    enableMultiSort: false,
    state: { sorting },
    onSortingChange: (updater: Updater<SortingState>) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const first = next[0];
      if (first) onSortChange({ column: first.id, direction: first.desc ? 'desc' : 'asc' });
    },
  });
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const rows = table.getRowModel().rows;
  return (
    <div className={`data-table-wrapper${loading ? ' is-loading' : ''}`}>
      {/* Always in the page, so that each change is announced (a live region added later may not be). */}
      <p className="data-table-status fw-semibold" role="status" data-testid="list-status">
        {loading ? 'Caricamento dei risultati…' : summary}
      </p>
      <div className="data-table-scroll">
        <table className="table data-table" aria-busy={loading || undefined}>
          <caption className="caption-top">{caption}</caption>
          <thead>
            <tr>
              {headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const label = <table.FlexRender header={header} />;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={ariaSort(sorted)}
                    className={header.column.columnDef.meta?.className}
                  >
                    {header.column.getCanSort() ? (
                      <Button
                        type="button"
                        color="link"
                        className="data-table-sort p-0"
                        onClick={header.column.getToggleSortingHandler()}
                      >
                        {label}
                        <SortIcon sorted={sorted} />
                        <span className="visually-hidden">
                          {sorted === 'asc'
                            ? ', ordinati in modo crescente'
                            : sorted === 'desc'
                              ? ', ordinati in modo decrescente'
                              : ', ordina'}
                        </span>
                      </Button>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr className="data-table-empty">
                <td colSpan={headers.length}>{empty}</td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.id}>
                  {row.getAllCells().map((cell) => {
                    const def = cell.column.columnDef;
                    const cardLabel =
                      def.meta?.label ?? (typeof def.header === 'string' ? def.header : cell.column.id);
                    const content = <table.FlexRender cell={cell} />;
                    return def.meta?.rowHeader ? (
                      <th key={cell.id} scope="row" data-label={cardLabel} className={def.meta?.className}>
                        {content}
                      </th>
                    ) : (
                      <td key={cell.id} data-label={cardLabel} className={def.meta?.className}>
                        {content}
                      </td>
                    );
                  })}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
