import { useMatches } from 'react-router';
import { getPage, type PageDef, type PageId } from '@portale/shared/pages';

/** The route-table entry of the page being shown. */
export function useCurrentPage(): PageDef {
  const matches = useMatches();
  const pageId = [...matches]
    .reverse()
    .map((m) => (m.handle as { pageId?: PageId } | undefined)?.pageId)
    .find(Boolean);
  return getPage(pageId ?? 'home');
}
