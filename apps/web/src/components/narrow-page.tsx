import type { ReactNode } from 'react';
import { PageHeader } from './page-header.tsx';

/** A single centred column with the page header: the frame of the sign-in and account forms. */
export function NarrowPage({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <div className="container my-5">
      <div className="row justify-content-center">
        <div className="col-md-8 col-lg-6">
          <PageHeader title={title} description={description} />
          {children}
        </div>
      </div>
    </div>
  );
}
