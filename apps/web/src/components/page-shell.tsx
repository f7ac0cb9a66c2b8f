import { PageHeader } from './page-header.tsx';

/**
 * The first paint of a public page whose content is the API's answer (prerendered at build time,
 * docs/decisions/008): its heading and lead sentence, as the page itself starts, and a loading line in
 * a screen's height, so that the footer does not jump when the content arrives.
 */
export function PageShell({ title, description }: { title: string; description: string }) {
  return (
    <div className="container my-5 page-shell">
      <PageHeader title={title} description={description} />
      <p role="status" className="text-secondary">
        Caricamento dei contenuti…
      </p>
    </div>
  );
}
