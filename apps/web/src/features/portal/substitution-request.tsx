import { Form, useActionData, useNavigation } from 'react-router';
import { Button } from 'design-react-kit';
import { canSome, type SessionUser } from '@portale/shared/auth';
import {
  createSubstitution,
  getSubstitutionCandidates,
  listSubstitutions,
  romeToday,
  SUBSTITUTION_MESSAGES,
  SUBSTITUTION_REASON_MAX,
  SUBSTITUTION_STATE_LABELS,
  SubstitutionCreateSchema,
  type SubstitutionCandidates,
  type SubstitutionState,
  type SubstitutionSummary,
} from '@portale/shared/substitutions';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format.ts';
import { DateTimeField, InputField } from '../../components/form/input-field.tsx';
import { SelectField } from '../../components/form/select-field.tsx';
import { TextAreaField } from '../../components/form/text-area-field.tsx';

/** The intent of the request form among the home's forms. */
export const SUBSTITUTION_INTENT = 'substitution-request';

/** Principals and first contacts ask for substitutions (staff decide them on their own page). */
export function mayRequestSubstitutions(user: SessionUser | null): boolean {
  return canSome(user, 'create:substitution');
}

export interface SubstitutionRequestData {
  candidates: SubstitutionCandidates;
  requests: SubstitutionSummary[];
  total: number;
}
export type SubstitutionRequestResult =
  { data: SubstitutionRequestData; problem: null } | { data: null; problem: string };

/** The institute's plessi and teachers, and the institute's requests (newest first). */
export async function loadSubstitutionRequests(signal: AbortSignal): Promise<SubstitutionRequestResult> {
  try {
    const [candidates, list] = await Promise.all([
      callApi(getSubstitutionCandidates, {}, { signal }),
      callApi(listSubstitutions, { query: { pageSize: 25, sort: '-createdAt' } } as never, { signal }),
    ]);
    return { data: { candidates, requests: list.items, total: list.total }, problem: null };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 401) throw error;
    return {
      data: null,
      problem: 'Le richieste di sostituzione non sono disponibili in questo momento. Riprova più tardi.',
    };
  }
}

interface RequestOutcome {
  intent: typeof SUBSTITUTION_INTENT;
  ok?: string;
  message?: string;
  errors?: Record<string, string[]>;
  values?: Record<string, string>;
}

const FIELDS = [
  'teacher',
  'incomingEmail',
  'incomingFirstName',
  'incomingLastName',
  'reason',
  'effectiveOn',
] as const;

/** The route action of the request form (called by the home's action for its intent). */
export async function substitutionRequestAction(form: FormData): Promise<RequestOutcome> {
  const values = Object.fromEntries(FIELDS.map((f) => [f, String(form.get(f) ?? '')]));
  const [siteId, userId] = values.teacher!.split(':');
  const body = {
    schoolSiteId: siteId ?? '',
    outgoingUserId: userId ?? '',
    incomingEmail: values.incomingEmail,
    incomingFirstName: values.incomingFirstName,
    incomingLastName: values.incomingLastName,
    reason: values.reason,
    effectiveOn: values.effectiveOn,
  };
  const fail = (message: string, errors: Record<string, string[]>): RequestOutcome => {
    // The plesso and the outgoing teacher are one choice in the form.
    const teacher = [...(errors.outgoingUserId ?? []), ...(errors.schoolSiteId ?? [])];
    const { schoolSiteId: _s, outgoingUserId: _o, ...rest } = errors;
    return {
      intent: SUBSTITUTION_INTENT,
      message,
      values,
      errors: teacher.length ? { ...rest, teacher } : rest,
    };
  };
  const parsed = SubstitutionCreateSchema.safeParse(body);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[String(issue.path[0])] ??= []).push(issue.message);
    // The cross-field rules run only once every field is valid: say at once what the incoming person needs.
    if (!body.incomingEmail?.trim()) errors.incomingEmail ??= [SUBSTITUTION_MESSAGES.incoming];
    if (!body.incomingFirstName?.trim())
      errors.incomingFirstName ??= [SUBSTITUTION_MESSAGES.incomingFirstName];
    if (!body.incomingLastName?.trim()) errors.incomingLastName ??= [SUBSTITUTION_MESSAGES.incomingLastName];
    return fail('Controlla i campi evidenziati.', errors);
  }
  try {
    const result = await callApi(createSubstitution, { body: body as never });
    return { intent: SUBSTITUTION_INTENT, ok: result.message };
  } catch (error) {
    if (error instanceof ApiError && error.status !== 401) {
      const errors = (error.body as { errors?: Record<string, string[]> } | undefined)?.errors ?? {};
      return fail(error.message, errors);
    }
    throw error;
  }
}

const STATE_BADGE: Record<SubstitutionState, string> = {
  richiesta: 'bg-warning',
  approvata: 'bg-success',
  respinta: 'bg-danger',
};

function Requests({ requests, total }: { requests: SubstitutionSummary[]; total: number }) {
  if (requests.length === 0) return <p>L’istituto non ha ancora inviato richieste di sostituzione.</p>;
  return (
    <>
      {total > requests.length && (
        <p>
          Ecco le {requests.length} richieste più recenti su {total}.
        </p>
      )}
      <div
        className="table-responsive mb-4"
        tabIndex={0}
        role="region"
        aria-label="Richieste di sostituzione dell’istituto"
      >
        <table className="table table-sm" data-testid="substitution-requests">
          <caption className="visually-hidden">
            Richieste di sostituzione dell’istituto, dalla più recente
          </caption>
          <thead>
            <tr>
              <th scope="col">Insegnante uscente</th>
              <th scope="col">Subentrante</th>
              <th scope="col">Plesso</th>
              <th scope="col">Decorrenza</th>
              <th scope="col">Stato</th>
            </tr>
          </thead>
          <tbody>
            {requests.map((r) => (
              <tr key={r.id}>
                <th scope="row" className="fw-normal">
                  {r.outgoingName}
                </th>
                <td>{r.incomingName}</td>
                <td>{r.schoolSiteName}</td>
                <td>{formatDate(r.effectiveOn)}</td>
                <td>
                  <span className={`badge ${STATE_BADGE[r.state]}`}>
                    {SUBSTITUTION_STATE_LABELS[r.state]}
                  </span>
                  {r.state === 'approvata' && !r.appliedAt && (
                    <span className="d-block small">In vigore dal {formatDate(r.effectiveOn)}</span>
                  )}
                  {r.decisionNote && <span className="d-block small">Nota: {r.decisionNote}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** `/portale` of a principal or first contact: "Richiedi una sostituzione" and the institute's requests. */
export function SubstitutionRequest({ data }: { data: SubstitutionRequestData }) {
  const outcome = useActionData<RequestOutcome | undefined>();
  const result = outcome?.intent === SUBSTITUTION_INTENT ? outcome : undefined;
  const busy = useNavigation().state === 'submitting';
  const sites = data.candidates.sites.filter((s) => s.teachers.length > 0);
  const v = result?.ok ? {} : (result?.values ?? {});
  const err = result?.errors ?? {};
  return (
    <section aria-labelledby="sostituzioni-title" className="mb-5" data-testid="substitution-request">
      <h2 id="sostituzioni-title" className="h4">
        Sostituzioni di insegnanti
      </h2>
      <p>
        Se un insegnante lascia un plesso, chiedi qui di sostituirlo: lo staff del programma esamina la
        richiesta e, se la approva, il plesso, le classi e i codici di accesso alle indagini passano a chi
        subentra. Chi non ha ancora un account riceve l’invito a registrarsi.
      </p>
      <h3 className="h5">Le richieste dell’istituto</h3>
      <Requests requests={data.requests} total={data.total} />

      <h3 className="h5" id="richiedi-sostituzione">
        Richiedi una sostituzione
      </h3>
      <div role="status" data-testid="substitution-request-outcome">
        {result?.ok && <div className="alert alert-success">{result.ok}</div>}
      </div>
      {result?.message && (
        <div className="alert alert-danger" role="alert">
          {result.message}
        </div>
      )}
      {sites.length === 0 ? (
        <p>Nei plessi dell’istituto non ci sono ancora insegnanti registrati da sostituire.</p>
      ) : (
        <Form
          method="post"
          noValidate
          className="row g-3"
          aria-labelledby="richiedi-sostituzione"
          key={result?.ok ?? 'form'}
        >
          <input type="hidden" name="intent" value={SUBSTITUTION_INTENT} />
          <SelectField
            id="sub-teacher"
            name="teacher"
            label="Insegnante che lascia il plesso"
            fieldClassName="col-md-6"
            labelClassName="form-label"
            required
            defaultValue={v.teacher ?? ''}
            error={err.teacher?.[0]}
          >
            <option value="">Scegli…</option>
            {sites.map((s) => (
              <optgroup key={s.id} label={`${s.name} (${s.ministryCode})`}>
                {s.teachers.map((t) => (
                  <option key={t.userId} value={`${s.id}:${t.userId}`}>
                    {t.name} – {t.email} ({s.name})
                  </option>
                ))}
              </optgroup>
            ))}
          </SelectField>
          <DateTimeField
            id="sub-effectiveOn"
            name="effectiveOn"
            type="date"
            label="Data di decorrenza"
            fieldClassName="col-md-6"
            labelClassName="form-label"
            required
            min={romeToday(new Date())}
            defaultValue={v.effectiveOn ?? ''}
            error={err.effectiveOn?.[0]}
          />
          <fieldset className="col-12">
            <legend className="h6">Chi subentra</legend>
            <p className="small mb-2">
              Se ha già un account del portale con questo indirizzo, lo collegheremo; altrimenti riceverà
              l’invito con l’approvazione.
            </p>
            <div className="row g-3">
              <InputField
                id="sub-incomingEmail"
                name="incomingEmail"
                type="email"
                label="E-mail"
                fieldClassName="col-md-4"
                labelClassName="form-label"
                autoComplete="off"
                required
                defaultValue={v.incomingEmail ?? ''}
                error={(err.incomingEmail ?? err.incomingUserId)?.[0]}
              />
              <InputField
                id="sub-incomingFirstName"
                name="incomingFirstName"
                type="text"
                label="Nome"
                fieldClassName="col-md-4"
                labelClassName="form-label"
                autoComplete="off"
                required
                maxLength={60}
                defaultValue={v.incomingFirstName ?? ''}
                error={err.incomingFirstName?.[0]}
              />
              <InputField
                id="sub-incomingLastName"
                name="incomingLastName"
                type="text"
                label="Cognome"
                fieldClassName="col-md-4"
                labelClassName="form-label"
                autoComplete="off"
                required
                maxLength={60}
                defaultValue={v.incomingLastName ?? ''}
                error={err.incomingLastName?.[0]}
              />
            </div>
          </fieldset>
          <TextAreaField
            id="sub-reason"
            name="reason"
            label="Motivo"
            fieldClassName="col-12"
            labelClassName="form-label"
            rows={3}
            required
            maxLength={SUBSTITUTION_REASON_MAX}
            defaultValue={v.reason ?? ''}
            error={err.reason?.[0]}
          />
          <div className="col-12">
            <Button color="primary" type="submit" disabled={busy}>
              Invia la richiesta
            </Button>
          </div>
        </Form>
      )}
    </section>
  );
}
