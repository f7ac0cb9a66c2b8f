import type { ReactNode } from 'react';

/** A titled part of a detail page: an h2 that names the section (`${id}-title`). */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="mb-5">
      <h2 id={`${id}-title`} className="h4 mb-3">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** One term and its value in a facts list. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="col-sm-4">{label}</dt>
      <dd className="col-sm-8">{children}</dd>
    </>
  );
}
