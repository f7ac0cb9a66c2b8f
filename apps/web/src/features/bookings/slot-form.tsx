import { Form } from 'react-router';
import { dateToRomeLocal, type SlotSummary } from '@portale/shared/bookings';
import { Field } from '../../components/form/field.tsx';
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

/** A field of the slot form (the kit's `Field`, ids `<prefix>-<name>`). */
function SlotField(props: {
  name: string;
  label: string;
  hint?: string;
  errors: FieldErrors;
  prefix: string;
  children: (describedBy: string | undefined, id: string) => React.ReactNode;
}) {
  return (
    <Field
      id={`${props.prefix}-${props.name}`}
      label={props.label}
      hint={props.hint}
      error={props.errors[props.name]}
    >
      {(control) => props.children(control['aria-describedby'], control.id)}
    </Field>
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
          <SlotField name="title" label="Titolo" errors={errors} prefix={prefix}>
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
          </SlotField>
        </div>
        <div className="col-12">
          <SlotField name="description" label="Descrizione (facoltativa)" errors={errors} prefix={prefix}>
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
          </SlotField>
        </div>
        <div className="col-12 col-md-6">
          <SlotField
            name="startsAt"
            label="Inizio"
            hint="Data e ora italiana."
            errors={errors}
            prefix={prefix}
          >
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
          </SlotField>
        </div>
        <div className="col-12 col-md-6">
          <SlotField name="endsAt" label="Fine" hint="Data e ora italiana." errors={errors} prefix={prefix}>
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
          </SlotField>
        </div>
        <div className="col-12 col-md-6">
          <SlotField
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
          </SlotField>
        </div>
        <div className="col-12 col-md-6">
          <SlotField
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
          </SlotField>
        </div>
        <div className="col-12 col-md-4">
          <SlotField name="capacity" label="Posti" errors={errors} prefix={prefix}>
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
          </SlotField>
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
