// Staff's forms on the detectors page: plessi assigned by filter (with a preview) and provinces per detector.
import type { AssignResult } from './detectors-page.tsx';
import { Form, useActionData, useNavigation } from 'react-router';
import { type DetectorSummary } from '@portale/shared/field-work';
import { SCHOOL_LEVEL_LABELS, SCHOOL_LEVELS } from '@portale/shared/registry';
import { formatNumber } from '../../lib/format.ts';
import { ALL_PROVINCES } from './field-work-labels.ts';
import { FieldError } from '../../components/form/field.tsx';

export function ProvincesForm({ detectors }: { detectors: DetectorSummary[] }) {
  const result = useActionData<AssignResult>()?.provinces;
  const busy = useNavigation().state === 'submitting';
  return (
    <section aria-labelledby="province-title" className="mb-5">
      <h2 id="province-title" className="h4">
        Province coperte
      </h2>
      <Form method="post" className="row g-3 align-items-end">
        <input type="hidden" name="intent" value="provinces" />
        <div className="col-md-4">
          <label htmlFor="provinces-detector" className="form-label">
            Rilevatore
          </label>
          <select
            id="provinces-detector"
            name="detector"
            className="form-select"
            required
            defaultValue={result?.values?.detector ?? ''}
          >
            <option value="">Scegli…</option>
            {detectors.map((d) => (
              <option key={d.id} value={d.id}>
                {d.lastName} {d.firstName}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-5">
          <label htmlFor="provinces-list" className="form-label">
            Sigle delle province, separate da virgole
          </label>
          <input
            id="provinces-list"
            name="provinces"
            className="form-control"
            placeholder="RM, PV"
            defaultValue={result?.values?.provinces ?? ''}
            aria-describedby="provinces-outcome"
          />
        </div>
        <div className="col-md-3">
          <button type="submit" className="btn btn-outline-primary" disabled={busy}>
            Salva le province
          </button>
        </div>
      </Form>
      <div id="provinces-outcome" role="status" className="mt-2">
        {result?.ok && <div className="alert alert-success">{result.ok}</div>}
        {result?.message && <div className="alert alert-danger">{result.message}</div>}
      </div>
    </section>
  );
}

export function AssignmentForm({ detectors }: { detectors: DetectorSummary[] }) {
  const result = useActionData<AssignResult>();
  const busy = useNavigation().state === 'submitting';
  const v = result?.values ?? {};
  const filterError =
    result?.errors?.['filter.province'] ?? result?.errors?.filter ?? result?.errors?.province;
  const nameOf = (id: string) => {
    if (id === 'none') return 'nessun rilevatore';
    const d = detectors.find((x) => String(x.id) === id);
    return d ? `${d.firstName} ${d.lastName}` : '';
  };
  return (
    <section aria-labelledby="assegna-title" className="mb-5">
      <h2 id="assegna-title" className="h4">
        Assegna plessi
      </h2>
      <p>
        Scegli il rilevatore e i plessi: tutti i plessi di una provincia, un filtro più stretto, i plessi di
        un altro rilevatore (per spostarli) o un solo plesso cercandone il codice meccanografico. Prima conta
        i plessi, poi conferma: l’assegnazione avviene tutta insieme. Un plesso ha al massimo un rilevatore.
      </p>
      <Form method="post" className="row g-3" aria-describedby="assegna-title">
        <div className="col-md-4">
          <label htmlFor="detectorUserId" className="form-label">
            Rilevatore
          </label>
          <select
            id="detectorUserId"
            name="detectorUserId"
            className="form-select"
            defaultValue={v.detectorUserId ?? ''}
            required
            aria-invalid={result?.errors?.detectorUserId ? true : undefined}
            aria-describedby="detectorUserId-error"
          >
            <option value="">Scegli…</option>
            {detectors.map((d) => (
              <option key={d.id} value={d.id}>
                {d.lastName} {d.firstName} ({d.provinces.join(', ') || 'nessuna provincia'})
              </option>
            ))}
            <option value="none">Nessuno (togli il rilevatore)</option>
          </select>
          <FieldError id="detectorUserId" error={result?.errors?.detectorUserId?.[0]} />
        </div>
        <div className="col-md-2">
          <label htmlFor="assign-province" className="form-label">
            Provincia
          </label>
          <select
            id="assign-province"
            name="province"
            className="form-select"
            defaultValue={v.province ?? ''}
            aria-describedby="assign-filter-error"
          >
            <option value="">Tutte</option>
            {ALL_PROVINCES.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-3">
          <label htmlFor="assign-level" className="form-label">
            Grado
          </label>
          <select id="assign-level" name="level" className="form-select" defaultValue={v.level ?? ''}>
            <option value="">Tutti i gradi</option>
            {SCHOOL_LEVELS.map((l) => (
              <option key={l} value={l}>
                {SCHOOL_LEVEL_LABELS[l]}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-3">
          <label htmlFor="assign-current" className="form-label">
            Rilevatore attuale
          </label>
          <select
            id="assign-current"
            name="currentDetector"
            className="form-select"
            defaultValue={v.currentDetector ?? ''}
          >
            <option value="">Qualsiasi</option>
            <option value="none">Nessuno (plessi liberi)</option>
            {detectors.map((d) => (
              <option key={d.id} value={d.id}>
                {d.lastName} {d.firstName}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-5">
          <label htmlFor="assign-q" className="form-label">
            Nome, comune o codice del plesso
          </label>
          <input id="assign-q" name="q" className="form-control" maxLength={100} defaultValue={v.q ?? ''} />
        </div>
        <div className="col-md-4 d-flex align-items-end">
          <div className="form-check">
            <input
              id="assign-participating"
              name="participating"
              type="checkbox"
              value="true"
              className="form-check-input"
              defaultChecked={result?.values ? v.participating === 'true' : true}
            />
            <label htmlFor="assign-participating" className="form-check-label">
              Solo i plessi partecipanti
            </label>
          </div>
        </div>
        <div className="col-md-3 d-flex align-items-end">
          <button
            type="submit"
            name="intent"
            value="preview"
            className="btn btn-outline-primary"
            disabled={busy}
          >
            Conta i plessi
          </button>
        </div>
        <FieldError id="assign-filter" error={filterError?.[0]} />
        {result?.preview && (
          <div className="col-12" role="status" data-testid="assignment-preview">
            <div className="alert alert-info">
              <p className="mb-2">
                <strong>{formatNumber(result.preview.matched)} plessi</strong> corrispondono:{' '}
                {formatNumber(result.preview.added)} senza rilevatore, {formatNumber(result.preview.moved)} da
                spostare da un altro rilevatore, {formatNumber(result.preview.unchanged)} già assegnati a{' '}
                {nameOf(v.detectorUserId ?? '')}.
              </p>
              {result.preview.matched > 0 ? (
                <>
                  <input type="hidden" name="expectedCount" value={result.preview.matched} />
                  <button
                    type="submit"
                    name="intent"
                    value="apply"
                    className="btn btn-primary"
                    disabled={busy}
                  >
                    Conferma: assegna {formatNumber(result.preview.matched)} plessi a{' '}
                    {nameOf(v.detectorUserId ?? '')}
                  </button>
                </>
              ) : (
                <p className="mb-0">Nessun plesso da assegnare: cambia il filtro.</p>
              )}
            </div>
          </div>
        )}
      </Form>
      <div role="status" data-testid="assignment-result">
        {result?.done && (
          <div className="alert alert-success mt-3">
            Assegnazione completata: {formatNumber(result.done.updated)} plessi aggiornati (
            {formatNumber(result.done.added)} nuovi, {formatNumber(result.done.moved)} spostati,{' '}
            {formatNumber(result.done.unchanged)} già assegnati).
          </div>
        )}
      </div>
      {result?.message && (
        <div className="alert alert-danger mt-3" role="alert">
          {result.message}
        </div>
      )}
    </section>
  );
}

/** Staff: the detectors, the provinces each covers and how many plessi each has; bulk assignment. */
