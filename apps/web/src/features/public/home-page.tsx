import { Link } from 'react-router';
import { getPublicFigures } from '@portale/shared/public';
import { PageMeta } from '../../components/page-meta.tsx';
import { useCurrentPage } from '../../lib/use-current-page.ts';
import { usePublicData } from './use-public-data.ts';
import { formatNumber } from '../../lib/format.ts';

const AUDIENCES = [
  {
    title: 'Scuole',
    text: "Il dirigente iscrive l'istituto, firma l'adesione e sceglie i plessi che partecipano. In cambio riceve un rapporto con i dati della propria scuola.",
    to: '/iscrizioni/iscrizione',
    cta: 'Iscrivi la tua scuola',
  },
  {
    title: 'Insegnanti',
    text: 'Chi insegna in un plesso partecipante risponde al questionario e genera i codici con cui le classi rispondono in forma anonima.',
    to: '/landing/registrazioni/insegnante',
    cta: 'Registrati come insegnante',
  },
  {
    title: 'Educatrici ed educatori',
    text: "Chi lavora nei servizi educativi e nel sostegno ha un questionario dedicato e un'area con materiali e incontri.",
    to: '/landing/registrazioni/educatore',
    cta: 'Registrati come educatore',
  },
];

function KeyFigures() {
  const figures = usePublicData(getPublicFigures);
  const items = [
    { key: 'institutesEnrolled', label: 'istituti iscritti' },
    { key: 'participatingSites', label: 'plessi partecipanti' },
    { key: 'registeredTeachers', label: 'insegnanti ed educatori registrati' },
  ] as const;
  return (
    <section className="my-5" aria-labelledby="numeri-title">
      <h2 id="numeri-title" className="h3 mb-4">
        Il programma in numeri
      </h2>
      {figures.status === 'error' && <p>I numeri del programma non sono disponibili in questo momento.</p>}
      <dl className="row g-4 mb-0" aria-busy={figures.status === 'loading'}>
        {items.map((item) => (
          <div className="col-12 col-md-4 d-flex flex-column-reverse justify-content-end" key={item.key}>
            <dt className="fw-normal">{item.label}</dt>
            <dd className="key-figure mb-0" data-testid={`figure-${item.key}`}>
              {figures.status === 'ready' ? formatNumber(figures.data[item.key]) : '–'}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Home: what the programme is, who it is for, calls to action, live key figures. */
export function Component() {
  const page = useCurrentPage();
  return (
    <>
      <PageMeta title={page.title} description={page.description} />
      <div className="bg-primary text-white">
        <div className="container py-5">
          <h1 className="text-white mb-3">L’indagine nazionale che dà voce alle scuole italiane</h1>
          <p className="lead text-white mb-4" style={{ maxWidth: '46rem' }}>
            Portale Scuole è il programma pluriennale che raccoglie, con le scuole statali di tutta Italia,
            dati affidabili su didattica, spazi e benessere, e li restituisce a ogni istituto, alle famiglie e
            a chi decide.
          </p>
          <div className="d-flex flex-wrap gap-3">
            <Link className="btn btn-light text-primary" to="/iscrizioni/iscrizione">
              Iscrivi la tua scuola
            </Link>
            <Link className="btn btn-outline-light" to="/indagine">
              Scopri l’indagine in corso
            </Link>
          </div>
        </div>
      </div>
      <div className="container">
        <section className="my-5" aria-labelledby="cosa-title">
          <h2 id="cosa-title" className="h3">
            Che cos’è
          </h2>
          <p>
            Il programma è curato da due organizzazioni partner, Sylla e Cromos, che accompagnano le scuole
            dall’iscrizione alla restituzione dei risultati. Rilevatori formati visitano i plessi, insegnanti
            ed educatori rispondono ai questionari, gli studenti partecipano in forma anonima. I risultati
            sono pubblicati solo in forma aggregata e mai per gruppi di meno di cinque persone.
          </p>
          <p className="mb-0">
            Consulta i <Link to="/risultati">risultati delle indagini concluse</Link> oppure prenota un posto
            negli <Link to="/prenotazioni">appuntamenti del programma</Link>.
          </p>
        </section>
        <section className="my-5" aria-labelledby="per-chi-title">
          <h2 id="per-chi-title" className="h3 mb-4">
            Per chi è
          </h2>
          <div className="row g-4">
            {AUDIENCES.map((a) => (
              <div className="col-12 col-lg-4" key={a.title}>
                <div className="card h-100 shadow-sm">
                  <div className="card-body">
                    <h3 className="card-title h5">{a.title}</h3>
                    <p className="card-text">{a.text}</p>
                    <Link className="btn btn-primary" to={a.to}>
                      {a.cta}
                    </Link>
                  </div>
                </div>
              </div>
            ))}
          </div>
        </section>
        <KeyFigures />
      </div>
    </>
  );
}
