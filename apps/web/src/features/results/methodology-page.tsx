import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { getResultsMethodology, RESULTS_MESSAGES, type ResultsMethodology } from '@portale/shared/surveys';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { useCurrentPage } from '../../lib/use-current-page.ts';

/** Prerendered as its heading and a loading line until the API answers with the threshold in force. */
export const prerenderShell = true;

/** The threshold in force (RESULTS_MIN_CELL), the legal floor and the flag (decision 035). */
export async function loader({ request }: LoaderFunctionArgs): Promise<ResultsMethodology> {
  return callApi(getResultsMethodology, {}, { signal: request.signal });
}

/** Anyone: what the public results withhold and why, in plain Italian (decision 035). */
export function Component() {
  const page = useCurrentPage();
  const { minGroup: n, legalFloor, flag, earlierWaves } = useLoaderData<ResultsMethodology>();
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description} />
      <div className="row">
        <div className="col-12 col-lg-9">
          <section aria-labelledby="perche" className="mb-5">
            <h2 id="perche" className="h3">
              Perché alcuni numeri non sono pubblicati
            </h2>
            <p>
              Le indagini sono anonime, ma un numero piccolo può bastare a riconoscere una persona: se in una
              scuola hanno risposto in tre, chi conosce due di loro può capire come ha risposto il terzo. Per
              questo, come fanno gli uffici di statistica, pubblichiamo solo risultati da cui non si può
              risalire alla risposta di nessuno, nemmeno confrontando tra loro tutti i numeri pubblicati o
              confrontandoli con fonti note. È la regola dei rilasci statistici (Gazzetta Ufficiale del 14
              gennaio 2019, atto 19A00181, articolo 5) e la pratica di Eurostat.
            </p>
            <p data-testid="methodology-threshold">
              La soglia in uso è <strong>{n}</strong>: non pubblichiamo gruppi né numeri di persone minori di{' '}
              {n}. La soglia non può essere minore di {legalFloor}.
            </p>
          </section>

          <section aria-labelledby="cosa" className="mb-5">
            <h2 id="cosa" className="h3">
              Che cosa non pubblichiamo
            </h2>
            <ul>
              <li className="mb-2">
                <strong>Gruppi piccoli.</strong> I risultati di una regione, di un grado scolastico o di una
                regione per grado scolastico con meno di {n} persone che hanno risposto. Un gruppo in cui
                nessuno ha risposto appare nello stesso modo («{RESULTS_MESSAGES.groupTooSmall}»):
                distinguerli aiuterebbe a indovinare le dimensioni dei gruppi nascosti.
              </li>
              <li className="mb-2">
                <strong>Numeri piccoli.</strong> Il numero di persone che hanno dato una risposta, quando è
                minore di {n}.
              </li>
              <li className="mb-2">
                <strong>Numeri da cui se ne ricaverebbe uno piccolo.</strong> Sommando o sottraendo numeri
                pubblicati (per esempio l’Italia meno una regione, o i rispondenti meno le altre risposte) si
                potrebbe ottenere un numero nascosto: nascondiamo anche il numero più piccolo che lo
                permetterebbe. Il controllo tiene conto che i numeri di persone sono interi e mai negativi.
              </li>
              <li className="mb-2">
                <strong>Risposte quasi unanimi.</strong> Se in un gruppo tutti hanno dato la stessa risposta,
                o tutti tranne meno di {n}, chi conosce una di quelle persone saprebbe come ha risposto. In
                quel gruppo non pubblichiamo i numeri di quella domanda, né numeri da cui si potrebbe dedurre
                che un gruppo ha risposto tutto allo stesso modo.
              </li>
              <li className="mb-2">
                <strong>Domande a scelta multipla.</strong> Le controlliamo nel loro insieme: per esempio, se
                12 persone hanno risposto e tutte hanno scelto almeno una opzione, «Tablet 6» e «PC 7» dicono
                che esattamente una persona li ha scelti entrambi. Nascondiamo quanto basta perché nessuna
                combinazione di risposte scelta da meno di {n} persone si possa ricavare.
              </li>
              <li className="mb-2">
                <strong>Indagini ripetute.</strong> Quando una domanda si ripete in più edizioni (stesso testo
                e stesse opzioni), confrontiamo i risultati con quelli delle {earlierWaves} edizioni
                precedenti: se un numero è cambiato di meno di {n} persone lo nascondiamo, perché la
                differenza direbbe come hanno risposto i nuovi partecipanti.
              </li>
              <li className="mb-2">
                <strong>Risposte aperte.</strong> Le risposte scritte liberamente non sono mai pubblicate.
              </li>
            </ul>
          </section>

          <section aria-labelledby="segno" className="mb-5">
            <h2 id="segno" className="h3">
              Come riconoscere un dato protetto
            </h2>
            <p>
              Al posto di un numero nascosto trovi il segno <strong>«{flag}»</strong> (dato confidenziale,
              come nelle tabelle di Eurostat). Il segno è lo stesso per ogni motivo, perché segni diversi
              aiuterebbero a indovinare i numeri. Dove una domanda ha un dato protetto non mostriamo neppure
              il totale delle risposte, la media e gli zeri di quella domanda. Nei grafici le barre dei dati
              protetti non sono disegnate.
            </p>
            <p>
              Nei file scaricati dalla pagina dei <Link to="/risultati">risultati</Link> il segno «{flag}» è
              nella colonna «Numero». Nel file CSV la colonna «Note» della prima riga ricorda che cosa
              significa e rimanda a questa pagina; nel file Excel lo stesso testo è nel foglio «Note».
            </p>
          </section>
        </div>
      </div>
    </div>
  );
}
