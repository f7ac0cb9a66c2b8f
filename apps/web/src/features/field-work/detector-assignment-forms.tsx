// Staff's forms on the detectors page: plessi assigned by filter (with a preview) and provinces per detector.
import type { AssignResult } from './detectors-page.tsx';
import { Form, useActionData, useNavigation } from 'react-router';
import { Button } from 'design-react-kit';
import { type DetectorSummary } from '@portale/shared/field-work';
import { SCHOOL_LEVEL_LABELS, SCHOOL_LEVELS } from '@portale/shared/registry';
import { formatNumber } from '../../lib/format.ts';
import { ALL_PROVINCES } from './field-work-labels.ts';
import { CheckboxField } from '../../components/form/checkbox-field.tsx';
import { FieldError } from '../../components/form/field.tsx';
import { InputField } from '../../components/form/input-field.tsx';
import { SelectField } from '../../components/form/select-field.tsx';
import { DetectorOptions } from './detector-options.tsx';

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
        <SelectField
          id="provinces-detector"
          name="detector"
          label="Rilevatore"
          fieldClassName="col-md-4"
          labelClassName="form-label"
          required
          defaultValue={result?.values?.detector ?? ''}
        >
          <option value="">Scegli…</option>
          <DetectorOptions detectors={detectors} />
        </SelectField>
        <InputField
          id="provinces-list"
          name="provinces"
          label="Sigle delle province, separate da virgole"
          fieldClassName="col-md-5"
          labelClassName="form-label"
          placeholder="RM, PV"
          defaultValue={result?.values?.provinces ?? ''}
          aria-describedby="provinces-outcome"
        />
        <div className="col-md-3">
          <Button color="primary" outline type="submit" disabled={busy}>
            Salva le province
          </Button>
        </div>
      </Form>
      <div id="provinces-outcome" role="status" className="mt-2">
        {result?.ok && <div className="alert alert-success">{result.ok}</div>}
        {result?.message && <div className="alert alert-danger">{result.message}</div>}
      </div>
    </section>
  );
}

/** "1 visita pianificata", "3 visite pianificate": the planned visits that go with the plessi. */
const visitsLabel = (n: number) =>
  n === 1 ? '1 visita pianificata' : `${formatNumber(n)} visite pianificate`;

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
        <SelectField
          id="detectorUserId"
          name="detectorUserId"
          label="Rilevatore"
          fieldClassName="col-md-4"
          labelClassName="form-label"
          defaultValue={v.detectorUserId ?? ''}
          required
          error={result?.errors?.detectorUserId?.[0]}
        >
          <option value="">Scegli…</option>
          <DetectorOptions detectors={detectors} withProvinces />
          <option value="none">Nessuno (togli il rilevatore)</option>
        </SelectField>
        <SelectField
          id="assign-province"
          name="province"
          label="Provincia"
          fieldClassName="col-md-2"
          labelClassName="form-label"
          defaultValue={v.province ?? ''}
          aria-describedby="assign-filter-error"
        >
          <option value="">Tutte</option>
          {ALL_PROVINCES.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="assign-level"
          name="level"
          label="Grado"
          fieldClassName="col-md-3"
          labelClassName="form-label"
          defaultValue={v.level ?? ''}
        >
          <option value="">Tutti i gradi</option>
          {SCHOOL_LEVELS.map((l) => (
            <option key={l} value={l}>
              {SCHOOL_LEVEL_LABELS[l]}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="assign-current"
          name="currentDetector"
          label="Rilevatore attuale"
          fieldClassName="col-md-3"
          labelClassName="form-label"
          defaultValue={v.currentDetector ?? ''}
        >
          <option value="">Qualsiasi</option>
          <option value="none">Nessuno (plessi liberi)</option>
          <DetectorOptions detectors={detectors} />
        </SelectField>
        <InputField
          id="assign-q"
          name="q"
          label="Nome, comune o codice del plesso"
          fieldClassName="col-md-5"
          labelClassName="form-label"
          maxLength={100}
          defaultValue={v.q ?? ''}
        />
        <div className="col-md-4 d-flex align-items-end">
          <CheckboxField
            id="assign-participating"
            name="participating"
            label="Solo i plessi partecipanti"
            fieldClassName="form-check"
            defaultChecked={result?.values ? v.participating === 'true' : true}
          />
        </div>
        <div className="col-md-3 d-flex align-items-end">
          <Button color="primary" outline type="submit" name="intent" value="preview" disabled={busy}>
            Conta i plessi
          </Button>
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
                {result.preview.visitsMoved > 0 && (
                  <>
                    {' '}
                    Con i plessi passano al nuovo rilevatore anche {visitsLabel(result.preview.visitsMoved)}:
                    riceveranno un’e-mail sia il nuovo rilevatore sia chi le aveva in carico.
                  </>
                )}
              </p>
              {result.preview.matched > 0 ? (
                <>
                  <input type="hidden" name="expectedCount" value={result.preview.matched} />
                  <Button color="primary" type="submit" name="intent" value="apply" disabled={busy}>
                    Conferma: assegna {formatNumber(result.preview.matched)} plessi a{' '}
                    {nameOf(v.detectorUserId ?? '')}
                  </Button>
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
            {formatNumber(result.done.unchanged)} già assegnati)
            {result.done.visitsMoved > 0 && (
              <>
                ; {visitsLabel(result.done.visitsMoved)}{' '}
                {result.done.visitsMoved === 1 ? 'affidata' : 'affidate'} al nuovo rilevatore
              </>
            )}
            .
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
