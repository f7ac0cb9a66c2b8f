import { useState, type ChangeEvent } from 'react';
import { Form, useActionData, useNavigation } from 'react-router';
import { ACTION_TARGET_LABELS, type ActionModel, type ActionTargetFilter } from '@portale/shared/actions';
import {
  ADHESION_STATE_LABELS,
  ADHESION_STATES,
  PROVINCES_BY_REGION,
  REGIONS,
} from '@portale/shared/registry';
import { REVIEW_STATE_LABELS, REVIEW_STATES } from '@portale/shared/reviews';
import { Button } from 'design-react-kit';
import { formatCount, formatDate, formatNumber } from '../../lib/format.ts';
import { FieldError } from '../../components/form/field.tsx';
import { DateTimeField, InputField } from '../../components/form/input-field.tsx';
import { SelectField } from '../../components/form/select-field.tsx';
import type { Outcome } from './actions-outcome.ts';

/** The filter of the bulk form for the model's target: only the fields that apply to it. */
export function filterOf(values: Record<string, string>, target: ActionModel['target']): ActionTargetFilter {
  const filter: ActionTargetFilter = {};
  if (values.q?.trim()) filter.q = values.q.trim();
  if (values.region) filter.region = values.region as ActionTargetFilter['region'];
  if (values.province) filter.province = values.province as ActionTargetFilter['province'];
  if (target === 'istituto' && values.adhesionState)
    filter.adhesionState = values.adhesionState as ActionTargetFilter['adhesionState'];
  if (target === 'plesso' && (values.participating === 'true' || values.participating === 'false'))
    filter.participating = values.participating === 'true';
  if (target === 'insegnante' && values.reviewState)
    filter.reviewState = values.reviewState as ActionTargetFilter['reviewState'];
  return filter;
}

/** One select of the bulk filter: its label, "all" first, then the options as [value, label]. */
function BulkSelect({
  id,
  name,
  label,
  allLabel,
  options,
  value,
  onChange,
  defaultValue,
}: {
  id: string;
  name: string;
  label: string;
  allLabel: string;
  options: readonly (readonly [string, string])[];
  value?: string;
  onChange?: (value: string) => void;
  defaultValue?: string | undefined;
}) {
  const controlled = onChange
    ? { value, onChange: (e: ChangeEvent<HTMLSelectElement>) => onChange(e.target.value) }
    : { defaultValue: defaultValue ?? '' };
  return (
    <SelectField
      id={id}
      name={name}
      label={label}
      fieldClassName="col-md-3"
      labelClassName="form-label"
      wrapperClassName="select-wrapper"
      {...controlled}
    >
      <option value="">{allLabel}</option>
      {options.map(([optionValue, optionLabel]) => (
        <option key={optionValue} value={optionValue}>
          {optionLabel}
        </option>
      ))}
    </SelectField>
  );
}

const PARTICIPATION_OPTIONS = [
  ['true', 'Solo i plessi partecipanti'],
  ['false', 'Solo i plessi non partecipanti'],
] as const;

/** The filter a count was made with, in words: "istituti · regione Emilia-Romagna · stato di adesione Attivo". */
function countedFilter(values: Record<string, string>, model: ActionModel | undefined): string {
  if (!model) return '';
  const f = filterOf(values, model.target);
  const parts: string[] = [ACTION_TARGET_PLURALS[model.target]];
  if (f.q) parts.push(`nome o codice «${f.q}»`);
  if (f.region) parts.push(`regione ${f.region}`);
  if (f.province) parts.push(`provincia ${f.province}`);
  if (f.adhesionState) parts.push(`stato di adesione ${ADHESION_STATE_LABELS[f.adhesionState]}`);
  if (f.participating !== undefined)
    parts.push(f.participating ? 'solo partecipanti' : 'solo non partecipanti');
  if (model.target === 'insegnante')
    parts.push(
      f.reviewState ? `registrazione ${REVIEW_STATE_LABELS[f.reviewState]}` : 'registrazione approvata',
    );
  return parts.join(' · ');
}

const ACTION_TARGET_PLURALS: Record<ActionModel['target'], string> = {
  istituto: 'istituti',
  plesso: 'plessi',
  insegnante: 'insegnanti',
};

export function BulkForm({ models }: { models: ActionModel[] }) {
  const outcome = useActionData<Outcome>();
  const navigation = useNavigation();
  const bulk = outcome && (outcome.intent === 'preview' || outcome.intent === 'apply') ? outcome : undefined;
  const v = bulk?.values ?? {};
  const active = models.filter((m) => m.active);
  const [modelId, setModelId] = useState(v.modelId ?? '');
  const [region, setRegion] = useState(v.region ?? '');
  const model = active.find((m) => String(m.id) === modelId);
  const submittingIntent =
    navigation.state === 'submitting' ? String(navigation.formData?.get('intent') ?? '') : '';
  const busy = submittingIntent === 'preview' || submittingIntent === 'apply';
  const errors = bulk?.errors ?? {};
  const filterError = Object.entries(errors).find(([k]) => k.startsWith('filter') || k === 'targetIds')?.[1];
  const provinces = region
    ? PROVINCES_BY_REGION[region as (typeof REGIONS)[number]]
    : REGIONS.flatMap((r) => PROVINCES_BY_REGION[r]).sort();
  const preview = bulk?.intent === 'preview' ? bulk.preview : undefined;
  // A filter changed after the count: the count no longer describes the form, so no confirmation until a new count.
  const [editedAfter, setEditedAfter] = useState<Outcome | undefined>(undefined);
  const stale = preview !== undefined && editedAfter === outcome;
  const counted =
    bulk?.intent === 'preview' && bulk.preview
      ? countedFilter(
          bulk.values ?? {},
          active.find((m) => String(m.id) === bulk.values?.modelId),
        )
      : '';
  return (
    <section aria-labelledby="assegna-azioni" className="mb-5">
      <h2 id="assegna-azioni" className="h4">
        Assegna azioni
      </h2>
      <p>
        Scegli il modello e i destinatari (ad esempio tutti gli istituti attivi di una regione). Prima conta i
        destinatari, poi conferma: le azioni si creano tutte insieme e chi ha già un’azione dello stesso
        modello la conserva.
      </p>
      <Form
        method="post"
        className="row g-3"
        preventScrollReset
        data-testid="bulk-form"
        onChange={(e) => {
          if ((e.target as unknown as { name?: string }).name !== 'dueOn') setEditedAfter(outcome);
        }}
      >
        <SelectField
          id="bulk-model"
          name="modelId"
          label="Modello"
          fieldClassName="col-md-6"
          labelClassName="form-label"
          wrapperClassName="select-wrapper"
          value={modelId}
          onChange={(e) => setModelId(e.target.value)}
          error={errors.modelId}
        >
          <option value="">Scegli…</option>
          {active.map((m) => (
            <option key={m.id} value={m.id}>
              {m.title} ({ACTION_TARGET_LABELS[m.target]}, {m.defaultDurationDays} giorni)
            </option>
          ))}
        </SelectField>
        <InputField
          id="bulk-q"
          name="q"
          label="Nome o codice del destinatario"
          fieldClassName="col-md-6"
          labelClassName="form-label"
          maxLength={100}
          defaultValue={v.q ?? ''}
        />
        <BulkSelect
          id="bulk-region"
          name="region"
          label="Regione"
          allLabel="Tutte le regioni"
          options={REGIONS.map((r) => [r, r])}
          value={region}
          onChange={setRegion}
        />
        <BulkSelect
          id="bulk-province"
          name="province"
          label="Provincia"
          allLabel="Tutte le province"
          options={provinces.map((p) => [p, p])}
          defaultValue={v.province}
          key={region}
        />
        {model?.target === 'istituto' && (
          <BulkSelect
            id="bulk-adhesion"
            name="adhesionState"
            label="Stato di adesione"
            allLabel="Tutti"
            options={ADHESION_STATES.map((st) => [st, ADHESION_STATE_LABELS[st]])}
            defaultValue={v.adhesionState}
          />
        )}
        {model?.target === 'plesso' && (
          <BulkSelect
            id="bulk-participating"
            name="participating"
            label="Partecipazione"
            allLabel="Tutti i plessi"
            options={PARTICIPATION_OPTIONS}
            defaultValue={v.participating}
          />
        )}
        {model?.target === 'insegnante' && (
          <BulkSelect
            id="bulk-review"
            name="reviewState"
            label="Stato della registrazione"
            allLabel="Solo approvate"
            options={REVIEW_STATES.filter((st) => st !== 'respinta').map((st) => [
              st,
              REVIEW_STATE_LABELS[st],
            ])}
            defaultValue={v.reviewState}
          />
        )}
        <div className="col-md-3 d-flex align-items-end">
          <Button color="primary" outline type="submit" name="intent" value="preview" disabled={busy}>
            Conta i destinatari
          </Button>
        </div>
        <FieldError id="bulk-filter" error={filterError} />
        {preview && stale && (
          <div className="col-12" data-testid="bulk-preview">
            <div className="alert alert-warning" role="status">
              <p className="mb-0">
                Hai cambiato il modello o i filtri dopo il conteggio: conta di nuovo i destinatari prima di
                confermare.
              </p>
            </div>
          </div>
        )}
        {preview && !stale && (
          <div className="col-12" data-testid="bulk-preview">
            <div className="alert alert-info" role="status">
              <p className="mb-1" data-testid="bulk-preview-filter">
                Destinatari contati: {counted}.
              </p>
              <p className="mb-2">
                <strong>{formatCount(preview.matched, 'destinatario', 'destinatari')}</strong>{' '}
                {preview.matched === 1 ? 'corrisponde' : 'corrispondono'}:{' '}
                {formatCount(preview.toCreate, 'nuova azione', 'nuove azioni')} da creare,{' '}
                {formatNumber(preview.existing)} già presenti.
              </p>
              {preview.toCreate > 0 ? (
                <div className="row g-3 align-items-end">
                  <input type="hidden" name="expectedCount" value={preview.matched} />
                  <DateTimeField
                    id="bulk-due"
                    name="dueOn"
                    type="date"
                    label="Scadenza"
                    fieldClassName="col-md-4"
                    labelClassName="form-label"
                    hint={`Proposta dal modello: ${formatDate(preview.dueOn)}.`}
                    hintClassName="small mb-0"
                    defaultValue={preview.dueOn}
                  />
                  <div className="col-md-8">
                    <Button color="primary" type="submit" name="intent" value="apply" disabled={busy}>
                      Conferma: crea {formatCount(preview.toCreate, 'azione', 'azioni')}
                    </Button>
                  </div>
                </div>
              ) : (
                <p className="mb-0">Nessuna azione nuova da creare: cambia il modello o il filtro.</p>
              )}
            </div>
          </div>
        )}
      </Form>
      <div role="status" data-testid="bulk-result" className="mt-3">
        {busy && (
          <div className="d-flex align-items-center gap-2" aria-busy="true">
            <span className="spinner-border spinner-border-sm" aria-hidden="true" />
            <span>
              {submittingIntent === 'apply'
                ? 'Assegnazione in corso: le azioni vengono create in un’unica operazione…'
                : 'Conteggio dei destinatari in corso…'}
            </span>
          </div>
        )}
        {!busy && bulk?.done && (
          <div className="alert alert-success mb-0">
            {formatCount(bulk.done.created, 'azione creata', 'azioni create')},{' '}
            {formatNumber(bulk.done.existing)} già presenti. Scadenza: {formatDate(bulk.done.dueOn)}.
          </div>
        )}
      </div>
      {!busy && bulk?.message && !bulk.ok && (
        <div className="alert alert-danger mt-3" role="alert">
          {bulk.message}
        </div>
      )}
    </section>
  );
}
