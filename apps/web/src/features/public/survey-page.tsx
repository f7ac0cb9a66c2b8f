import { Link } from 'react-router';
import { getPublicSurvey } from '@portale/shared/public';
import { PageHeader } from '../../components/page-header.tsx';
import { useCurrentPage } from '../../lib/use-current-page.ts';
import { usePublicData } from './use-public-data.ts';

const DATE = new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', dateStyle: 'long' });
const day = (iso: string) => DATE.format(new Date(`${iso}T12:00:00Z`));
const STATE_LABELS = { bozza: 'in preparazione', aperta: 'aperta', chiusa: 'conclusa' } as const;

/** The current survey: purpose, who takes part, dates; how to answer. */
export function Component() {
  const page = useCurrentPage();
  const survey = usePublicData(getPublicSurvey);
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description} />
      {survey.status === 'loading' && <p role="status">Caricamento dell’indagine…</p>}
      {survey.status === 'error' && <p>{survey.message}</p>}
      {survey.status === 'ready' && (
        <article aria-labelledby="survey-title">
          <h2 id="survey-title" className="h3">
            {survey.data.title}
          </h2>
          <p className="fw-semibold" data-testid="survey-dates">
            Indagine {STATE_LABELS[survey.data.state]}: dal {day(survey.data.opensOn)} al {day(survey.data.closesOn)}
          </p>
          <h3 className="h4 mt-4">A che cosa serve</h3>
          <p>{survey.data.purpose}</p>
          <h3 className="h4 mt-4">Chi partecipa</h3>
          <p>{survey.data.audience}</p>
        </article>
      )}
      <section className="mt-5" aria-labelledby="come-rispondere">
        <h2 id="come-rispondere" className="h3">
          Come si risponde
        </h2>
        <ul>
          <li>Insegnanti ed educatori registrati trovano il questionario nel portale dopo l’<Link to="/auth/login">accesso</Link>.</li>
          <li>Gli studenti rispondono con il codice di accesso di sette caratteri che ricevono dal loro insegnante, aprendo l’indirizzo del sito seguito dal codice.</li>
          <li>
            La tua scuola non partecipa ancora? Il dirigente può <Link to="/iscrizioni/iscrizione">iscriverla</Link>.
          </li>
        </ul>
      </section>
    </div>
  );
}
