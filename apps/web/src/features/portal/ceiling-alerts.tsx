import type { CeilingAlert } from '@portale/shared/dashboard';
import { formatDateTime, formatNumber } from '../../lib/format.ts';

/**
 * The super-admin's note that a portal-wide hourly ceiling was reached in the last 24 hours: someone
 * sent many costly requests from many addresses. Look at the log before raising the ceiling.
 */
export function CeilingAlerts({ alerts }: { alerts: CeilingAlert[] }) {
  if (alerts.length === 0) return null;
  return (
    <div className="alert alert-warning mb-5" role="status" data-testid="ceiling-alerts">
      <h2 className="h5">Limiti orari del portale raggiunti nelle ultime 24 ore</h2>
      <ul className="mb-2">
        {alerts.map((a) => (
          <li key={`${a.ceiling}-${a.reachedAt}`}>
            {formatDateTime(a.reachedAt)}: {a.label}, oltre {formatNumber(a.max)} in un’ora. {a.consequence}
          </li>
        ))}
      </ul>
      <p className="mb-0">
        Qualcuno potrebbe inviare molte richieste da molti indirizzi: controlla il registro del server prima
        di alzare un limite.
      </p>
    </div>
  );
}
