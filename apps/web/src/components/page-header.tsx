import type { ReactNode } from 'react';
import { PageMeta } from './page-meta.tsx';

/** The h1 and lead sentence of a page, with its title and description meta. */
export function PageHeader({ title, description, children }: { title: string; description: string; children?: ReactNode }) {
  return (
    <header className="mb-4">
      <PageMeta title={title} description={description} />
      <h1 className="mb-3">{title}</h1>
      <p className="lead">{description}</p>
      {children}
    </header>
  );
}
