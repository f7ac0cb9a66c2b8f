import { useEffect, useState } from 'react';
import { Workbox } from 'workbox-window';
import { OfflineNotice, SyncStatus } from './sync-status.tsx';

/**
 * The installed app for detectors (issue 39, decision 051): registers the service worker, which only
 * a detector's session does (this module is loaded lazily by the portal layout for detectors, so no
 * public page pays for it). A new version of the worker waits: the detector chooses when to update,
 * and the update reloads the page — the drafts are in IndexedDB, which the worker never touches.
 * Above every detector page: the offline notice and the state of the reports on this device.
 */
export default function DetectorApp() {
  const [waiting, setWaiting] = useState<Workbox | null>(null);
  const [updating, setUpdating] = useState(false);
  useEffect(() => {
    if (import.meta.env.DEV || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    const wb = new Workbox('/sw.js', { scope: '/' });
    const onWaiting = () => setWaiting(wb);
    wb.addEventListener('waiting', onWaiting);
    wb.register().catch((error: unknown) => console.error('[offline] service worker', error));
    return () => wb.removeEventListener('waiting', onWaiting);
  }, []);
  const update = () => {
    if (!waiting) return;
    setUpdating(true);
    waiting.addEventListener('controlling', () => window.location.reload());
    waiting.messageSkipWaiting();
  };
  return (
    <>
      <OfflineNotice />
      {waiting && <UpdatePrompt updating={updating} onUpdate={update} />}
      <SyncStatus />
    </>
  );
}

function UpdatePrompt({ updating, onUpdate }: { updating: boolean; onUpdate: () => void }) {
  return (
    <div className="alert alert-info d-flex flex-wrap align-items-center gap-2" data-testid="app-update">
      <p className="mb-0 me-auto">
        È disponibile una nuova versione del portale. Le bozze e i resoconti non inviati restano su questo
        dispositivo.
      </p>
      <button type="button" className="btn btn-primary btn-sm" disabled={updating} onClick={onUpdate}>
        Aggiorna
      </button>
    </div>
  );
}
