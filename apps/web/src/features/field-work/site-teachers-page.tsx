import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { listSiteTeachers } from '@portale/shared/field-work';
import { REVIEW_STATE_LABELS } from '@portale/shared/reviews';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { SiteFacts } from './site-facts.tsx';

export async function loader({ params, request }: LoaderFunctionArgs) {
  return callApi(listSiteTeachers, { params: { siteId: Number(params.siteId) } }, { signal: request.signal });
}

/** The teachers of a plesso, for its detector and the super-admin. */
export function Component() {
  const { site, items } = useLoaderData<Awaited<ReturnType<typeof loader>>>();
  return (
    <>
      <PageHeader
        title={`Insegnanti di ${site.name}`}
        description={`${site.municipalityName} (${site.province}) · ${site.ministryCode}`}
      />
      <SiteFacts site={site} />
      <div
        className="table-responsive"
        tabIndex={0}
        role="region"
        aria-label="Elenco degli insegnanti del plesso"
      >
        <table className="table" data-testid="site-teachers">
          <caption>Insegnanti ed educatori del plesso ({items.length})</caption>
          <thead>
            <tr>
              <th scope="col">Nome</th>
              <th scope="col">E-mail</th>
              <th scope="col">Telefono</th>
              <th scope="col">Materie</th>
              <th scope="col">Registrazione</th>
            </tr>
          </thead>
          <tbody>
            {items.length === 0 && (
              <tr>
                <td colSpan={5} className="text-muted">
                  Nessun insegnante registrato in questo plesso.
                </td>
              </tr>
            )}
            {items.map((t) => (
              <tr key={t.userId}>
                <th scope="row">
                  {t.lastName} {t.firstName}
                </th>
                <td>
                  <a href={`mailto:${t.email}`}>{t.email}</a>
                </td>
                <td>{t.phone ?? ''}</td>
                <td>{t.subjects.join(', ')}</td>
                <td>{REVIEW_STATE_LABELS[t.reviewState]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
