import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { getDetectorSite, VISIT_STATE_LABELS } from '@portale/shared/field-work';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { VISIT_STATE_BADGES } from './field-work-labels.ts';
import { SiteFacts } from './site-facts.tsx';

export async function loader({ params, request }: LoaderFunctionArgs) {
  return callApi(getDetectorSite, { params: { siteId: Number(params.siteId) } }, { signal: request.signal });
}

/** One of the detector's plessi: address, teachers, visits. Another detector's plesso is a 403 page. */
export function Component() {
  const site = useLoaderData<Awaited<ReturnType<typeof loader>>>();
  return (
    <>
      <PageHeader
        title={site.name}
        description={`Plesso assegnato · ${site.municipalityName} (${site.province})`}
      />
      <SiteFacts site={site} />
      <section aria-labelledby="visite-title" className="mb-4">
        <h2 id="visite-title" className="h4">
          Visite
        </h2>
        {site.visits.length === 0 ? (
          <p className="text-muted">Nessuna visita per questo plesso.</p>
        ) : (
          <ul className="list-unstyled">
            {site.visits.map((v) => (
              <li key={v.id} className="mb-2">
                <span className={`badge ${VISIT_STATE_BADGES[v.state]}`}>{VISIT_STATE_LABELS[v.state]}</span>{' '}
                {formatDateTime(v.scheduledAt)}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
