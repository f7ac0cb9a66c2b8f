import { NarrowPage } from './narrow-page.tsx';
import { PageHeader } from './page-header.tsx';

/**
 * The first paint of a public page whose content is the API's answer, or the address bar's (prerendered
 * at build time, docs/decisions/008): its heading and lead sentence, as the page itself starts (in a
 * `container`, or the narrow column of `NarrowPage`), and a loading line in a screen's height, so
 * that the footer does not jump when the content arrives.
 */
export function PageShell({
  title,
  description,
  narrow = false,
}: {
  title: string;
  description: string;
  narrow?: boolean;
}) {
  const loading = (
    <p role="status" className="text-secondary">
      Caricamento dei contenuti…
    </p>
  );
  return (
    <div className="page-shell">
      {narrow ? (
        <NarrowPage title={title} description={description}>
          {loading}
        </NarrowPage>
      ) : (
        <div className="container my-5">
          <PageHeader title={title} description={description} />
          {loading}
        </div>
      )}
    </div>
  );
}
