import { Link } from 'react-router';
import { PROGRAMME } from '@portale/shared/public';
import { PageHeader } from '../../components/page-header.tsx';
import { ContentSections, type ContentSection } from './content-sections.tsx';
import { useCurrentPage } from '../../lib/use-current-page.ts';

const ROLES: ContentSection[] = [
  {
    id: 'ruoli',
    heading: 'I ruoli nel programma',
    items: [
      <>
        <strong>Staff Sylla e Cromos</strong>: verificano iscrizioni, adesioni e registrazioni, assegnano le
        azioni, seguono l’avanzamento.
      </>,
      <>
        <strong>Rilevatori</strong>: visitano i plessi assegnati, raccolgono le osservazioni e scrivono il
        rapporto di visita.
      </>,
      <>
        <strong>Dirigenti scolastici</strong>: iscrivono l’istituto e firmano l’adesione formale.
      </>,
      <>
        <strong>Referenti d’istituto</strong>: preparano l’adesione, tengono aggiornati i dati dei plessi e
        chiedono le sostituzioni.
      </>,
      <>
        <strong>Insegnanti ed educatori</strong>: rispondono ai questionari e coinvolgono le classi con i
        codici di accesso.
      </>,
      <>
        <strong>Amministrazione della piattaforma</strong>: gestisce gli utenti, i modelli dei messaggi e la
        sicurezza del portale.
      </>,
    ],
  },
];

/** The two partner organisations and the roles in the programme. */
export function Component() {
  const page = useCurrentPage();
  const { controller, partner } = PROGRAMME;
  const partners = [
    {
      name: controller.name,
      role: controller.role,
      address: controller.address,
      text: 'Coordina il programma, cura il disegno dell’indagine e l’analisi dei dati, ed è il riferimento per le istituzioni e per la protezione dei dati.',
    },
    {
      name: partner.name,
      role: partner.role,
      address: partner.address,
      text: 'Organizza il lavoro sul campo: forma e coordina i rilevatori, pianifica le visite nei plessi e segue l’assistenza alle scuole.',
    },
  ];
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description} />
      <section className="mb-5" aria-labelledby="partner-title">
        <h2 id="partner-title" className="h3 mb-4">
          Le organizzazioni partner
        </h2>
        <div className="row g-4">
          {partners.map((p) => (
            <div className="col-12 col-md-6" key={p.name}>
              <div className="card h-100 shadow-sm">
                <div className="card-body">
                  <h3 className="card-title h4">{p.name}</h3>
                  <p className="fw-semibold">{p.role[0]!.toUpperCase() + p.role.slice(1)}</p>
                  <p className="card-text">{p.text}</p>
                  <p className="card-text small mb-0">{p.address}</p>
                </div>
              </div>
            </div>
          ))}
        </div>
      </section>
      <ContentSections sections={ROLES} />
      <p>
        Vuoi parlare con noi? Trovi indirizzi e modulo nella pagina <Link to="/contatti">Contatti</Link>.
      </p>
    </div>
  );
}
