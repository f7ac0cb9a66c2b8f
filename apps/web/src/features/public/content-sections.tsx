import type { ReactNode } from 'react';

export interface ContentSection {
  id: string;
  heading: string;
  paragraphs?: ReactNode[];
  items?: ReactNode[];
  ordered?: boolean;
}

/** Sections of a text page: an h2 each, with paragraphs and an optional list. */
export function ContentSections({ sections }: { sections: readonly ContentSection[] }) {
  return (
    <>
      {sections.map((section) => (
        <section key={section.id} id={section.id} className="mb-5" aria-labelledby={`${section.id}-title`}>
          <h2 id={`${section.id}-title`} className="h3 mb-3">
            {section.heading}
          </h2>
          {section.paragraphs?.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
          {section.items &&
            (section.ordered ? (
              <ol>
                {section.items.map((item, i) => (
                  <li key={i} className="mb-2">
                    {item}
                  </li>
                ))}
              </ol>
            ) : (
              <ul>
                {section.items.map((item, i) => (
                  <li key={i} className="mb-2">
                    {item}
                  </li>
                ))}
              </ul>
            ))}
        </section>
      ))}
    </>
  );
}
