import { PageHeader } from '../../components/page-header.tsx';
import { ContentSections } from './content-sections.tsx';
import { LEGAL_PAGES } from './legal-content.tsx';
import { useCurrentPage } from '../../lib/use-current-page.ts';

/** Privacy notice, legal notes and the accessibility statement (AgID model). */
export function Component() {
  const page = useCurrentPage();
  const content = LEGAL_PAGES[page.id]!;
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description}>
        <p className="small">Ultimo aggiornamento: {content.updated}</p>
      </PageHeader>
      <div style={{ maxWidth: '50rem' }}>
        <ContentSections sections={content.sections} />
      </div>
    </div>
  );
}
