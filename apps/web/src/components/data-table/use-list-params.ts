import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import {
  parsePage,
  parsePageSize,
  parseSort,
  searchString,
  sortParam,
  withParams,
  type SortState,
} from './list-params.ts';

/**
 * A list's state lives in the URL (filters, sort, page, page size): a reload or a copied link shows
 * the same view. Changing anything but the page goes back to page 1.
 */
export function useListParams(defaultSort: string) {
  const [searchParams, setSearchParams] = useSearchParams();
  const sort = parseSort(searchParams.get('sort'), defaultSort);
  const hrefWith = useCallback(
    (changes: Record<string, string | number | null | undefined>) =>
      searchString(withParams(searchParams, changes)),
    [searchParams],
  );
  const setSort = useCallback(
    (next: SortState) =>
      setSearchParams(withParams(searchParams, { sort: sortParam(next) }), { preventScrollReset: true }),
    [searchParams, setSearchParams],
  );
  return {
    searchParams,
    sort,
    page: parsePage(searchParams.get('page')),
    pageSize: parsePageSize(searchParams.get('pageSize')),
    hrefWith,
    setSort,
  };
}
