import { Form } from 'react-router';
import { dateToRomeLocal, type SlotSummary } from '@portale/shared/bookings';
import { SubmitButton } from '../../components/submit-button.tsx';
import { text, type FieldErrors } from '../../lib/form-data.ts';

/** The slot fields of the form, as the contract's SlotInputSchema reads them. */
export function slotFormValues(form: FormData) {
  return {
    title: text(form, 'title'),
    description: text(form, 'description'),
    startsAt: text(form, 'startsAt'),
    endsAt: text(form, 'endsAt'),
    place: text(form, 'place'),
    onlineUrl: text(form, 'onlineUrl'),
    capacity: text(form, 'capacity'),
    published: form.get('published') === 'true',
  };
}

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

/** Create or edit a slot: title, times (Rome), place or online link, places, published. */
export function SlotForm({
  slot,
  errors,
  intent,
  submitLabel,
  prefix,
}: {
  slot?: SlotSummary;
  errors: FieldErrors;
  intent: string;
  submitLabel: string;
  prefix: string;
}) {
  const invalid = (name: string) => (errors[name] ? { 'aria-invalid': true as const } : {});
  return (
    <Form method="post" noValidate preventScrollReset data-testid={`${prefix}-form`}>
      <input type="hidden" name="intent" value={intent} />
      <div className="row">
        <div className="col-12">
          <Field name="title" label="Titolo" errors={errors} prefix={prefix}>
            {(d, id) => (
              <input
                id={id}
                name="title"
                className="form-control"
                type="text"
                defaultValue={slot?.title ?? ''}
                aria-describedby={d}
                {...invalid('title')}
              />
            )}
          </Field>
        </div>
        <div className="col-12">
          <Field name="description" label="Descrizione (facoltativa)" errors={errors} prefix={prefix}>
            {(d, id) => (
              <textarea
                id={id}
                name="description"
                className="form-control"
                rows={3}
                defaultValue={slot?.description ?? ''}
                aria-describedby={d}
                {...invalid('description')}
              />
            )}
          </Field>
        </div>
        <div className="col-12 col-md-6">
          <Field name="startsAt" label="Inizio" hint="Data e ora italiana." errors={errors} prefix={prefix}>
            {(d, id) => (
              <input
                id={id}
                name="startsAt"
                className="form-control"
                type="datetime-local"
                defaultValue={slot ? dateToRomeLocal(slot.startsAt) : ''}
                aria-describedby={d}
                {...invalid('startsAt')}
              />
            )}
          </Field>
        </div>
        <div className="col-12 col-md-6">
          <Field name="endsAt" label="Fine" hint="Data e ora italiana." errors={errors} prefix={prefix}>
            {(d, id) => (
              <input
                id={id}
                name="endsAt"
                className="form-control"
                type="datetime-local"
                defaultValue={slot ? dateToRomeLocal(slot.endsAt) : ''}
                aria-describedby={d}
                {...invalid('endsAt')}
              />
            )}
          </Field>
        </div>
        <div className="col-12 col-md-6">
          <Field
            name="place"
            label="Luogo"
            hint="Indirizzo e sala; lascia vuoto se l’incontro è solo online."
            errors={errors}
            prefix={prefix}
          >
            {(d, id) => (
              <input
                id={id}
                name="place"
                className="form-control"
                type="text"
                defaultValue={slot?.place ?? ''}
                aria-describedby={d}
                {...invalid('place')}
              />
            )}
          </Field>
        </div>
        <div className="col-12 col-md-6">
          <Field
            name="onlineUrl"
            label="Collegamento online"
            hint="Inizia con https://; inviato solo a chi prenota."
            errors={errors}
            prefix={prefix}
          >
            {(d, id) => (
              <input
                id={id}
                name="onlineUrl"
                className="form-control"
                type="url"
                defaultValue={slot?.onlineUrl ?? ''}
                aria-describedby={d}
                {...invalid('onlineUrl')}
              />
            )}
          </Field>
        </div>
        <div className="col-12 col-md-4">
          <Field name="capacity" label="Posti" errors={errors} prefix={prefix}>
            {(d, id) => (
              <input
                id={id}
                name="capacity"
                className="form-control"
                type="number"
                min={1}
                max={10000}
                inputMode="numeric"
                defaultValue={slot?.capacity ?? ''}
                aria-describedby={d}
                {...invalid('capacity')}
              />
            )}
          </Field>
        </div>
      </div>
      <div className="form-check mb-3">
        <input
          id={`${prefix}-published`}
          name="published"
          value="true"
          type="checkbox"
          className="form-check-input"
          defaultChecked={slot?.published ?? false}
        />
        <label className="form-check-label" htmlFor={`${prefix}-published`}>
          Pubblicato: visibile e prenotabile sul sito
        </label>
      </div>
      <SubmitButton idle={submitLabel} busy="Salvataggio in corso…" />
    </Form>
  );
}
