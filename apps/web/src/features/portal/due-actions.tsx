import { Button } from 'design-react-kit';
import { FileField } from '../../components/form/file-field.tsx';
import { TextAreaField } from '../../components/form/text-area-field.tsx';
import { useFetcher } from 'react-router';
import {
  ACTION_EVIDENCE_FILE_MAX_BYTES,
  ACTION_EVIDENCE_TEXT_MAX,
  ACTION_STATE_LABELS,
  ACTION_TARGET_LABELS,
  getMyActions,
  type ActionDetail,
  type ActionState,
  type MyActionsResponse,
} from '@portale/shared/actions';
import { can, canSome, type SessionUser } from '@portale/shared/auth';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { DUE_ACTION_FETCHER, DUE_ACTION_INTENT, type DueActionOutcome } from './due-action-action.ts';

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

function StateBadge({ state, overdue }: { state: ActionState; overdue: boolean }) {
  return (
    <>
      <span className={`badge ${BADGES[state]}`}>{ACTION_STATE_LABELS[state]}</span>
      {overdue && <span className="badge bg-danger ms-1">Scaduta</span>}
    </>
  );
}

function DueAction({ action }: { action: ActionDetail }) {
  // One fetcher for the list (decision 045): a step posts to the portal home's action, whose router
  // then reloads the page's data; the list reads the success, the action its own refusal.
  const fetcher = useFetcher<DueActionOutcome | null>({ key: DUE_ACTION_FETCHER });
  const busy = fetcher.state !== 'idle' && fetcher.formData?.get('actionId') === String(action.id);
  const feedback: Partial<DueActionOutcome> =
    fetcher.data?.actionId === action.id && fetcher.state === 'idle' ? fetcher.data : {};
  const prefix = `azione-${action.id}`;
  const hidden = (to: 'in_corso' | 'completata') => (
    <>
      <input type="hidden" name="intent" value={DUE_ACTION_INTENT} />
      <input type="hidden" name="actionId" value={action.id} />
      <input type="hidden" name="title" value={action.modelTitle} />
      <input type="hidden" name="evidence" value={action.evidence} />
      <input type="hidden" name="to" value={to} />
    </>
  );
  const fieldError = (name: string) => (feedback.field === name ? feedback.error : undefined);
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
          <fetcher.Form method="post">
            {hidden('in_corso')}
            <Button type="submit" color="primary" outline size="sm" disabled={busy}>
              {busy ? 'Un momento…' : 'Inizia'}
            </Button>
          </fetcher.Form>
        )}
        {action.state === 'in_corso' && (
          <fetcher.Form
            method="post"
            encType="multipart/form-data"
            noValidate
            aria-label={`Completa «${action.modelTitle}»`}
          >
            {hidden('completata')}
            {action.evidence === 'testo' && (
              <TextAreaField
                id={`${prefix}-evidenceText`}
                name="evidenceText"
                label="Descrivi quanto fatto (prova richiesta)"
                fieldClassName="mb-2"
                labelClassName="form-label"
                rows={3}
                maxLength={ACTION_EVIDENCE_TEXT_MAX}
                error={fieldError('evidenceText')}
              />
            )}
            {action.evidence === 'file' && (
              <FileField
                id={`${prefix}-evidenceFile`}
                name="evidenceFile"
                label={`File di prova (PDF, PNG o JPEG, al massimo ${ACTION_EVIDENCE_FILE_MAX_BYTES / 1_048_576} MB)`}
                fieldClassName="mb-2"
                labelClassName="form-label d-block"
                accept=".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg"
                error={fieldError('evidenceFile')}
              />
            )}
            <Button type="submit" color="primary" size="sm" disabled={busy}>
              {busy
                ? 'Invio in corso…'
                : action.evidence === 'file'
                  ? 'Carica il file e completa'
                  : 'Segna come completata'}
            </Button>
          </fetcher.Form>
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
  const fetcher = useFetcher<DueActionOutcome | null>({ key: DUE_ACTION_FETCHER });
  const status = fetcher.state === 'idle' ? (fetcher.data?.ok ?? '') : '';
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
              <DueAction key={`${a.id}-${a.state}`} action={a} />
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
