import { Link } from 'react-router';
import { href } from '@portale/shared/pages';
import type { InstituteDetail, PersonRef } from '@portale/shared/registry';
import { reviewStateLabel, teacherKindLabel } from './registry-labels.ts';
import { Fact } from './section.tsx';

function Person({ person }: { person: PersonRef | null }) {
  if (!person) return <span className="text-muted">non indicato</span>;
  return (
    <>
      {person.firstName} {person.lastName} · <a href={`mailto:${person.email}`}>{person.email}</a>
    </>
  );
}

/** The principal, the first contact and the registered teachers of an institute. */
export function InstitutePeople({ institute }: { institute: InstituteDetail }) {
  const siteName = new Map(institute.schoolSites.map((s) => [s.id, s]));
  return (
    <>
      <dl className="row detail-facts">
        <Fact label="Dirigente scolastico">
          <Person person={institute.principal} />
        </Fact>
        <Fact label="Referente per il programma">
          <Person person={institute.firstContact} />
        </Fact>
      </dl>
      <h3 className="h5" id="insegnanti-title">
        Insegnanti ed educatori ({institute.teachers.length})
      </h3>
      {institute.teachers.length === 0 ? (
        <p>Nessun insegnante registrato per questo istituto.</p>
      ) : (
        <div className="table-responsive-md">
          <table className="table data-table" aria-labelledby="insegnanti-title">
            <thead>
              <tr>
                <th scope="col">Nome</th>
                <th scope="col">E-mail</th>
                <th scope="col">Plesso</th>
                <th scope="col">Ruolo</th>
                <th scope="col">Registrazione</th>
              </tr>
            </thead>
            <tbody>
              {institute.teachers.map((t) => {
                const site = t.schoolSiteId ? siteName.get(t.schoolSiteId) : undefined;
                return (
                  <tr key={t.id}>
                    <th scope="row" data-label="Nome">
                      {t.firstName} {t.lastName}
                    </th>
                    <td data-label="E-mail">
                      <a href={`mailto:${t.email}`}>{t.email}</a>
                    </td>
                    <td data-label="Plesso">
                      {site ? <Link to={href('portal.site', { siteId: site.id })}>{site.name}</Link> : '—'}
                    </td>
                    <td data-label="Ruolo">{teacherKindLabel(t.kind)}</td>
                    <td data-label="Registrazione">{reviewStateLabel(t.reviewState)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
