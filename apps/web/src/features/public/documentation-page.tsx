import { buildPath } from '@portale/shared/http';
import { downloadPublicDocument, listPublicDocuments } from '@portale/shared/public';
import { PageHeader } from '../../components/page-header.tsx';
import { apiOrigin } from '../../lib/config.ts';
import { formatDate } from '../../lib/format.ts';
import { useCurrentPage } from '../../lib/use-current-page.ts';
import { usePublicData } from './use-public-data.ts';

const size = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} kB`;

/** Published documents from the API, grouped by category, each downloadable. */
export function Component() {
  const page = useCurrentPage();
  const list = usePublicData(listPublicDocuments);
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description} />
      {/* At least a screen tall: the page is painted (prerendered) before the list arrives, and the
          footer, below the fold until then, does not jump when it does (no layout shift). */}
      <div className="min-vh-100">
        {list.status === 'loading' && <p role="status">Caricamento dei documenti…</p>}
        {list.status === 'error' && (
          <div className="alert alert-danger" role="alert">
            {list.message}
          </div>
        )}
        {list.status === 'ready' && list.data.groups.length === 0 && (
          <p>Non ci sono ancora documenti pubblicati.</p>
        )}
        {list.status === 'ready' &&
          list.data.groups.map((group) => (
            <section key={group.category} className="mb-5" aria-labelledby={`cat-${group.category}`}>
              <h2 id={`cat-${group.category}`} className="h3 mb-3">
                {group.label}
              </h2>
              <ul className="list-unstyled">
                {group.documents.map((doc) => (
                  <li key={doc.id} className="border-bottom py-3">
                    <h3 className="h5 mb-1">{doc.title}</h3>
                    <p className="mb-2">{doc.description}</p>
                    <a
                      className="btn btn-outline-primary btn-sm"
                      href={`${apiOrigin()}${buildPath(downloadPublicDocument.path, { documentId: doc.id })}`}
                      download={doc.fileName}
                    >
                      Scarica il PDF<span className="visually-hidden"> «{doc.title}»</span> (
                      {size(doc.sizeBytes)})
                    </a>
                    <span className="ms-3 small">Pubblicato il {formatDate(doc.publishedAt)}</span>
                  </li>
                ))}
              </ul>
            </section>
          ))}
      </div>
    </div>
  );
}
