import type { ReactNode } from 'react';
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import { Button } from 'design-react-kit';
import { can } from '@portale/shared/auth';
import { getPage } from '@portale/shared/pages';
import { REGIONS } from '@portale/shared/registry';
import {
  decideSubstitution,
  exportSubstitutions,
  getSubstitution,
  listSubstitutions,
  SUBSTITUTION_NOTE_MAX,
  SUBSTITUTION_STATE_LABELS,
  SUBSTITUTION_STATES,
  SubstitutionDecisionSchema,
  type SubstitutionState,
  type SubstitutionSummary,
} from '@portale/shared/substitutions';
import { listColumnHelper } from '../../components/data-table/data-table.tsx';
import { FilterBar, type SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { searchString, sortOptionsOf, withParams } from '../../components/data-table/list-params.ts';
import { ListResults } from '../../components/data-table/list-results.tsx';
import { TextAreaField } from '../../components/form/text-area-field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatDate, formatDateTime, formatShortDateTime } from '../../lib/format.ts';
import { loadList, type ListLoaderData } from '../../lib/list-loader.ts';
import { getSession } from '../../lib/session.ts';

/** The URL keys of the panel: the open request and the decision being confirmed. */
const OPEN = 'sostituzione';
const DECIDING = 'decisione';
const DEFAULT_SORT = '-createdAt';

const STATE_BADGE: Record<SubstitutionState, string> = {
  richiesta: 'bg-warning',
  approvata: 'bg-success',
  respinta: 'bg-danger',
};

function StateBadge({ state }: { state: SubstitutionState }) {
  return <span className={`badge ${STATE_BADGE[state]}`}>{SUBSTITUTION_STATE_LABELS[state]}</span>;
}

/** The link that opens a request in the panel, keeping the list's filters and page. */
function OpenLink({ row }: { row: SubstitutionSummary }) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.set(OPEN, String(row.id));
  params.delete(DECIDING);
  return <Link to={`${location.pathname}?${params.toString()}`}>{row.outgoingName}</Link>;
}

const column = listColumnHelper<SubstitutionSummary>();
const COLUMNS = [
  column.accessor('outgoingName', {
    header: 'Insegnante uscente',
    meta: { rowHeader: true },
    cell: (c) => <OpenLink row={c.row.original} />,
  }),
  column.accessor('incomingName', {
    header: 'Subentrante',
    enableSorting: false,
    cell: (c) => `${c.getValue()}${c.row.original.incomingUserId === null ? ' (da invitare)' : ''}`,
  }),
  column.accessor('schoolSiteName', {
    header: 'Plesso',
    cell: (c) => `${c.getValue()} (${c.row.original.schoolSiteCode})`,
  }),
  column.accessor('instituteName', { header: 'Istituto', enableSorting: false }),
  column.accessor('region', { header: 'Regione', enableSorting: false }),
  column.accessor('effectiveOn', { header: 'Decorrenza', cell: (c) => formatDate(c.getValue()) }),
  column.accessor('createdAt', { header: 'Richiesta il', cell: (c) => formatShortDateTime(c.getValue()) }),
  column.accessor('state', { header: 'Stato', cell: (c) => <StateBadge state={c.getValue()} /> }),
];
const SORT_OPTIONS = sortOptionsOf([
  { value: 'createdAt', label: 'Data della richiesta' },
  { value: 'effectiveOn', label: 'Decorrenza' },
  { value: 'outgoingName', label: 'Insegnante uscente' },
  { value: 'schoolSiteName', label: 'Plesso' },
  { value: 'state', label: 'Stato' },
]);
const STATE_FILTER: SelectFilter = {
  name: 'state',
  label: 'Stato',
  anyLabel: 'Tutti',
  options: SUBSTITUTION_STATES.map((s) => ({ value: s, label: SUBSTITUTION_STATE_LABELS[s] })),
};
const REGION_FILTER: SelectFilter = {
  name: 'region',
  label: 'Regione',
  anyLabel: 'Tutte',
  options: REGIONS.map((r) => ({ value: r, label: r })),
};

interface Data extends ListLoaderData<typeof listSubstitutions> {
  /** The request open in the panel (`?sostituzione=`), or why it cannot be shown. */
  open: SubstitutionSummary | null;
  openProblem: string | null;
}

export async function loader({ request }: LoaderFunctionArgs): Promise<Data> {
  const id = Number(new URL(request.url).searchParams.get(OPEN));
  const [list, opened] = await Promise.all([
    loadList(listSubstitutions, request),
    Number.isInteger(id) && id > 0
      ? callApi(getSubstitution, { params: { substitutionId: id } }, { signal: request.signal }).then(
          (s) => ({ open: s, openProblem: null }),
          (error: unknown) => {
            if (error instanceof ApiError && error.status !== 401)
              return { open: null, openProblem: error.message };
            throw error;
          },
        )
      : Promise.resolve({ open: null, openProblem: null }),
  ]);
  return { ...list, ...opened };
}

interface DecisionResult {
  ok?: string;
  message?: string;
  errors?: Record<string, string[]>;
  note?: string;
}

export async function action({ request }: ActionFunctionArgs): Promise<DecisionResult> {
  const form = await request.formData();
  const substitutionId = Number(form.get('substitutionId'));
  const body = { decision: String(form.get('decision') ?? ''), note: String(form.get('note') ?? '') };
  const parsed = SubstitutionDecisionSchema.safeParse(body);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[String(issue.path[0])] ??= []).push(issue.message);
    return { message: 'Controlla i campi evidenziati.', errors, note: body.note };
  }
  try {
    const result = await callApi(decideSubstitution, { params: { substitutionId }, body: body as never });
    return { ok: result.message };
  } catch (error) {
    if (error instanceof ApiError && error.status !== 401) {
      const errors = (error.body as { errors?: Record<string, string[]> } | undefined)?.errors;
      return { message: error.message, note: body.note, ...(errors ? { errors } : {}) };
    }
    throw error;
  }
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="col-sm-4">{label}</dt>
      <dd className="col-sm-8">{children}</dd>
    </>
  );
}

/** The open request: its facts, and for a decider the approve / reject steps, each confirmed. */
function DecisionPanel({ s }: { s: SubstitutionSummary }) {
  const location = useLocation();
  const result = useActionData<DecisionResult>();
  const busy = useNavigation().state === 'submitting';
  const current = new URLSearchParams(location.search);
  const deciding = current.get(DECIDING);
  const hrefWith = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(current);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    return `${location.pathname}${searchString(next)}`;
  };
  const mayDecide = can(getSession().user, 'decide:substitution') && s.state === 'richiesta';
  const noteError = result?.errors?.note?.[0];
  return (
    <section
      aria-labelledby="sostituzione-title"
      className="card card-bg mb-5"
      data-testid="substitution-panel"
    >
      <div className="card-body">
        <h2 id="sostituzione-title" className="h4">
          Sostituzione di {s.outgoingName}{' '}
          <span className="fs-6 align-middle">
            <StateBadge state={s.state} />
          </span>
        </h2>
        <dl className="row">
          <Fact label="Plesso">
            {s.schoolSiteName} ({s.schoolSiteCode}), {s.municipalityName} ({s.province})
          </Fact>
          <Fact label="Istituto">{s.instituteName}</Fact>
          <Fact label="Insegnante uscente">
            {s.outgoingName} – <a href={`mailto:${s.outgoingEmail}`}>{s.outgoingEmail}</a>
          </Fact>
          <Fact label="Subentrante">
            {s.incomingName}
            {s.incomingEmail && (
              <>
                {' '}
                – <a href={`mailto:${s.incomingEmail}`}>{s.incomingEmail}</a>
              </>
            )}
            {s.incomingUserId === null && ' (non ha ancora un account: riceverà l’invito con l’approvazione)'}
          </Fact>
          <Fact label="Motivo">{s.reason}</Fact>
          <Fact label="Decorrenza">
            {formatDate(s.effectiveOn)}
            {s.state === 'approvata' &&
              (s.appliedAt
                ? ` – in vigore dal ${formatDateTime(s.appliedAt)}`
                : ' – approvata, in attesa della data: fino ad allora resta in servizio l’insegnante uscente')}
          </Fact>
          <Fact label="Richiesta">
            il {formatDateTime(s.createdAt)}
            {s.requestedByName && ` da ${s.requestedByName}`}
          </Fact>
          {s.decidedAt && (
            <Fact label="Decisione">
              {SUBSTITUTION_STATE_LABELS[s.state]} il {formatDateTime(s.decidedAt)}
              {s.decidedByName && ` da ${s.decidedByName}`}
              {s.decisionNote && <> – nota: «{s.decisionNote}»</>}
            </Fact>
          )}
        </dl>
        <div role="status" data-testid="decision-outcome">
          {result?.ok && <div className="alert alert-success">{result.ok}</div>}
        </div>
        {result?.message && !noteError && (
          <div className="alert alert-danger" role="alert">
            {result.message}
          </div>
        )}
        {mayDecide && deciding !== 'approvata' && deciding !== 'respinta' && (
          <div className="d-flex flex-wrap gap-2">
            <Link className="btn btn-primary" to={hrefWith({ [DECIDING]: 'approvata' })}>
              Approva la sostituzione
            </Link>
            <Link className="btn btn-outline-danger" to={hrefWith({ [DECIDING]: 'respinta' })}>
              Respingi la richiesta
            </Link>
          </div>
        )}
        {mayDecide && deciding === 'approvata' && (
          <Form method="post" className="alert alert-warning" aria-labelledby="conferma-approvazione">
            <h3 id="conferma-approvazione" className="h5">
              Confermi l’approvazione?
            </h3>
            <p>
              Dal {formatDate(s.effectiveOn)} (o da subito, se quel giorno è già arrivato) {s.incomingName}{' '}
              entra nel plesso {s.schoolSiteName} con le classi e i codici di accesso alle indagini di{' '}
              {s.outgoingName}, che fino ad allora resta in servizio e poi lascia il plesso.
              {s.incomingUserId === null &&
                ' Creeremo l’account di chi subentra e gli invieremo il collegamento per scegliere la password (vale 7 giorni).'}{' '}
              Le persone coinvolte e chi ha fatto la richiesta riceveranno una e-mail.
            </p>
            <input type="hidden" name="substitutionId" value={s.id} />
            <input type="hidden" name="decision" value="approvata" />
            <TextAreaField
              id="approve-note"
              name="note"
              label="Nota (facoltativa)"
              labelClassName="form-label"
              rows={2}
              maxLength={SUBSTITUTION_NOTE_MAX}
            />
            <div className="d-flex flex-wrap gap-2">
              <Button color="primary" type="submit" disabled={busy}>
                Conferma l’approvazione
              </Button>
              <Link className="btn btn-outline-secondary" to={hrefWith({ [DECIDING]: null })}>
                Annulla
              </Link>
            </div>
          </Form>
        )}
        {mayDecide && deciding === 'respinta' && (
          <Form method="post" className="alert alert-warning" aria-labelledby="conferma-rifiuto">
            <h3 id="conferma-rifiuto" className="h5">
              Confermi di respingere la richiesta?
            </h3>
            <p>Nulla cambia nel plesso. Chi ha fatto la richiesta riceverà una e-mail con la tua nota.</p>
            <input type="hidden" name="substitutionId" value={s.id} />
            <input type="hidden" name="decision" value="respinta" />
            <TextAreaField
              id="reject-note"
              name="note"
              label="Nota per chi ha fatto la richiesta (obbligatoria)"
              fieldClassName="mb-1"
              labelClassName="form-label"
              className={`form-control${noteError ? ' is-invalid' : ''}`}
              rows={3}
              required
              maxLength={SUBSTITUTION_NOTE_MAX}
              defaultValue={result?.note ?? ''}
              error={noteError}
            />
            <div className="d-flex flex-wrap gap-2 mt-2">
              <Button color="danger" type="submit" disabled={busy}>
                Conferma il rifiuto
              </Button>
              <Link className="btn btn-outline-secondary" to={hrefWith({ [DECIDING]: null })}>
                Annulla
              </Link>
            </div>
          </Form>
        )}
        <p className="mt-3 mb-0">
          <Link to={hrefWith({ [OPEN]: null, [DECIDING]: null })}>Chiudi la scheda</Link>
        </p>
      </div>
    </section>
  );
}

/** Staff (super-admin, Sylla): every substitution request, a panel to read and decide one. */
export function Component() {
  const { query, result, problem, open, openProblem } = useLoaderData<Data>();
  const page = getPage('portal.substitutions');
  const location = useLocation();
  return (
    <>
      <PageHeader title={page.title} description={page.description} />
      {openProblem && (
        <div className="alert alert-warning" role="alert">
          {openProblem}{' '}
          <Link
            to={`${location.pathname}${searchString(withParams(new URLSearchParams(location.search), { [OPEN]: null, [DECIDING]: null }))}`}
          >
            Torna all’elenco
          </Link>
        </div>
      )}
      {open && <DecisionPanel key={open.id} s={open} />}
      <h2 className="h4 mb-5">Richieste di sostituzione</h2>
      <FilterBar
        label="Cerca nelle sostituzioni"
        query={query}
        search={{
          label: 'Cerca',
          hint: 'Nome o e-mail di un insegnante, nome o codice del plesso o dell’istituto.',
        }}
        selects={[STATE_FILTER, REGION_FILTER]}
        sortOptions={SORT_OPTIONS}
        defaultSort={DEFAULT_SORT}
        errors={problem?.errors}
      />
      <ListResults
        query={query}
        result={result}
        problem={problem}
        caption="Richieste di sostituzione"
        columns={COLUMNS}
        defaultSort={DEFAULT_SORT}
        nouns={{ one: 'richiesta trovata', many: 'richieste trovate' }}
        noMatch="Nessuna richiesta di sostituzione corrisponde alla ricerca e ai filtri."
        exportEndpoint={exportSubstitutions}
        exportName="sostituzioni"
      />
    </>
  );
}
