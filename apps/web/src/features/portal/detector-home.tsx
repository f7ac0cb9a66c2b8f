import { Link } from 'react-router';
import { can, canSome, type SessionUser } from '@portale/shared/auth';
import {
  getMyVisits,
  listMySchoolSites,
  type DetectorSiteSummary,
  type MyVisitsResponse,
  type Visit,
} from '@portale/shared/field-work';
import { href } from '@portale/shared/pages';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatCount, formatDateTime, formatShortDateTime } from '../../lib/format.ts';

/** A detector: their own visits and plessi only (the super-admin reads every one and gets the staff home). */
export function isDetector(user: SessionUser | null): boolean {
  return canSome(user, 'read:visit') && !can(user, 'read:visit');
}

export type DetectorHomeResult =
  | { visits: MyVisitsResponse; sites: DetectorSiteSummary[]; problem: null }
  | { visits: null; sites: null; problem: string };

export async function loadDetectorHome(signal: AbortSignal): Promise<DetectorHomeResult> {
  try {
    const [visits, sites] = await Promise.all([
      callApi(getMyVisits, {}, { signal }),
      callApi(listMySchoolSites, { query: { sort: 'nextVisitAt', pageSize: 25 } } as never, { signal }),
    ]);
    return { visits, sites: sites.items, problem: null };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 401) throw error;
    return {
      visits: null,
      sites: null,
      problem: 'Le tue visite e i tuoi plessi non sono disponibili in questo momento. Riprova più tardi.',
    };
  }
}

function VisitLine({ visit }: { visit: Visit }) {
  return (
    <li className="mb-2">
      <Link to={href('portal.site-visits', { siteId: visit.schoolSiteId })}>{visit.siteName}</Link> ·{' '}
      {formatDateTime(visit.scheduledAt)}
    </li>
  );
}

/** `/portale` for a detector: the next visits, the reports sent back, the assigned plessi. */
export function DetectorHome({ visits, sites }: { visits: MyVisitsResponse; sites: DetectorSiteSummary[] }) {
  return (
    <section aria-labelledby="il-tuo-lavoro" className="mb-5" data-testid="detector-home">
      <h2 id="il-tuo-lavoro" className="h4">
        Le tue visite
      </h2>
      {visits.toFix.length > 0 && (
        <div className="alert alert-warning" data-testid="detector-to-fix">
          <p className="mb-1">
            <strong>Resoconti da correggere:</strong>
          </p>
          <ul className="mb-0">
            {visits.toFix.map((v) => (
              <VisitLine key={v.id} visit={v} />
            ))}
          </ul>
        </div>
      )}
      {visits.toReport.length > 0 && (
        <div className="alert alert-info" data-testid="detector-to-report">
          <p className="mb-1">
            <strong>Visite passate senza resoconto:</strong> invia il resoconto, oppure segnala la visita come
            annullata o mancata.
          </p>
          <ul className="mb-0">
            {visits.toReport.map((v) => (
              <VisitLine key={v.id} visit={v} />
            ))}
          </ul>
        </div>
      )}
      <h3 className="h5">Prossime visite</h3>
      {visits.upcoming.length === 0 ? (
        <p className="text-muted">Nessuna visita pianificata. Pianificane una dalla pagina di un plesso.</p>
      ) : (
        <ul data-testid="detector-upcoming">
          {visits.upcoming.map((v) => (
            <VisitLine key={v.id} visit={v} />
          ))}
        </ul>
      )}
      <h3 className="h5">I tuoi plessi</h3>
      <p>
        {formatCount(visits.siteCount, 'plesso assegnato', 'plessi assegnati')}.{' '}
        <Link to={href('portal.detector-sites')}>Vedi tutti i tuoi plessi</Link>
      </p>
      {sites.length > 0 && (
        <ul data-testid="detector-sites">
          {sites.map((s) => (
            <li key={s.id}>
              <Link to={href('portal.detector-site', { siteId: s.id })}>{s.name}</Link> · {s.municipalityName}{' '}
              ({s.province})
              {s.nextVisitAt && (
                <span className="small"> · prossima visita {formatShortDateTime(s.nextVisitAt)}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
