import { useCallback, useEffect, useState } from 'react';
import { formatDateTime } from '../../../lib/format.ts';
import { detectorReportQueue } from './detector-report-queue.ts';
import type { QueueSummary } from './report-queue.ts';
import { ensurePersistentStorage, runsInstalled, type Persistence } from './storage-persistence.ts';
import { waitingFor } from './sync-age.ts';
import { useOnline } from './use-online.ts';

/**
 * What the detector always sees on their pages (issue 39): the reports not yet on the server, how long
 * the oldest has waited, the last successful send, whether the browser keeps the drafts
 * ("archiviazione persistente" / "a rischio") and how to install the app on iOS. A region, not a live
 * region: it changes as the detector types (the draft is saved), which a screen reader must not read out.
 */
export function SyncStatus() {
  const online = useOnline();
  const [summary, setSummary] = useState<QueueSummary | null>(null);
  const [persistence, setPersistence] = useState<Persistence | null>(null);
  const [busy, setBusy] = useState(false);
  const [unavailable, setUnavailable] = useState(false);
  const refresh = useCallback(async () => setSummary(await (await detectorReportQueue()).summary()), []);
  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let gone = false;
    detectorReportQueue()
      .then((queue) => {
        if (gone) return;
        unsubscribe = queue.subscribe(() => void refresh());
        return refresh();
      })
      .catch(() => setUnavailable(true));
    void ensurePersistentStorage().then((p) => !gone && setPersistence(p));
    return () => {
      gone = true;
      unsubscribe?.();
    };
  }, [refresh]);
  if (unavailable)
    return (
      <div className="alert alert-warning" data-testid="sync-status">
        Questo browser non permette di salvare i resoconti sul dispositivo: senza rete non potrai scriverli.
      </div>
    );
  if (!summary) return null;
  const sendNow = async () => {
    setBusy(true);
    try {
      await (await detectorReportQueue()).flush();
      await refresh();
    } finally {
      setBusy(false);
    }
  };
  return (
    <section
      aria-label="Resoconti su questo dispositivo"
      className="border rounded px-3 py-2 mb-3 small"
      data-testid="sync-status"
    >
      <p className="mb-1">
        <strong>
          {summary.unsent === 0
            ? 'Nessun resoconto da inviare'
            : summary.unsent === 1
              ? '1 resoconto non inviato'
              : `${summary.unsent} resoconti non inviati`}
        </strong>
        {summary.oldestUnsentAt && (
          <>
            {' '}
            · il più vecchio {waitingFor(summary.oldestUnsentAt)} ({formatDateTime(summary.oldestUnsentAt)})
          </>
        )}{' '}
        · ultimo invio riuscito: {summary.lastSuccessAt ? formatDateTime(summary.lastSuccessAt) : 'nessuno'}
        {summary.unsent > 0 && online && (
          <button
            type="button"
            className="btn btn-link btn-sm p-0 ms-2 align-baseline"
            disabled={busy}
            onClick={() => void sendNow()}
          >
            Invia ora
          </button>
        )}
      </p>
      {summary.conflicts > 0 && (
        <p className="mb-1 text-danger" data-testid="sync-conflicts">
          <strong>
            {summary.conflicts === 1
              ? '1 resoconto in conflitto'
              : `${summary.conflicts} resoconti in conflitto`}
            :
          </strong>{' '}
          la visita è stata annullata, segnata come mancata o assegnata a un altro rilevatore mentre il
          resoconto era sul dispositivo. La tua versione è conservata sul server e lo staff deciderà: non
          serve reinviarla. Trovi i dettagli nella pagina delle visite.
        </p>
      )}
      {persistence === 'persistent' && (
        <p className="mb-1" data-testid="storage-persistence">
          Archiviazione persistente: il browser conserva le bozze anche quando manca spazio.
        </p>
      )}
      {persistence === 'at-risk' && (
        <p className="mb-1" data-testid="storage-persistence">
          <strong>Archiviazione a rischio:</strong> il browser potrebbe cancellare le bozze se manca spazio o
          se il portale non viene aperto per giorni. Installa l&apos;app e inviale appena hai rete.
        </p>
      )}
      {!runsInstalled() && (
        <details>
          <summary>Come installare l&apos;app su iPhone e iPad</summary>
          <ol className="mb-1 mt-1">
            <li>Apri il portale con Safari.</li>
            <li>Tocca il pulsante Condividi (il quadrato con la freccia verso l&apos;alto).</li>
            <li>Scegli «Aggiungi alla schermata Home», poi «Aggiungi».</li>
            <li>
              Da allora apri il portale dall&apos;icona «Portale Scuole»: le bozze restano sul dispositivo.
            </li>
          </ol>
          Su Android e sui computer usa «Installa app» o «Aggiungi a schermata Home» nel menu del browser.
        </details>
      )}
    </section>
  );
}

/**
 * Says, when the network is gone, what still works and what does not. A status role, always in the
 * page (empty while online) so the change is announced once, when it happens.
 */
export function OfflineNotice() {
  const online = useOnline();
  return (
    <div role="status" data-testid="offline-notice">
      {!online && (
        <div className="alert alert-warning mb-3">
          <strong>Sei offline:</strong> puoi aprire i plessi, gli insegnanti e le visite già consultati su
          questo dispositivo e scrivere i resoconti, che saranno inviati appena torna la rete. Non sono
          disponibili: pianificare, annullare o segnare come mancate le visite, le esportazioni, i calendari e
          le altre pagine del portale.
        </div>
      )}
    </div>
  );
}
