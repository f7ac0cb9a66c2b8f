import { useState, type FormEvent } from 'react';
import { useRevalidator } from 'react-router';
import {
  ACTION_EVIDENCE_FILE_MAX_BYTES,
  ACTION_EVIDENCE_TEXT_MAX,
  ACTION_MESSAGES,
  ACTION_STATE_LABELS,
  ACTION_TARGET_LABELS,
  getMyActions,
  transitionAction,
  uploadActionEvidence,
  type ActionDetail,
  type ActionState,
  type MyActionsResponse,
} from '@portale/shared/actions';
import { can, canSome, type SessionUser } from '@portale/shared/auth';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';

const BADGES: Record<ActionState, string> = {
  da_fare: 'bg-secondary',
  in_corso: 'bg-primary',
  completata: 'bg-warning',
  verificata: 'bg-success',
};

/** Whoever actions are assigned to (principal, first contact, teacher, educator) and who does not follow every action (staff). */
export function mayHaveDueActions(user: SessionUser | null): boolean {
  return canSome(user, 'read:action') && !can(user, 'read:action');
}

export type DueActionsResult = { data: MyActionsResponse; problem: null } | { data: null; problem: string };

export async function loadDueActions(signal: AbortSignal): Promise<DueActionsResult> {
  try {
    return { data: await callApi(getMyActions, {}, { signal }), problem: null };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 401) throw error;
    return {
      data: null,
      problem: 'Le tue azioni non sono disponibili in questo momento. Riprova più tardi.',
    };
  }
}

/** Sends the evidence file as the request body (the API checks its real type and size). */
async function uploadEvidence(actionId: number, file: File): Promise<ActionDetail> {
  return callApi(uploadActionEvidence, {
    params: { actionId },
    query: { filename: file.name },
    // Sent as its own type when the contract accepts it (PDF, PNG, JPEG), otherwise as octet-stream.
    body: file,
  });
}

function StateBadge({ state, overdue }: { state: ActionState; overdue: boolean }) {
  return (
    <>
      <span className={`badge ${BADGES[state]}`}>{ACTION_STATE_LABELS[state]}</span>
      {overdue && <span className="badge bg-danger ms-1">Scaduta</span>}
    </>
  );
}

interface Feedback {
  ok?: string;
  error?: string;
  field?: string;
}

function DueAction({ action, onDone }: { action: ActionDetail; onDone: (message: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>({});
  const prefix = `azione-${action.id}`;
  const run = async (work: () => Promise<ActionDetail>, done: string) => {
    setBusy(true);
    setFeedback({});
    try {
      await work();
      onDone(done);
    } catch (error) {
      const fields = error instanceof ApiError ? Object.keys(error.body?.errors ?? {}) : [];
      const fieldMessage = error instanceof ApiError ? error.body?.errors?.[fields[0] ?? '']?.[0] : undefined;
      setFeedback({
        error: fieldMessage ?? (error instanceof Error ? error.message : 'Operazione non riuscita.'),
        field: fields[0] ?? (action.evidence === 'file' ? 'evidenceFile' : undefined),
      });
    } finally {
      setBusy(false);
    }
  };
  const start = () =>
    void run(
      () => callApi(transitionAction, { params: { actionId: action.id }, body: { to: 'in_corso' } }),
      `«${action.modelTitle}» è in corso.`,
    );
  const complete = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (action.evidence === 'file') {
      const file = form.get('evidenceFile');
      if (!(file instanceof File) || file.size === 0)
        return setFeedback({ error: 'Scegli il file di prova (PDF, PNG o JPEG).', field: 'evidenceFile' });
      if (file.size > ACTION_EVIDENCE_FILE_MAX_BYTES)
        return setFeedback({ error: ACTION_MESSAGES.evidenceTooLarge, field: 'evidenceFile' });
      return void run(
        () => uploadEvidence(action.id, file),
        `«${action.modelTitle}» è completata: lo staff verificherà il file.`,
      );
    }
    const evidenceText = String(form.get('evidenceText') ?? '').trim();
    if (action.evidence === 'testo' && !evidenceText)
      return setFeedback({ error: ACTION_MESSAGES.evidenceText, field: 'evidenceText' });
    return void run(
      () =>
        callApi(transitionAction, {
          params: { actionId: action.id },
          body: { to: 'completata', ...(evidenceText ? { evidenceText } : {}) },
        }),
      `«${action.modelTitle}» è completata${action.evidence === 'nessuna' ? '' : ': lo staff verificherà la prova'}.`,
    );
  };
  const fieldError = (name: string) =>
    feedback.error && feedback.field === name
      ? { 'aria-invalid': true as const, 'aria-describedby': `${prefix}-${name}-error` }
      : {};
  return (
    <li className="card card-bg mb-3" data-testid="due-action">
      <div className="card-body">
        <h3 className="h5 mb-1">{action.modelTitle}</h3>
        <p className="mb-2">
          <StateBadge state={action.state} overdue={action.overdue} />{' '}
          <span className="ms-2">Scadenza: {formatDate(action.dueOn)}</span>
          <span className="ms-2 small">
            ({ACTION_TARGET_LABELS[action.target]}: {action.targetName})
          </span>
        </p>
        {action.description && <p className="mb-2">{action.description}</p>}
        {action.staffNote && (
          <p className="alert alert-warning py-2 mb-2">
            <strong>Nota dello staff:</strong> {action.staffNote}
          </p>
        )}
        {action.state === 'da_fare' && (
          <button type="button" className="btn btn-outline-primary btn-sm" onClick={start} disabled={busy}>
            {busy ? 'Un momento…' : 'Inizia'}
          </button>
        )}
        {action.state === 'in_corso' && (
          <form onSubmit={complete} noValidate aria-label={`Completa «${action.modelTitle}»`}>
            {action.evidence === 'testo' && (
              <div className="mb-2">
                <label htmlFor={`${prefix}-evidenceText`} className="form-label">
                  Descrivi quanto fatto (prova richiesta)
                </label>
                <textarea
                  id={`${prefix}-evidenceText`}
                  name="evidenceText"
                  className="form-control"
                  rows={3}
                  maxLength={ACTION_EVIDENCE_TEXT_MAX}
                  {...fieldError('evidenceText')}
                />
                {feedback.field === 'evidenceText' && (
                  <p id={`${prefix}-evidenceText-error`} className="text-danger small mt-1 mb-0">
                    {feedback.error}
                  </p>
                )}
              </div>
            )}
            {action.evidence === 'file' && (
              <div className="mb-2">
                <label htmlFor={`${prefix}-evidenceFile`} className="form-label d-block">
                  File di prova (PDF, PNG o JPEG, al massimo {ACTION_EVIDENCE_FILE_MAX_BYTES / 1_048_576} MB)
                </label>
                <input
                  id={`${prefix}-evidenceFile`}
                  name="evidenceFile"
                  type="file"
                  accept=".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg"
                  className="form-control"
                  {...fieldError('evidenceFile')}
                />
                {feedback.field === 'evidenceFile' && (
                  <p id={`${prefix}-evidenceFile-error`} className="text-danger small mt-1 mb-0">
                    {feedback.error}
                  </p>
                )}
              </div>
            )}
            <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
              {busy
                ? 'Invio in corso…'
                : action.evidence === 'file'
                  ? 'Carica il file e completa'
                  : 'Segna come completata'}
            </button>
          </form>
        )}
        {feedback.error && !['evidenceText', 'evidenceFile'].includes(feedback.field ?? '') && (
          <p className="text-danger small mt-2 mb-0" role="alert">
            {feedback.error}
          </p>
        )}
      </div>
    </li>
  );
}

/** `/portale` for whoever actions are assigned to: the open actions (due first), to start and complete, and the last completed ones. */
export function DueActions({ data }: { data: MyActionsResponse }) {
  const revalidator = useRevalidator();
  const [status, setStatus] = useState('');
  const onDone = (message: string) => {
    setStatus(message);
    void revalidator.revalidate();
  };
  const overdue = data.open.filter((a) => a.overdue).length;
  return (
    <section aria-labelledby="le-tue-azioni" className="mb-5" data-testid="due-actions">
      <h2 id="le-tue-azioni" className="h4">
        Le tue azioni
      </h2>
      <div role="status" className="mb-2">
        {status && <div className="alert alert-success py-2">{status}</div>}
      </div>
      {data.open.length === 0 ? (
        <p>Non hai azioni da svolgere.</p>
      ) : (
        <>
          <p>
            {data.open.length === 1
              ? 'Hai 1 azione da svolgere'
              : `Hai ${data.open.length} azioni da svolgere`}
            {overdue > 0 ? `, di cui ${overdue} ${overdue === 1 ? 'scaduta' : 'scadute'}` : ''}.
          </p>
          <ul className="list-unstyled">
            {data.open.map((a) => (
              <DueAction key={`${a.id}-${a.state}`} action={a} onDone={onDone} />
            ))}
          </ul>
        </>
      )}
      {data.done.length > 0 && (
        <>
          <h3 className="h5">Completate di recente</h3>
          <ul>
            {data.done.map((a) => (
              <li key={a.id}>
                {a.modelTitle} ({a.targetName}) — <StateBadge state={a.state} overdue={false} />
                {a.completedAt && (
                  <span className="small ms-1">completata il {formatDateTime(a.completedAt)}</span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
