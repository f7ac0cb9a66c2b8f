import { useEffect, useRef, useState } from 'react';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import {
  ACTION_STATE_LABELS,
  ACTION_TARGET_LABELS,
  ACTION_EVIDENCE_LABELS,
  downloadActionEvidence,
  type ActionDetail,
  type ActionState,
} from '@portale/shared/actions';
import { Button } from 'design-react-kit';
import { downloadFile } from '../../lib/api-client.ts';
import { formatBytes, formatDate, formatDateTime } from '../../lib/format.ts';
import { TextAreaField } from '../../components/form/text-area-field.tsx';
import type { Outcome } from './actions-outcome.ts';

const ACTION_STATE_BADGES: Record<ActionState, string> = {
  da_fare: 'bg-secondary',
  in_corso: 'bg-primary',
  completata: 'bg-warning',
  verificata: 'bg-success',
};

export function StateBadge({ state, overdue }: { state: ActionState; overdue: boolean }) {
  return (
    <>
      <span className={`badge ${ACTION_STATE_BADGES[state]}`}>{ACTION_STATE_LABELS[state]}</span>
      {overdue && <span className="badge bg-danger ms-1">Scaduta</span>}
    </>
  );
}

export function ActionDetailPanel({ detail, closeHref }: { detail: ActionDetail; closeHref: string }) {
  const outcome = useActionData<Outcome>();
  const review =
    outcome && (outcome.intent === 'verify' || outcome.intent === 'send-back') ? outcome : undefined;
  const [problem, setProblem] = useState<string | null>(null);
  const busy = useNavigation().state === 'submitting';
  // Opened from a row far below: bring the panel into view and move the focus to its heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, [detail.id]);
  const download = () => {
    setProblem(null);
    downloadFile(downloadActionEvidence, { params: { actionId: detail.id } }, undefined, {
      fallbackName: detail.evidenceFile?.name ?? 'prova',
    }).catch((e: Error) => setProblem(e.message));
  };
  return (
    <section
      aria-labelledby="dettaglio-azione"
      className="mb-5 p-3 border rounded"
      data-testid="action-detail"
    >
      <h2 id="dettaglio-azione" className="h4" tabIndex={-1} ref={heading}>
        {detail.modelTitle}: {detail.targetName}
      </h2>
      <dl className="row mb-3">
        <dt className="col-sm-4">Destinatario</dt>
        <dd className="col-sm-8">
          {ACTION_TARGET_LABELS[detail.target]} · {detail.targetCode}
          {detail.province ? ` · ${detail.province}` : ''}
        </dd>
        <dt className="col-sm-4">Stato</dt>
        <dd className="col-sm-8">
          <StateBadge state={detail.state} overdue={detail.overdue} />
        </dd>
        <dt className="col-sm-4">Scadenza</dt>
        <dd className="col-sm-8">{formatDate(detail.dueOn)}</dd>
        <dt className="col-sm-4">Cosa fare</dt>
        <dd className="col-sm-8">{detail.description || '—'}</dd>
        <dt className="col-sm-4">Prova richiesta</dt>
        <dd className="col-sm-8">{ACTION_EVIDENCE_LABELS[detail.evidence]}</dd>
        {detail.completedAt && (
          <>
            <dt className="col-sm-4">Completata</dt>
            <dd className="col-sm-8">
              {formatDateTime(detail.completedAt)}
              {detail.completedBy ? ` da ${detail.completedBy.firstName} ${detail.completedBy.lastName}` : ''}
            </dd>
          </>
        )}
        {detail.evidenceText && (
          <>
            <dt className="col-sm-4">Testo di prova</dt>
            <dd className="col-sm-8" style={{ whiteSpace: 'pre-wrap' }}>
              {detail.evidenceText}
            </dd>
          </>
        )}
        {detail.evidenceFile && (
          <>
            <dt className="col-sm-4">File di prova</dt>
            <dd className="col-sm-8">
              <Button type="button" color="primary" outline size="sm" onClick={download}>
                Scarica {detail.evidenceFile.name} ({formatBytes(detail.evidenceFile.sizeBytes)})
              </Button>
            </dd>
          </>
        )}
        {detail.staffNote && (
          <>
            <dt className="col-sm-4">Nota dello staff</dt>
            <dd className="col-sm-8">{detail.staffNote}</dd>
          </>
        )}
        {detail.verifiedAt && (
          <>
            <dt className="col-sm-4">Verificata</dt>
            <dd className="col-sm-8">
              {formatDateTime(detail.verifiedAt)}
              {detail.verifiedBy ? ` da ${detail.verifiedBy.firstName} ${detail.verifiedBy.lastName}` : ''}
            </dd>
          </>
        )}
      </dl>
      {problem && (
        <div className="alert alert-danger" role="alert">
          {problem}
        </div>
      )}
      {detail.state === 'completata' && (
        <Form method="post" preventScrollReset className="mb-3" data-testid="review-form">
          <input type="hidden" name="actionId" value={detail.id} />
          <TextAreaField
            id="review-note"
            name="note"
            label="Nota per il destinatario (obbligatoria per rimandare indietro)"
            fieldClassName=""
            labelClassName="form-label"
            className="form-control mb-2"
            rows={2}
            maxLength={2000}
            error={review?.errors?.note}
          />
          <div className="d-flex flex-wrap gap-2 mt-2">
            <Button color="success" type="submit" name="intent" value="verify" disabled={busy}>
              Verifica
            </Button>
            <Button color="danger" outline type="submit" name="intent" value="send-back" disabled={busy}>
              Rimanda indietro
            </Button>
          </div>
        </Form>
      )}
      <div role="status">{review?.ok && <div className="alert alert-success">{review.message}</div>}</div>
      {review && !review.ok && review.message && (
        <div className="alert alert-danger" role="alert">
          {review.message}
        </div>
      )}
      <Link to={closeHref} preventScrollReset>
        Chiudi il dettaglio
      </Link>
    </section>
  );
}
