// The form of an action model (new or edited), with its fields' Italian errors.
import type { Outcome } from './action-models-page.tsx';
import { Form } from 'react-router';
import {
  ACTION_EVIDENCE,
  ACTION_EVIDENCE_LABELS,
  ACTION_TARGET_LABELS,
  ACTION_TARGETS,
  type ActionModel,
} from '@portale/shared/actions';
import { SubmitButton } from '../../components/submit-button.tsx';
import { type FieldErrors } from '../../lib/form-data.ts';

function Field(props: {
  name: string;
  label: string;
  hint?: string;
  errors: FieldErrors;
  prefix: string;
  children: (describedBy: string | undefined, id: string) => React.ReactNode;
}) {
  const id = `${props.prefix}-${props.name}`;
  const error = props.errors[props.name];
  const describedBy =
    [props.hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="mb-3">
      <label className="form-label fw-semibold" htmlFor={id}>
        {props.label}
      </label>
      {props.children(describedBy, id)}
      {props.hint && (
        <p id={`${id}-hint`} className="small text-muted mb-0">
          {props.hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-danger small mt-1 mb-0">
          {error}
        </p>
      )}
    </div>
  );
}

/** Create (no model) or edit a model; the target is fixed once created. */
export function ModelForm({
  model,
  prefix,
  outcome,
}: {
  model?: ActionModel;
  prefix: string;
  outcome: Outcome | undefined;
}) {
  const errors = outcome?.errors ?? {};
  const invalid = (name: string) => (errors[name] ? { 'aria-invalid': true as const } : {});
  return (
    <Form
      method="post"
      noValidate
      preventScrollReset
      key={model ? `${model.id}-${model.updatedAt}` : `new-${outcome?.ok ? 'saved' : ''}`}
      data-testid={`${prefix}-form`}
    >
      <input type="hidden" name="intent" value={model ? 'update' : 'create'} />
      {model && <input type="hidden" name="modelId" value={model.id} />}
      <div className="row">
        <div className="col-12 col-md-8">
          <Field name="title" label="Titolo" errors={errors} prefix={prefix}>
            {(d, id) => (
              <input
                id={id}
                name="title"
                className="form-control"
                defaultValue={model?.title ?? ''}
                aria-describedby={d}
                {...invalid('title')}
              />
            )}
          </Field>
        </div>
        <div className="col-12 col-md-4">
          <Field
            name="category"
            label="Categoria"
            hint="Ad esempio Organizzazione, Formazione."
            errors={errors}
            prefix={prefix}
          >
            {(d, id) => (
              <input
                id={id}
                name="category"
                className="form-control"
                defaultValue={model?.category ?? ''}
                aria-describedby={d}
                {...invalid('category')}
              />
            )}
          </Field>
        </div>
        <div className="col-12">
          <Field
            name="description"
            label="Descrizione (cosa deve fare il destinatario)"
            errors={errors}
            prefix={prefix}
          >
            {(d, id) => (
              <textarea
                id={id}
                name="description"
                className="form-control"
                rows={3}
                defaultValue={model?.description ?? ''}
                aria-describedby={d}
                {...invalid('description')}
              />
            )}
          </Field>
        </div>
        <div className="col-12 col-md-4">
          {model ? (
            <div className="mb-3">
              <p className="form-label fw-semibold mb-1">Destinatari</p>
              <p className="mb-0">{ACTION_TARGET_LABELS[model.target]} (non modificabile)</p>
            </div>
          ) : (
            <Field name="target" label="Destinatari" errors={errors} prefix={prefix}>
              {(d, id) => (
                <div className="select-wrapper">
                  <select
                    id={id}
                    name="target"
                    className="form-select"
                    defaultValue=""
                    aria-describedby={d}
                    {...invalid('target')}
                  >
                    <option value="">Scegli…</option>
                    {ACTION_TARGETS.map((t) => (
                      <option key={t} value={t}>
                        {ACTION_TARGET_LABELS[t]}
                      </option>
                    ))}
                  </select>
                </div>
              )}
            </Field>
          )}
        </div>
        <div className="col-12 col-md-4">
          <Field
            name="defaultDurationDays"
            label="Durata in giorni"
            hint="Da 1 a 365: la scadenza proposta."
            errors={errors}
            prefix={prefix}
          >
            {(d, id) => (
              <input
                id={id}
                name="defaultDurationDays"
                type="number"
                min={1}
                max={365}
                inputMode="numeric"
                className="form-control"
                defaultValue={model?.defaultDurationDays ?? 30}
                aria-describedby={d}
                {...invalid('defaultDurationDays')}
              />
            )}
          </Field>
        </div>
        <div className="col-12 col-md-4">
          <Field name="evidence" label="Prova richiesta" errors={errors} prefix={prefix}>
            {(d, id) => (
              <div className="select-wrapper">
                <select
                  id={id}
                  name="evidence"
                  className="form-select"
                  defaultValue={model?.evidence ?? 'nessuna'}
                  aria-describedby={d}
                  {...invalid('evidence')}
                >
                  {ACTION_EVIDENCE.map((e) => (
                    <option key={e} value={e}>
                      {ACTION_EVIDENCE_LABELS[e]}
                    </option>
                  ))}
                </select>
              </div>
            )}
          </Field>
        </div>
      </div>
      {model && (
        <div className="form-check mb-3">
          <input
            id={`${prefix}-active`}
            name="active"
            value="true"
            type="checkbox"
            className="form-check-input"
            defaultChecked={model.active}
          />
          <label className="form-check-label" htmlFor={`${prefix}-active`}>
            Attivo: si possono assegnare nuove azioni da questo modello
          </label>
        </div>
      )}
      <SubmitButton idle={model ? 'Salva il modello' : 'Crea il modello'} busy="Salvataggio in corso…" />
    </Form>
  );
}

/** Super-admin: the action models (list pattern), their creation and edit (deactivate, never delete). */
