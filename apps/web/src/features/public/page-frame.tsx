import { useMatches } from 'react-router';
import { getPage, type PageId } from '@portale/shared/pages';
import { PageHeader } from '../../components/page-header.tsx';

/** Page frame from the route table: h1 and what the section is for. */
export function Component() {
  const matches = useMatches();
  const pageId = (matches.at(-1)?.handle as { pageId: PageId }).pageId;
  const page = getPage(pageId);
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description} />
    </div>
  );
}
