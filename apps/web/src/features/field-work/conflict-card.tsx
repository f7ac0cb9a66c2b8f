// One conflict of an offline visit report: the device's version beside the visit now, and the decision.
import { lazy, Suspense } from 'react';
import { useFetcher } from 'react-router';
import { Button } from 'design-react-kit';
import {
  CONFLICT_CODE_LABELS,
  VISIT_STATE_LABELS,
  type VisitReportConflict,
} from '@portale/shared/field-work';
import { TextAreaField } from '../../components/form/text-area-field.tsx';
import type { FormResult } from '../../lib/form-data.ts';
import { formatDateTime } from '../../lib/format.ts';
import { VISIT_STATE_BADGES } from './field-work-labels.ts';

/** What deciding one conflict answered (the conflicts page's action). */
export interface ResolveResult extends FormResult {
  clientReportId: string;
}

/** The device's report's photos (decision 061), loaded when a card is shown. */
const VisitPhotos = lazy(() => import('./visit-photos.tsx'));

const name = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;

function Decision({ conflict }: { conflict: VisitReportConflict }) {
  const fetcher = useFetcher<ResolveResult>();
  const busy = fetcher.state !== 'idle';
  const outcome = fetcher.data;
  const id = conflict.clientReportId;
  return (
    <fetcher.Form method="post" aria-label={`Decisione sul conflitto della visita n. ${conflict.visit.id}`}>
      <input type="hidden" name="clientReportId" value={id} />
      <TextAreaField
        id={`note-${id}`}
        name="note"
        label="Nota (obbligatoria per scartare)"
        rows={2}
        maxLength={1000}
        labelClassName="form-label"
        error={outcome?.errors?.note}
      />
      <div className="d-flex flex-wrap gap-2">
        <Button color="primary" type="submit" name="decision" value="accept" disabled={busy}>
          Accetta il resoconto del dispositivo
        </Button>
        <Button color="danger" outline type="submit" name="decision" value="discard" disabled={busy}>
          Scarta con la nota
        </Button>
      </div>
      <div role="status" className="mt-2">
        {outcome?.message && (
          <div className={`alert ${outcome.ok ? 'alert-success' : 'alert-danger'} mb-0`}>
            {outcome.message}
          </div>
        )}
      </div>
    </fetcher.Form>
  );
}

export function ConflictCard({ conflict: c }: { conflict: VisitReportConflict }) {
  const headingId = `conflict-${c.clientReportId}`;
  return (
    <article aria-labelledby={headingId} className="border rounded p-3 mb-4" data-testid="conflict">
      <h2 id={headingId} className="h5">
        {c.visit.site.name} ({c.visit.site.ministryCode}) · visita n. {c.visit.id} del{' '}
        {formatDateTime(c.visit.scheduledAt)}
      </h2>
      <p className="mb-3">
        <span className="badge bg-warning text-dark">{CONFLICT_CODE_LABELS[c.code]}</span> · arrivato il{' '}
        {formatDateTime(c.submittedAt)}
        {c.importedBy && <> · importato da {name(c.importedBy)}</>}
      </p>
      <div className="row g-3">
        <section className="col-md-6" aria-label="Versione del dispositivo">
          <h3 className="h6">Versione del dispositivo</h3>
          <p className="mb-1">
            Scritta da <strong>{name(c.detector)}</strong> quando la visita era «
            {VISIT_STATE_LABELS[c.visitState].toLowerCase()}».
          </p>
          <blockquote className="border-start ps-2 mb-1" style={{ whiteSpace: 'pre-wrap' }}>
            {c.report}
          </blockquote>
          <p className="small mb-2">
            Insegnanti incontrati:{' '}
            {c.teachersMet.length ? c.teachersMet.map(name).join(', ') : 'nessuno indicato'}
          </p>
          <Suspense fallback={null}>
            <VisitPhotos visitId={c.visit.id} clientReportId={c.clientReportId} />
          </Suspense>
        </section>
        <section className="col-md-6" aria-label="La visita ora">
          <h3 className="h6">La visita ora</h3>
          <p className="mb-1">
            <span className={`badge ${VISIT_STATE_BADGES[c.visit.state]}`}>
              {VISIT_STATE_LABELS[c.visit.state]}
            </span>{' '}
            · rilevatore <strong>{name(c.visit.detector)}</strong>
          </p>
          {c.visit.outcomeNote && <p className="mb-1">Nota: {c.visit.outcomeNote}</p>}
          {c.visit.report ? (
            <blockquote className="border-start ps-2 mb-0" style={{ whiteSpace: 'pre-wrap' }}>
              {c.visit.report}
            </blockquote>
          ) : (
            <p className="text-muted mb-0">Nessun resoconto sulla visita.</p>
          )}
        </section>
      </div>
      <div className="mt-3">
        {c.resolution ? (
          <p className="mb-0">
            <strong>{c.resolution.decision === 'accepted' ? 'Accettato' : 'Scartato'}</strong> da{' '}
            {name(c.resolution.by)} il {formatDateTime(c.resolution.at)}
            {c.resolution.note && <> · {c.resolution.note}</>}
          </p>
        ) : (
          <Decision conflict={c} />
        )}
      </div>
    </article>
  );
}
