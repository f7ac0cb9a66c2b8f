import { useCallback, useEffect, useState } from 'react';
import { Button } from 'design-react-kit';
import { formatDateTime } from '../../../lib/format.ts';
import { detectorReportQueue } from './detector-report-queue.ts';
import type { QueueSummary } from './report-queue.ts';
import type { OfflineReport } from './report-store.ts';

const STATUS_LABELS: Record<OfflineReport['status'], string> = {
  draft: 'Bozza',
  queued: 'In attesa di invio',
  sent: 'Inviato',
  conflict: 'In conflitto: la visita è cambiata, la versione è conservata per lo staff',
  failed: 'Non accettato',
};

function download(name: string, json: string) {
  const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The detector's unsent reports on this device, each to retry, export or discard on its own; "Esporta bozze" (issue 39). */
export default function OfflineReportsPanel() {
  const [summary, setSummary] = useState<QueueSummary | null>(null);
  const [unsent, setUnsent] = useState<OfflineReport[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    const queue = await detectorReportQueue();
    setSummary(await queue.summary());
    setUnsent(
      (await queue.list())
        .filter((r) => r.status !== 'sent')
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    );
  }, []);

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    detectorReportQueue()
      .then((queue) => {
        unsubscribe = queue.subscribe(() => void refresh());
        return refresh();
      })
      .catch(() => setProblem('Questo browser non permette di salvare le bozze sul dispositivo.'));
    return () => unsubscribe?.();
  }, [refresh]);

  const run = async (work: (queue: Awaited<ReturnType<typeof detectorReportQueue>>) => Promise<unknown>) => {
    setBusy(true);
    try {
      await work(await detectorReportQueue());
      await refresh();
    } finally {
      setBusy(false);
    }
  };

  if (problem) return <div className="alert alert-warning">{problem}</div>;
  // How many, since when and "Invia ora" are in the sync status above every detector page.
  if (!summary || unsent.length === 0) return null;
  return (
    <section aria-labelledby="bozze-title" className="mb-4 p-3 border rounded" data-testid="offline-reports">
      <h2 id="bozze-title" className="h5">
        Resoconti non inviati
      </h2>
      <p className="small mb-2">
        «Esporta bozze» scarica un file con i resoconti non ancora inviati e le loro foto rimaste sul
        dispositivo: se non riesci a inviarli, consegnalo allo staff, che li importerà a tuo nome.
      </p>
      {unsent.length > 0 && (
        <Button
          type="button"
          color="primary"
          outline
          size="sm"
          disabled={busy}
          onClick={() => void run(async (q) => download('resoconti-non-inviati.json', await q.exportJson()))}
        >
          Esporta bozze
        </Button>
      )}
      {unsent.length > 0 && (
        <ul className="list-unstyled mt-3 mb-0">
          {unsent.map((r) => (
            <li key={r.clientReportId} className="mb-2 small">
              Visita n. {r.visitId} · {STATUS_LABELS[r.status]} · salvata il {formatDateTime(r.updatedAt)}
              {r.lastError && <> · {r.lastError}</>}
              <span className="ms-2">
                {/* A draft is sent from here too: its visit's page may no longer be the detector's (decision 061). */}
                <Button
                  type="button"
                  color="link"
                  size="sm"
                  className="p-0 me-2"
                  disabled={busy}
                  onClick={() => void run((q) => q.retry(r.clientReportId))}
                >
                  {r.status === 'draft' ? 'Invia' : 'Riprova'}
                </Button>
                <Button
                  type="button"
                  color="link"
                  size="sm"
                  className="p-0 me-2"
                  disabled={busy}
                  onClick={() =>
                    void run(async (q) =>
                      download(`resoconto-${r.clientReportId}.json`, await q.exportJson(r.clientReportId)),
                    )
                  }
                >
                  Esporta
                </Button>
                <Button
                  type="button"
                  color="link"
                  size="sm"
                  className="p-0 text-danger"
                  disabled={busy}
                  onClick={() => {
                    if (
                      window.confirm('Eliminare questa bozza dal dispositivo? Non potrà essere recuperata.')
                    )
                      void run((q) => q.discard(r.clientReportId));
                  }}
                >
                  Elimina
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
