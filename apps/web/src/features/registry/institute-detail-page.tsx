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
  getInstitute,
  InstituteUpdateSchema,
  SCHOOL_LEVEL_LABELS,
  updateInstitute,
  type InstituteDetail,
} from '@portale/shared/registry';
import { AuditLog } from '../../components/audit-log.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { text } from '../../lib/form-data.ts';
import { loadAudit } from '../../lib/load-audit.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { AdhesionBadge } from '../../components/adhesion-badge.tsx';
import { AdhesionHistory } from './adhesion-history.tsx';
import { InstituteEditForm, INSTITUTE_EDIT_FIELDS } from './institute-edit-form.tsx';
import { InstitutePeople } from './institute-people.tsx';
import {
  handoverAction,
  HANDOVER_CANCEL_INTENT,
  HANDOVER_INTENT,
  InstituteHandover,
  loadHandovers,
} from './institute-handover.tsx';
import { AUDIT_ACTION_LABELS, AUDIT_VALUE_LABELS, FIELD_LABELS } from './registry-labels.ts';
import { changedFields, saveChanges, type EditResult } from './registry-edit.ts';
import { Fact, Section } from './section.tsx';
import { withdrawalAction, WithdrawalForm, WITHDRAW_INTENT } from '../../components/withdrawal-form.tsx';

/** Who owns an institute for `:own` grants: its principal and first contact. */
export function ownersOf(institute: Pick<InstituteDetail, 'principal' | 'firstContact'>) {
  return { ownerUserIds: [institute.principal?.id, institute.firstContact?.id] };
}

export async function loader({ params, request }: LoaderFunctionArgs) {
  const instituteId = Number(params.instituteId);
  const signal = request.signal;
  const [institute, audit, handovers] = await Promise.all([
    callApi(getInstitute, { params: { instituteId } }, { signal }),
    loadAudit('institute', instituteId, signal),
    loadHandovers(instituteId, signal),
  ]);
  return { institute, audit, handovers };
}

export async function action({
  request,
  params,
}: ActionFunctionArgs): Promise<EditResult & { intent?: string }> {
  const instituteId = Number(params.instituteId);
  const form = await request.formData();
  const intent = text(form, 'intent');
  if (intent === WITHDRAW_INTENT) return withdrawalAction(form, instituteId);
  if (intent === HANDOVER_INTENT || intent === HANDOVER_CANCEL_INTENT)
    return handoverAction(intent, form, instituteId);
  const changes = changedFields(form, INSTITUTE_EDIT_FIELDS);
  return saveChanges(InstituteUpdateSchema, changes, (body) =>
    callApi(updateInstitute, { params: { instituteId }, body }),
  );
}

function Optional({ value, kind }: { value: string | null; kind?: 'email' | 'url' }) {
  if (!value) return <span className="text-muted">non indicato</span>;
  if (kind === 'email') return <a href={`mailto:${value}`}>{value}</a>;
  if (kind === 'url') {
    // Registry data may lack the scheme (www.scuola.it); any scheme but http(s) is shown, not linked.
    const url = /^https?:\/\//i.test(value)
      ? value
      : /^[\w.-]+\.[a-z]{2,}(\/|$)/i.test(value)
        ? `https://${value}`
        : null;
    return url ? <a href={url}>{value}</a> : <>{value}</>;
  }
  return <>{value}</>;
}

/** Staff: one institute with its data, plessi, people, adhesion history, audit and (if allowed) the edit form. */
export function Component() {
  const { institute, audit, handovers } = useLoaderData<Awaited<ReturnType<typeof loader>>>();
  const result = useActionData<EditResult & { intent?: string }>();
  const editResult = result?.intent === undefined ? result : undefined;
  const { user } = useSession();
  const canEdit = can(user, 'update:institute', ownersOf(institute));
  const i = institute;
  return (
    <>
      <PageHeader
        title={i.name}
        documentTitle={`Istituto ${i.name}`}
        description={`Istituto ${i.ministryCode} · ${i.municipalityName} (${i.province}), ${i.region}.`}
      >
        <p className="d-flex flex-wrap gap-2 mb-0">
          <AdhesionBadge state={i.adhesionState} />
          <span className="badge bg-light text-dark border">
            {i.isStateSchool ? 'Scuola statale' : 'Scuola paritaria'}
          </span>
        </p>
      </PageHeader>

      <Section id="dati" title="Dati dell’istituto">
        <dl className="row detail-facts" data-testid="institute-facts">
          <Fact label="Codice meccanografico">{i.ministryCode}</Fact>
          <Fact label="Tipologia">{i.type}</Fact>
          <Fact label="Comune">
            {i.municipalityName} ({i.province}) · codice ISTAT {i.municipalityCode}
          </Fact>
          <Fact label="Regione">{i.region}</Fact>
          <Fact label="Indirizzo">
            <Optional value={i.address} />
          </Fact>
          <Fact label="CAP">
            <Optional value={i.postalCode} />
          </Fact>
          <Fact label="E-mail">
            <Optional value={i.email} kind="email" />
          </Fact>
          <Fact label="PEC">
            <Optional value={i.certifiedEmail} kind="email" />
          </Fact>
          <Fact label="Telefono">
            <Optional value={i.phone} />
          </Fact>
          <Fact label="Sito web">
            <Optional value={i.website} kind="url" />
          </Fact>
          <Fact label="Ultimo aggiornamento">{formatDateTime(i.updatedAt)}</Fact>
        </dl>
      </Section>

      {canEdit && (
        <Section id="modifica" title="Correggi i recapiti">
          <FormMessage tone={editResult?.tone ?? 'danger'} message={editResult?.message} />
          <InstituteEditForm key={i.updatedAt} institute={i} errors={editResult?.errors ?? {}} />
        </Section>
      )}

      <Section id="plessi" title={`Plessi (${i.schoolSites.length})`}>
        {i.schoolSites.length === 0 ? (
          <p>L’istituto non ha plessi nell’anagrafe.</p>
        ) : (
          <div className="table-responsive-md">
            <table className="table data-table">
              <caption className="caption-top">Plessi dell’istituto {i.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Codice</th>
                  <th scope="col">Denominazione</th>
                  <th scope="col">Grado</th>
                  <th scope="col">Comune</th>
                  <th scope="col">Partecipa</th>
                </tr>
              </thead>
              <tbody>
                {i.schoolSites.map((site) => (
                  <tr key={site.id}>
                    <td data-label="Codice">{site.ministryCode}</td>
                    <th scope="row" data-label="Denominazione">
                      <Link to={href('portal.site', { siteId: site.id })}>{site.name}</Link>
                    </th>
                    <td data-label="Grado">{SCHOOL_LEVEL_LABELS[site.schoolLevel]}</td>
                    <td data-label="Comune">{site.municipalityName}</td>
                    <td data-label="Partecipa">{site.participating ? 'Sì' : 'No'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Link to={`${href('portal.sites')}?instituteId=${i.id}`}>
          Apri i plessi dell’istituto nell’elenco dei plessi
        </Link>
      </Section>

      <Section id="persone" title="Persone">
        <InstitutePeople institute={i} />
        {handovers && <InstituteHandover institute={i} items={handovers} user={user} result={result} />}
      </Section>

      <Section id="adesione" title="Stato dell’adesione">
        <p>
          Stato attuale: <AdhesionBadge state={i.adhesionState} />
          {i.adhesionStateChangedAt && <> dal {formatDate(i.adhesionStateChangedAt)}</>}.
        </p>
        <AdhesionHistory transitions={i.adhesionHistory} />
        {i.adhesionState === 'attivo' &&
          can(user, 'manage:adhesion', { ownerUserIds: [i.principal?.id] }) && (
            <WithdrawalForm result={result} />
          )}
        {result?.intent === WITHDRAW_INTENT && result.ok && (
          <FormMessage message={result.message} tone="success" />
        )}
      </Section>

      {can(user, 'read:action') && (
        <Section id="azioni" title="Azioni">
          <p>
            <Link to={`${href('portal.actions')}?q=${encodeURIComponent(i.ministryCode)}`}>
              Le azioni assegnate all’istituto
            </Link>
            , con il loro stato, le scadenze e le evidenze.
          </p>
        </Section>
      )}

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
