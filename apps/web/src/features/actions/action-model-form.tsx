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
import { CheckboxField } from '../../components/form/checkbox-field.tsx';
import { InputField } from '../../components/form/input-field.tsx';
import { SelectField } from '../../components/form/select-field.tsx';
import { TextAreaField } from '../../components/form/text-area-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';

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
  const id = (name: string) => `${prefix}-${name}`;
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
          <InputField
            id={id('title')}
            name="title"
            label="Titolo"
            defaultValue={model?.title ?? ''}
            error={errors.title}
          />
        </div>
        <div className="col-12 col-md-4">
          <InputField
            id={id('category')}
            name="category"
            label="Categoria"
            hint="Ad esempio Organizzazione, Formazione."
            defaultValue={model?.category ?? ''}
            error={errors.category}
          />
        </div>
        <div className="col-12">
          <TextAreaField
            id={id('description')}
            name="description"
            label="Descrizione (cosa deve fare il destinatario)"
            rows={3}
            defaultValue={model?.description ?? ''}
            error={errors.description}
          />
        </div>
        <div className="col-12 col-md-4">
          {model ? (
            <div className="mb-3">
              <p className="form-label fw-semibold mb-1">Destinatari</p>
              <p className="mb-0">{ACTION_TARGET_LABELS[model.target]} (non modificabile)</p>
            </div>
          ) : (
            <SelectField
              id={id('target')}
              name="target"
              label="Destinatari"
              wrapperClassName="select-wrapper"
              defaultValue=""
              error={errors.target}
            >
              <option value="">Scegli…</option>
              {ACTION_TARGETS.map((t) => (
                <option key={t} value={t}>
                  {ACTION_TARGET_LABELS[t]}
                </option>
              ))}
            </SelectField>
          )}
        </div>
        <div className="col-12 col-md-4">
          <InputField
            id={id('defaultDurationDays')}
            name="defaultDurationDays"
            label="Durata in giorni"
            hint="Da 1 a 365: la scadenza proposta."
            type="number"
            min={1}
            max={365}
            inputMode="numeric"
            defaultValue={model?.defaultDurationDays ?? 30}
            error={errors.defaultDurationDays}
          />
        </div>
        <div className="col-12 col-md-4">
          <SelectField
            id={id('evidence')}
            name="evidence"
            label="Prova richiesta"
            wrapperClassName="select-wrapper"
            defaultValue={model?.evidence ?? 'nessuna'}
            options={ACTION_EVIDENCE.map((e) => ({ value: e, label: ACTION_EVIDENCE_LABELS[e] }))}
            error={errors.evidence}
          />
        </div>
      </div>
      {model && (
        <CheckboxField
          id={id('active')}
          name="active"
          label="Attivo: si possono assegnare nuove azioni da questo modello"
          fieldClassName="form-check mb-3"
          defaultChecked={model.active}
        />
      )}
      <SubmitButton idle={model ? 'Salva il modello' : 'Crea il modello'} busy="Salvataggio in corso…" />
    </Form>
  );
}

/** Super-admin: the action models (list pattern), their creation and edit (deactivate, never delete). */
