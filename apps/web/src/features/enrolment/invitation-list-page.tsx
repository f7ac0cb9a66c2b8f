import { useEffect, useRef } from 'react';
import {
  Form,
  useActionData,
  useLoaderData,
  useNavigation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import { can, ROLE_LABELS } from '@portale/shared/auth';
import {
  cancelEnrolmentInvitation,
  ENROLMENT_INVITATION_STATE_LABELS,
  ENROLMENT_INVITATION_STATES,
  exportStaffEnrolmentInvitations,
  listStaffEnrolmentInvitations,
  resendEnrolmentInvitation,
  type StaffEnrolmentInvitation,
} from '@portale/shared/enrolment';
import { getPage } from '@portale/shared/pages';
import { Button } from 'design-react-kit';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { callApi } from '../../lib/api-client.ts';
import { formatShortDateTime } from '../../lib/format.ts';
import { failureResult, text, type FormResult } from '../../lib/form-data.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { useSession } from '../../lib/session.ts';

const DEFAULT_SORT = '-createdAt';
const INTENTS = { resend: resendEnrolmentInvitation, cancel: cancelEnrolmentInvitation } as const;
type Intent = keyof typeof INTENTS;

type Data = ListLoaderData<typeof listStaffEnrolmentInvitations>;
type Outcome = FormResult & { ok?: boolean };

export function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  return loadList(listStaffEnrolmentInvitations, request);
}

/** Sends a pending invitation again, or cancels it; the list reloads with its new state. */
export async function action({ request }: ActionFunctionArgs): Promise<Outcome> {
  const form = await request.formData();
  const intent = text(form, 'intent') as Intent;
  const invitationId = Number(text(form, 'invitationId'));
  const endpoint = INTENTS[intent];
  if (!endpoint || !Number.isInteger(invitationId) || invitationId <= 0)
    return { message: 'Richiesta non valida: ricarica la pagina e riprova.' };
  try {
    const result = await callApi(endpoint, { params: { invitationId } });
    return { ok: true, message: result.message };
  } catch (error) {
    return failureResult(error);
  }
}

function StateCell({ invitation }: { invitation: StaffEnrolmentInvitation }) {
  return (
    <>
      {ENROLMENT_INVITATION_STATE_LABELS[invitation.state]}
      {invitation.expired && <span className="badge bg-warning ms-2">Scaduto</span>}
    </>
  );
}

/** Send again and cancel, for a pending invitation and a member of staff who manages adhesions. */
function RowActions({ invitation }: { invitation: StaffEnrolmentInvitation }) {
  const { user } = useSession();
  const navigation = useNavigation();
  if (invitation.state !== 'in_attesa' || !can(user, 'manage:adhesion')) return null;
  const busy = navigation.state !== 'idle';
  const who = `${invitation.inviteeName}, ${invitation.instituteName}`;
  return (
    <div className="d-flex flex-wrap gap-2">
      <Form method="post">
        <input type="hidden" name="invitationId" value={invitation.id} />
        <Button
          type="submit"
          name="intent"
          value="resend"
          color="primary"
          outline
          className="btn-xs"
          disabled={busy}
          aria-label={`Invia di nuovo l’invito a ${who}`}
        >
          Invia di nuovo
        </Button>
      </Form>
      <Form
        method="post"
        onSubmit={(event) => {
          if (!window.confirm(`Annullare l’invito a ${who}? La persona non potrà più accettarlo.`))
            event.preventDefault();
        }}
      >
        <input type="hidden" name="invitationId" value={invitation.id} />
        <Button
          type="submit"
          name="intent"
          value="cancel"
          color="danger"
          outline
          className="btn-xs"
          disabled={busy}
          aria-label={`Annulla l’invito a ${who}`}
        >
          Annulla
        </Button>
      </Form>
    </div>
  );
}

const column = listColumnHelper<StaffEnrolmentInvitation>();
const COLUMNS = [
  column.accessor('instituteName', {
    header: 'Istituto',
    meta: { rowHeader: true },
    cell: (c) => (
      <>
        {c.getValue()} <span className="text-muted">({c.row.original.ministryCode})</span>
      </>
    ),
  }),
  column.accessor('inviteeName', {
    header: 'Persona invitata',
    cell: (c) => (
      <>
        {c.getValue()}
        <br />
        <span className="text-muted">{c.row.original.inviteeEmail}</span>
      </>
    ),
  }),
  column.accessor('roles', {
    header: 'Ruoli',
    enableSorting: false,
    cell: (c) =>
      c
        .getValue()
        .map((r) => ROLE_LABELS[r])
        .join(', '),
  }),
  column.accessor('state', { header: 'Stato', cell: (c) => <StateCell invitation={c.row.original} /> }),
  column.accessor('createdAt', { header: 'Inviato il', cell: (c) => formatShortDateTime(c.getValue()) }),
  column.accessor('expiresAt', { header: 'Scade il', cell: (c) => formatShortDateTime(c.getValue()) }),
  column.display({
    id: 'actions',
    header: 'Azioni',
    cell: (c) => <RowActions invitation={c.row.original} />,
  }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'createdAt', label: 'Data di invio' },
  { value: 'expiresAt', label: 'Scadenza' },
  { value: 'instituteName', label: 'Istituto' },
  { value: 'inviteeName', label: 'Persona invitata' },
  { value: 'state', label: 'Stato' },
]);
const FILTERS: SelectFilter[] = [
  {
    name: 'state',
    label: 'Stato',
    anyLabel: 'Tutti',
    options: ENROLMENT_INVITATION_STATES.map((s) => ({
      value: s,
      label: ENROLMENT_INVITATION_STATE_LABELS[s],
    })),
  },
  {
    name: 'expired',
    label: 'Scadenza',
    anyLabel: 'Tutti',
    options: [
      { value: 'true', label: 'Scaduti' },
      { value: 'false', label: 'Non scaduti' },
    ],
  },
];

/** Staff: the invitations of existing accounts named in an enrolment (issue 32), with the list pattern; pending ones can be sent again or cancelled. */
export function Component() {
  const { query, result, problem } = useLoaderData<Data>();
  const outcome = useActionData<Outcome>();
  const page = getPage('portal.enrolment-invitations');
  const message = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (outcome?.message) message.current?.focus();
  }, [outcome]);
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      <p>
        Quando un’iscrizione nomina come dirigente o referente una persona che ha già un account, il portale
        non le assegna il ruolo: le invia un invito, che lei accetta dal portale entro 30 giorni. Da qui puoi
        inviarlo di nuovo (per altri 30 giorni) o annullarlo.
      </p>
      <div ref={message} tabIndex={-1}>
        <FormMessage message={outcome?.message} tone={outcome?.ok ? 'success' : 'danger'} />
      </div>
      <FilterBar
        label="Cerca negli inviti"
        query={query}
        search={{
          label: 'Cerca',
          hint: 'Nome o codice dell’istituto, nome o e-mail della persona invitata.',
        }}
        selects={FILTERS}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Inviti di iscrizione"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'invito trovato', many: 'inviti trovati' }}
        noMatch="Nessun invito corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportStaffEnrolmentInvitations}
        exportName="inviti-iscrizione"
      />
    </>
  );
}
