import {
  Link,
  useActionData,
  useLoaderData,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import { can } from '@portale/shared/auth';
import { href } from '@portale/shared/pages';
import {
  getSchoolSite,
  SCHOOL_LEVEL_LABELS,
  SchoolSiteUpdateSchema,
  updateSchoolSite,
  type PersonRef,
} from '@portale/shared/registry';
import { AuditLog } from '../../components/audit-log.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { loadAudit } from '../../lib/load-audit.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { AdhesionBadge } from '../../components/adhesion-badge.tsx';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_VALUE_LABELS,
  FIELD_LABELS,
  reviewStateLabel,
  teacherKindLabel,
} from './registry-labels.ts';
import { changedFields, saveChanges, type EditResult } from './registry-edit.ts';
import { SchoolSiteEditForm, SITE_CHECKBOXES, SITE_TEXT_FIELDS } from './school-site-edit-form.tsx';
import { Fact, Section } from './section.tsx';

export async function loader({ params, request }: LoaderFunctionArgs) {
  const siteId = Number(params.siteId);
  const signal = request.signal;
  const [site, audit] = await Promise.all([
    callApi(getSchoolSite, { params: { siteId } }, { signal }),
    loadAudit('school-site', siteId, signal),
  ]);
  return { site, audit };
}

export async function action({ request, params }: ActionFunctionArgs): Promise<EditResult> {
  const siteId = Number(params.siteId);
  const changes = changedFields(await request.formData(), SITE_TEXT_FIELDS, SITE_CHECKBOXES);
  return saveChanges(SchoolSiteUpdateSchema, changes, (body) =>
    callApi(updateSchoolSite, { params: { siteId }, body }),
  );
}

function Person({ person }: { person: PersonRef | null }) {
  if (!person) return <span className="text-muted">non assegnato</span>;
  return (
    <>
      {person.firstName} {person.lastName} · <a href={`mailto:${person.email}`}>{person.email}</a>
    </>
  );
}

/** Staff: one plesso with its data, institute, detector, teachers, audit and (if allowed) the edit form. */
export function Component() {
  const { site, audit } = useLoaderData<Awaited<ReturnType<typeof loader>>>();
  const result = useActionData<EditResult>();
  const { user } = useSession();
  const canEdit = can(user, 'update:school-site', { ownerUserIds: [site.detector?.id] });
  return (
    <>
      <PageHeader
        title={site.name}
        documentTitle={`Plesso ${site.name}`}
        description={`Plesso ${site.ministryCode} · ${site.municipalityName} (${site.province}), ${site.region}.`}
      >
        <p className="d-flex flex-wrap gap-2 mb-0">
          <span className="badge bg-light text-dark border">
            {site.participating ? 'Partecipa al programma' : 'Non partecipa al programma'}
          </span>
          <span className="badge bg-light text-dark border">{SCHOOL_LEVEL_LABELS[site.schoolLevel]}</span>
        </p>
      </PageHeader>

      <Section id="dati" title="Dati del plesso">
        <dl className="row detail-facts" data-testid="site-facts">
          <Fact label="Codice meccanografico">{site.ministryCode}</Fact>
          <Fact label="Tipologia">{site.typeLabel}</Fact>
          <Fact label="Istituto">
            <Link to={href('portal.institute', { instituteId: site.instituteId })}>{site.instituteName}</Link>{' '}
            ({site.instituteCode}) · {site.isStateSchool ? 'statale' : 'paritaria'} ·{' '}
            <AdhesionBadge state={site.adhesionState} />
          </Fact>
          <Fact label="Comune">
            {site.municipalityName} ({site.province}) · codice ISTAT {site.municipalityCode}
          </Fact>
          <Fact label="Regione">{site.region}</Fact>
          <Fact label="Indirizzo">{site.address ?? <span className="text-muted">non indicato</span>}</Fact>
          <Fact label="CAP">{site.postalCode ?? <span className="text-muted">non indicato</span>}</Fact>
          {site.latitude !== null && site.longitude !== null && (
            <Fact label="Coordinate">
              {site.latitude.toLocaleString('it-IT', { maximumFractionDigits: 5 })},{' '}
              {site.longitude.toLocaleString('it-IT', { maximumFractionDigits: 5 })}
            </Fact>
          )}
          <Fact label="Partecipa al programma">{site.participating ? 'Sì' : 'No'}</Fact>
          <Fact label="Rilevatore">
            <Person person={site.detector} />
          </Fact>
          <Fact label="Ultimo aggiornamento">{formatDateTime(site.updatedAt)}</Fact>
        </dl>
      </Section>

      {canEdit && (
        <Section id="modifica" title="Correggi i dati del plesso">
          <FormMessage tone={result?.tone ?? 'danger'} message={result?.message} />
          <SchoolSiteEditForm key={site.updatedAt} site={site} errors={result?.errors ?? {}} />
        </Section>
      )}

      <Section id="insegnanti" title={`Insegnanti ed educatori (${site.teachers.length})`}>
        {site.teachers.length === 0 ? (
          <p>Nessun insegnante registrato per questo plesso.</p>
        ) : (
          <div className="table-responsive-md">
            <table className="table data-table" aria-labelledby="insegnanti-title">
              <thead>
                <tr>
                  <th scope="col">Nome</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Ruolo</th>
                  <th scope="col">Registrazione</th>
                </tr>
              </thead>
              <tbody>
                {site.teachers.map((t) => (
                  <tr key={t.id}>
                    <th scope="row" data-label="Nome">
                      {t.firstName} {t.lastName}
                    </th>
                    <td data-label="E-mail">
                      <a href={`mailto:${t.email}`}>{t.email}</a>
                    </td>
                    <td data-label="Ruolo">{teacherKindLabel(t.kind)}</td>
                    <td data-label="Registrazione">{reviewStateLabel(t.reviewState)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>

      {audit && (
        <Section id="storico" title="Storico delle modifiche">
          <AuditLog
            entries={audit.items}
            total={audit.total}
            fieldLabels={FIELD_LABELS}
            actionLabels={AUDIT_ACTION_LABELS}
            valueLabels={AUDIT_VALUE_LABELS}
            headingId="storico-title"
          />
        </Section>
      )}
    </>
  );
}
