import type { ReactNode } from 'react';
import { PageMeta } from './page-meta.tsx';

/**
 * The h1 and lead sentence of a page, with its title and description meta. `documentTitle` when the h1
 * alone could name another page too (an institute and its only plesso often share a name: issue 34).
 */
export function PageHeader({
  title,
  description,
  documentTitle,
  children,
}: {
  title: string;
  description: string;
  documentTitle?: string;
  children?: ReactNode;
}) {
  return (
    <header className="mb-4">
      <PageMeta title={documentTitle ?? title} description={description} />
      <h1 className="mb-3">{title}</h1>
      <p className="lead">{description}</p>
      {children}
    </header>
  );
}
