import { useId } from 'react';
import { Link, useActionData, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import {
  exportAdhesions,
  getAdhesionFunnel,
  listAdhesions,
  previewAdhesionReminders,
  REMINDER_STATES,
  sendAdhesionReminders,
  type AdhesionFunnel,
  type AdhesionPanelRow,
  type ReminderPreview,
  type ReminderState,
} from '@portale/shared/adhesions';
import { can, canSome } from '@portale/shared/auth';
import { getPage, href } from '@portale/shared/pages';
import { ADHESION_STATE_LABELS, ADHESION_STATES } from '@portale/shared/registry';
import { AdhesionBadge } from '../../components/adhesion-badge.tsx';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { useListParams } from '../../components/data-table/use-list-params.ts';
import { FormMessage } from '../../components/form/form-message.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { intentAction, text, type FormResult } from '../../lib/form-data.ts';
import { formatCount, formatDate, formatDay, formatNumber } from '../../lib/format.ts';
import { loadList, pickQuery, unlessInvalid, type ListLoaderData } from '../../lib/list-loader.ts';
import { getSession, useSession } from '../../lib/session.ts';
import { ConfirmButton } from '../../components/form/confirm-button.tsx';

const DEFAULT_SORT = 'adhesionStateChangedAt';
const DAY_MS = 86_400_000;

const STATE_FILTER: SelectFilter = {
  name: 'adhesionState',
  label: 'Stato di adesione',
  anyLabel: 'Tutti gli stati del programma',
  options: ADHESION_STATES.map((s) => ({ value: s, label: ADHESION_STATE_LABELS[s] })),
};
const DAYS_FILTER: SelectFilter = {
  name: 'minDaysInState',
  label: 'Nello stato da almeno',
  anyLabel: 'Qualsiasi durata',
  options: [7, 14, 30, 60, 90, 180].map((d) => ({ value: String(d), label: `${d} giorni` })),
};
const SORT_OPTIONS = sortOptionsOf([
  { value: 'adhesionStateChangedAt', label: 'Da più tempo nello stato' },
  { value: '-adhesionStateChangedAt', label: 'Cambio di stato più recente' },
  { value: 'name', label: 'Denominazione' },
  { value: 'ministryCode', label: 'Codice meccanografico' },
  { value: 'province', label: 'Provincia' },
  { value: 'region', label: 'Regione' },
  { value: 'adhesionState', label: 'Stato di adesione' },
]);

const isReminderState = (value: string | undefined): value is ReminderState =>
  (REMINDER_STATES as readonly string[]).includes(value ?? '');

function daysSince(iso: string | null, now = Date.now()): number | null {
  return iso ? Math.max(0, Math.floor((now - new Date(iso).getTime()) / DAY_MS)) : null;
}

function Person({ person }: { person: AdhesionPanelRow['principal'] }) {
  if (!person) return <span className="text-muted">non indicato</span>;
  return (
    <>
      {person.lastName} {person.firstName}
      <br />
      <a href={`mailto:${person.email}`} className="small">
        {person.email}
      </a>
    </>
  );
}

const column = listColumnHelper<AdhesionPanelRow>();
function columnsFor(linkInstitutes: boolean) {
  return [
    column.accessor('name', {
      header: 'Istituto',
      meta: { rowHeader: true },
      cell: (c) => (
        <>
          {linkInstitutes ? (
            <Link to={href('portal.institute', { instituteId: c.row.original.id })}>{c.getValue()}</Link>
          ) : (
            c.getValue()
          )}
          <br />
          <span className="small text-nowrap">{c.row.original.ministryCode}</span>
        </>
      ),
    }),
    column.accessor('municipalityName', {
      header: 'Comune',
      enableSorting: false,
      cell: (c) => `${c.getValue()} (${c.row.original.province})`,
    }),
    column.accessor('adhesionState', {
      header: 'Stato',
      meta: { label: 'Stato di adesione' },
      cell: (c) => <AdhesionBadge state={c.getValue()} />,
    }),
    column.accessor('adhesionStateChangedAt', {
      header: 'Nello stato dal',
      cell: (c) => {
        const iso = c.getValue();
        if (!iso) return <span className="text-muted">—</span>;
        const days = daysSince(iso)!;
        return (
          <>
            {formatDate(iso)}
            <br />
            <span className="small">{formatCount(days, 'giorno', 'giorni')}</span>
          </>
        );
      },
    }),
    column.accessor('principal', {
      header: 'Dirigente',
      enableSorting: false,
      cell: (c) => <Person person={c.getValue()} />,
    }),
    column.accessor('firstContact', {
      header: 'Referente',
      enableSorting: false,
      cell: (c) => <Person person={c.getValue()} />,
    }),
    column.accessor('lastReminderOn', {
      header: 'Ultimo sollecito',
      enableSorting: false,
      cell: (c) => {
        const day = c.getValue();
        return day ? formatDay(day) : <span className="text-muted">mai</span>;
      },
    }),
  ];
}

type Data = ListLoaderData<typeof listAdhesions> & {
  funnel: AdhesionFunnel | null;
  preview: ReminderPreview | null;
};

export async function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  const search = new URL(request.url).searchParams;
  const where = pickQuery(search, ['region', 'province', 'minDaysInState']);
  const reminderQuery = pickQuery(search, ['q', 'region', 'province', 'minDaysInState', 'adhesionState']);
  const state = reminderQuery.adhesionState;
  const mayRemind = can(getSession().user, 'manage:adhesion') && isReminderState(state);
  const [list, funnel, preview] = await Promise.all([
    loadList(listAdhesions, request),
    unlessInvalid(callApi(getAdhesionFunnel, { query: where }, { signal: request.signal })),
    mayRemind
      ? unlessInvalid(
          callApi(
            previewAdhesionReminders,
            { query: { ...reminderQuery, adhesionState: state as ReminderState } },
            { signal: request.signal },
          ),
        )
      : Promise.resolve(null),
  ]);
  return { ...list, funnel, preview };
}

type ActionData = FormResult & { intent: string };

export const action = intentAction(async (intent, form): Promise<FormResult> => {
  if (intent !== 'remind') return { message: 'Operazione non riconosciuta.' };
  const body: Record<string, string> = {};
  for (const key of ['q', 'region', 'province', 'minDaysInState', 'adhesionState']) {
    const value = text(form, key).trim();
    if (value) body[key] = value;
  }
  // The API refuses a missing or wrong state with its Italian message (422).
  const result = await callApi(sendAdhesionReminders, {
    body: { ...body, adhesionState: body.adhesionState as ReminderState },
  });
  const parts = [
    result.institutes === 0
      ? 'Nessun sollecito inviato.'
      : `Sollecito inviato a ${formatCount(result.institutes, 'istituto', 'istituti')} (${formatCount(result.messages, 'e-mail', 'e-mail')} in partenza).`,
  ];
  if (result.remindedToday)
    parts.push(
      `${formatCount(result.remindedToday, 'istituto era già stato sollecitato', 'istituti erano già stati sollecitati')} oggi.`,
    );
  if (result.withoutContacts)
    parts.push(
      `${formatCount(result.withoutContacts, 'istituto non ha', 'istituti non hanno')} dirigente né referente a cui scrivere.`,
    );
  return { ok: true, message: parts.join(' ') };
});

/** The funnel: every state with its count and share, each a link that filters the list by it. */
function Funnel({ funnel }: { funnel: AdhesionFunnel }) {
  const list = useListParams(DEFAULT_SORT);
  const enrolled = funnel.states.filter((s) => s.state !== 'nessuna').reduce((sum, s) => sum + s.count, 0);
  const max = Math.max(1, ...funnel.states.map((s) => s.count));
  return (
    <section aria-labelledby="funnel-title" className="mb-5">
      <h2 id="funnel-title" className="h4">
        Istituti per stato di adesione
      </h2>
      <p>
        {formatCount(enrolled, 'istituto ha aderito', 'istituti hanno aderito')} al programma su{' '}
        {formatNumber(funnel.total)} dell’anagrafe con questi filtri.
      </p>
      <div className="table-responsive">
        <table className="table table-sm align-middle" data-testid="adhesion-funnel">
          <caption className="visually-hidden">Numero di istituti per stato di adesione</caption>
          <thead>
            <tr>
              <th scope="col">Stato</th>
              <th scope="col" className="text-end">
                Istituti
              </th>
              <th scope="col" className="w-50">
                <span className="visually-hidden">Proporzione</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {funnel.states.map(({ state, count }) => (
              <tr key={state} data-state={state}>
                <th scope="row" className="fw-normal">
                  <Link to={list.hrefWith({ adhesionState: state, page: null })} preventScrollReset>
                    {ADHESION_STATE_LABELS[state]}
                  </Link>
                </th>
                <td className="text-end">{formatNumber(count)}</td>
                <td aria-hidden="true">
                  <div
                    className="bg-primary rounded"
                    style={{ height: '0.75rem', width: `${Math.max(count ? 1 : 0, (count / max) * 100)}%` }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Reminders to the filtered institutes of a state where it is the school's turn: a count, then a confirmation. */
function Reminders({ query, preview }: { query: Record<string, string>; preview: ReminderPreview | null }) {
  const result = useActionData<ActionData>();
  const id = useId();
  const state = query.adhesionState;
  return (
    <section aria-labelledby={`${id}-title`} className="mb-5" data-testid="reminders">
      <h2 id={`${id}-title`} className="h4">
        Solleciti
      </h2>
      {result?.intent === 'remind' && result.message && (
        <FormMessage message={result.message} tone={result.ok ? 'success' : 'danger'} />
      )}
      {!isReminderState(state) || !preview ? (
        <p>
          Per sollecitare gli istituti fermi in uno stato, filtra per stato «{ADHESION_STATE_LABELS.iscritto}»
          (devono firmare l’adesione) o «{ADHESION_STATE_LABELS.da_correggere}» (devono correggerla): il
          sollecito va al dirigente e al referente, al massimo una volta al giorno per istituto.
        </p>
      ) : (
        <>
          <p>
            Con i filtri attuali il sollecito andrebbe a{' '}
            <strong>{formatCount(preview.eligible, 'istituto', 'istituti')}</strong> nello stato «
            {ADHESION_STATE_LABELS[state]}».
            {preview.remindedToday > 0 &&
              ` ${formatCount(preview.remindedToday, 'istituto è già stato sollecitato', 'istituti sono già stati sollecitati')} oggi.`}
            {preview.withoutContacts > 0 &&
              ` ${formatCount(preview.withoutContacts, 'istituto non ha', 'istituti non hanno')} un dirigente o un referente a cui scrivere.`}
          </p>
          {preview.eligible > 0 && (
            <ConfirmButton
              intent="remind"
              fields={Object.fromEntries(
                Object.entries(query).filter(([key]) =>
                  ['q', 'region', 'province', 'minDaysInState', 'adhesionState'].includes(key),
                ),
              )}
              label="Invia un sollecito"
              question={`Inviare ora il sollecito a ${formatCount(preview.eligible, 'istituto', 'istituti')}? Le e-mail partono subito e non si possono ritirare.`}
              confirmLabel={`Conferma: invia ${formatCount(preview.eligible, 'sollecito', 'solleciti')}`}
            />
          )}
        </>
      )}
    </section>
  );
}

/** Staff and user.index: institutes by adhesion state, with the funnel, filters, reminders and export. */
export function Component() {
  const { query, result, problem, funnel, preview } = useLoaderData<Data>();
  const { user } = useSession();
  const page = getPage('portal.adhesions-panel');
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      {funnel && <Funnel funnel={funnel} />}
      <FilterBar
        label="Filtra gli istituti del pannello"
        query={query}
        search={{ label: 'Cerca', hint: 'Parte del nome, del comune o del codice meccanografico.' }}
        geography
        selects={[STATE_FILTER, DAYS_FILTER]}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      {can(user, 'manage:adhesion') && <Reminders query={query} preview={preview} />}
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Istituti e stato della loro adesione"
        columns={columnsFor(canSome(user, 'read:institute'))}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'istituto trovato', many: 'istituti trovati' }}
        noMatch="Nessun istituto corrisponde ai filtri. Senza filtro di stato il pannello mostra solo gli istituti che hanno aderito."
        exportEndpoint={exportAdhesions}
        exportName="adesioni"
      />
    </>
  );
}
