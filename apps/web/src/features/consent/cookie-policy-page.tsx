import { Link } from 'react-router';
import { PROGRAMME } from '@portale/shared/public';
import { Button } from 'design-react-kit';
import { PageHeader } from '../../components/page-header.tsx';
import { decide, openPreferences, useConsent } from './consent-store.ts';
import { useCurrentPage } from '../../lib/use-current-page.ts';

const COOKIES = [
  {
    name: 'auth.strategy',
    kind: 'Tecnico',
    purpose: 'Ricorda che su questo browser hai effettuato l’accesso, per riprendere la sessione.',
    duration: '30 giorni',
  },
  {
    name: 'auth._token_expiration.local',
    kind: 'Tecnico',
    purpose: 'Scadenza della sessione, per rinnovarla in tempo.',
    duration: '30 giorni',
  },
  {
    name: 'auth.redirect',
    kind: 'Tecnico',
    purpose: 'La pagina da riaprire dopo l’accesso.',
    duration: 'fino all’accesso (al massimo 30 giorni)',
  },
  {
    name: 'auth._refresh_token.local',
    kind: 'Tecnico',
    purpose: 'Rinnova la sessione in modo sicuro; non è leggibile dagli script (HttpOnly).',
    duration: '30 giorni',
  },
  {
    name: 'XSRF-TOKEN',
    kind: 'Tecnico',
    purpose: 'Protegge i moduli da richieste contraffatte da altri siti.',
    duration: '30 giorni',
  },
  {
    name: 'ncc_c, ncc_e',
    kind: 'Tecnico',
    purpose: 'Ricordano se hai fatto una scelta sui cookie e quali categorie hai abilitato.',
    duration: '12 mesi',
  },
  {
    name: 'ncc_v, ncc_r',
    kind: 'Tecnico',
    purpose:
      'Versione della policy su cui hai scelto e momento dell’eventuale rifiuto (non te lo richiediamo per 6 mesi).',
    duration: '12 mesi',
  },
  {
    name: 'ncc_id',
    kind: 'Tecnico',
    purpose:
      'Codice casuale che accompagna la registrazione della tua scelta come prova del consenso; non ti identifica.',
    duration: '12 mesi',
  },
  {
    name: '_ga',
    kind: 'Analitico (Google Analytics 4)',
    purpose:
      'Distingue i visitatori in forma pseudonima per statistiche aggregate. Solo con il tuo consenso.',
    duration: '2 anni',
  },
  {
    name: '_ga_<ID>',
    kind: 'Analitico (Google Analytics 4)',
    purpose: 'Mantiene lo stato della visita per le statistiche. Solo con il tuo consenso.',
    duration: '2 anni',
  },
];

function ConsentControl() {
  const { enabledIds, choices } = useConsent();
  const analytics = enabledIds.includes('analitici');
  return (
    <section className="mb-5 p-4 bg-light rounded" aria-labelledby="scelta-title">
      <h2 id="scelta-title" className="h3">
        La tua scelta
      </h2>
      <p data-testid="consent-status" aria-live="polite">
        {analytics
          ? 'Hai consentito i cookie analitici.'
          : 'I cookie analitici non sono attivi: usiamo solo cookie tecnici.'}
        {choices > 0 && ' La tua scelta è stata salvata.'}
      </p>
      <div className="consent-actions">
        <Button type="button" color="primary" onClick={openPreferences}>
          Modifica le preferenze
        </Button>
        {analytics ? (
          <Button type="button" color="primary" onClick={() => void decide('reject')}>
            Revoca il consenso
          </Button>
        ) : (
          <Button type="button" color="primary" onClick={() => void decide('accept_all')}>
            Accetta i cookie analitici
          </Button>
        )}
      </div>
    </section>
  );
}

/** Every cookie the site sets, with purpose and duration, and the control to change the choice. */
export function Component() {
  const page = useCurrentPage();
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description}>
        <p>
          Il sito usa cookie tecnici, necessari per funzionare, e cookie analitici di Google Analytics 4 solo
          se li accetti. Non usiamo cookie di profilazione né pubblicitari: anche con il consenso, in Google
          Analytics la memorizzazione per la pubblicità resta negata. Titolare del trattamento è{' '}
          {PROGRAMME.controller.name}; i dettagli sono nell’
          <Link to="/privacy">informativa sulla privacy</Link>.
        </p>
      </PageHeader>
      <ConsentControl />
      <section aria-labelledby="elenco-title">
        <h2 id="elenco-title" className="h3 mb-3">
          I cookie che usiamo
        </h2>
        <div
          className="table-responsive"
          tabIndex={0}
          role="region"
          aria-label="Tabella dei cookie, scorrevole"
        >
          <table className="table">
            <caption className="visually-hidden">Cookie del sito, con tipo, finalità e durata</caption>
            <thead>
              <tr>
                <th scope="col">Nome</th>
                <th scope="col">Tipo</th>
                <th scope="col">Finalità</th>
                <th scope="col">Durata</th>
              </tr>
            </thead>
            <tbody>
              {COOKIES.map((c) => (
                <tr key={c.name}>
                  <th scope="row">
                    <code>{c.name}</code>
                  </th>
                  <td>{c.kind}</td>
                  <td>{c.purpose}</td>
                  <td>{c.duration}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>
          Tutti i cookie sono di prima parte, impostati sul dominio del sito o della sua API. Se revochi il
          consenso, cancelliamo subito i cookie _ga dal nostro dominio e Google Analytics smette di ricevere
          dati. Puoi anche cancellare i cookie dalle impostazioni del browser.
        </p>
      </section>
    </div>
  );
}
