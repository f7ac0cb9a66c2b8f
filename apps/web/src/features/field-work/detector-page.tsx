// One detector for staff (issue 39, decision 051): their devices' unsent reports, latest visits, conflicts.
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { getDetectorOverview, VISIT_STATE_LABELS } from '@portale/shared/field-work';
import { href } from '@portale/shared/pages';
import { REVIEW_STATE_LABELS } from '@portale/shared/reviews';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { VISIT_STATE_BADGES } from './field-work-labels.ts';
import { unsentLabel, waitingFor } from './offline/sync-age.ts';

export async function loader({ params, request }: LoaderFunctionArgs) {
  return callApi(
    getDetectorOverview,
    { params: { userId: Number(params.userId) } },
    { signal: request.signal },
  );
}

export function Component() {
  const { detector: d, devices, visits, conflicts } = useLoaderData<Awaited<ReturnType<typeof loader>>>();
  const conflictsHref = `${href('portal.detector-conflicts')}?detectorId=${d.id}`;
  return (
    <>
      <PageHeader
        title={`${d.firstName} ${d.lastName}`}
        description={`Rilevatore · ${d.active ? 'attivo' : 'non attivo'} · province ${d.provinces.join(', ') || 'nessuna'}`}
      />
      <dl className="row mb-4">
        <dt className="col-sm-3">E-mail</dt>
        <dd className="col-sm-9">
          <a href={`mailto:${d.email}`}>{d.email}</a>
        </dd>
        <dt className="col-sm-3">Telefono</dt>
        <dd className="col-sm-9">{d.phone ? <a href={`tel:${d.phone}`}>{d.phone}</a> : '—'}</dd>
        <dt className="col-sm-3">Plessi assegnati</dt>
        <dd className="col-sm-9">{formatNumber(d.siteCount)}</dd>
        <dt className="col-sm-3">Prossima visita</dt>
        <dd className="col-sm-9">{d.nextVisitAt ? formatDateTime(d.nextVisitAt) : 'nessuna'}</dd>
      </dl>

      <section aria-labelledby="dispositivi-title" className="mb-4">
        <h2 id="dispositivi-title" className="h4">
          Resoconti sui dispositivi
        </h2>
        <p>
          <strong>{unsentLabel(d)}</strong>
          {d.queueReportedAt && <> · ultimo aggiornamento {formatDateTime(d.queueReportedAt)}</>}
        </p>
        {devices.length > 0 && (
          <div className="table-responsive">
            <table className="table table-sm">
              <caption>Dispositivi del rilevatore</caption>
              <thead>
                <tr>
                  <th scope="col">Dispositivo</th>
                  <th scope="col">Non inviati</th>
                  <th scope="col">In attesa</th>
                  <th scope="col">Ultimo aggiornamento</th>
                </tr>
              </thead>
              <tbody>
                {devices.map((dev) => (
                  <tr key={dev.deviceId}>
                    <th scope="row">…{dev.deviceId.slice(-6)}</th>
                    <td>{formatNumber(dev.unsent)}</td>
                    <td>{dev.oldestUnsentAt ? waitingFor(dev.oldestUnsentAt) : '—'}</td>
                    <td>{formatDateTime(dev.reportedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="conflitti-title" className="mb-4">
        <h2 id="conflitti-title" className="h4">
          Conflitti
        </h2>
        <p>
          {conflicts.open === 0
            ? 'Nessun conflitto da risolvere.'
            : `${formatNumber(conflicts.open)} da risolvere`}
          {conflicts.resolved > 0 && ` · ${formatNumber(conflicts.resolved)} già risolti`}
          {conflicts.open + conflicts.resolved > 0 && (
            <>
              {' · '}
              <Link to={conflictsHref}>
                Apri i conflitti di {d.firstName} {d.lastName}
              </Link>
            </>
          )}
        </p>
      </section>

      <section aria-labelledby="visite-title" className="mb-4">
        <h2 id="visite-title" className="h4">
          Ultime visite
        </h2>
        {visits.length === 0 ? (
          <p className="text-muted">Nessuna visita per questo rilevatore.</p>
        ) : (
          <div className="table-responsive">
            <table className="table table-sm">
              <caption>Le ultime visite del rilevatore, le più recenti prima</caption>
              <thead>
                <tr>
                  <th scope="col">Plesso</th>
                  <th scope="col">Data</th>
                  <th scope="col">Stato</th>
                  <th scope="col">Revisione</th>
                </tr>
              </thead>
              <tbody>
                {visits.map((v) => (
                  <tr key={v.id}>
                    <th scope="row">
                      {v.siteName} ({v.siteCode})
                    </th>
                    <td>{formatDateTime(v.scheduledAt)}</td>
                    <td>
                      <span className={`badge ${VISIT_STATE_BADGES[v.state]}`}>
                        {VISIT_STATE_LABELS[v.state]}
                      </span>
                    </td>
                    <td>{v.reviewState ? REVIEW_STATE_LABELS[v.reviewState] : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
