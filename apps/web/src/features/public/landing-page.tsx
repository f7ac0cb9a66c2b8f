import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { ContentSections } from './content-sections.tsx';
import { LANDINGS } from './landing-content.ts';
import { useCurrentPage } from '../../lib/use-current-page.ts';

/** Landing pages and the educators' area: who it is for, what they will do, how it works. */
export function Component() {
  const page = useCurrentPage();
  const content = LANDINGS[page.id]!;
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description}>
        <p>{content.intro}</p>
        {content.registration && (
          <a className="btn btn-primary" href="#modulo-registrazione">
            Vai al modulo di registrazione
          </a>
        )}
        {content.cta && (
          <Link className="btn btn-primary" to={content.cta.to}>
            {content.cta.label}
          </Link>
        )}
      </PageHeader>
      <ContentSections sections={content.sections} />
      {content.registration && (
        <section
          id="modulo-registrazione"
          className="mb-5 p-4 bg-light rounded"
          aria-labelledby="modulo-registrazione-title"
        >
          <h2 id="modulo-registrazione-title" className="h3">
            {content.registration.heading}
          </h2>
          <p>Per registrarti ti servono:</p>
          <ul>
            {content.registration.needs.map((need) => (
              <li key={need}>{need}</li>
            ))}
          </ul>
          <p className="mb-0">
            I tuoi dati sono trattati come descritto nell’<Link to="/privacy">informativa sulla privacy</Link>
            . Per dubbi sulla registrazione <Link to="/contatti">scrivici</Link>.
          </p>
        </section>
      )}
    </div>
  );
}
