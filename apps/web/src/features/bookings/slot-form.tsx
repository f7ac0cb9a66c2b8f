import { Form } from 'react-router';
import { dateToRomeLocal, type SlotSummary } from '@portale/shared/bookings';
import { CheckboxField } from '../../components/form/checkbox-field.tsx';
import { DateTimeField, InputField } from '../../components/form/input-field.tsx';
import { TextAreaField } from '../../components/form/text-area-field.tsx';
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
  const id = (name: string) => `${prefix}-${name}`;
  return (
    <Form method="post" noValidate preventScrollReset data-testid={`${prefix}-form`}>
      <input type="hidden" name="intent" value={intent} />
      <div className="row">
        <div className="col-12">
          <InputField
            id={id('title')}
            name="title"
            label="Titolo"
            type="text"
            defaultValue={slot?.title ?? ''}
            error={errors.title}
          />
        </div>
        <div className="col-12">
          <TextAreaField
            id={id('description')}
            name="description"
            label="Descrizione (facoltativa)"
            rows={3}
            defaultValue={slot?.description ?? ''}
            error={errors.description}
          />
        </div>
        <div className="col-12 col-md-6">
          <DateTimeField
            id={id('startsAt')}
            name="startsAt"
            label="Inizio"
            hint="Data e ora italiana."
            defaultValue={slot ? dateToRomeLocal(slot.startsAt) : ''}
            error={errors.startsAt}
          />
        </div>
        <div className="col-12 col-md-6">
          <DateTimeField
            id={id('endsAt')}
            name="endsAt"
            label="Fine"
            hint="Data e ora italiana."
            defaultValue={slot ? dateToRomeLocal(slot.endsAt) : ''}
            error={errors.endsAt}
          />
        </div>
        <div className="col-12 col-md-6">
          <InputField
            id={id('place')}
            name="place"
            label="Luogo"
            hint="Indirizzo e sala; lascia vuoto se l’incontro è solo online."
            type="text"
            defaultValue={slot?.place ?? ''}
            error={errors.place}
          />
        </div>
        <div className="col-12 col-md-6">
          <InputField
            id={id('onlineUrl')}
            name="onlineUrl"
            label="Collegamento online"
            hint="Inizia con https://; inviato solo a chi prenota."
            type="url"
            defaultValue={slot?.onlineUrl ?? ''}
            error={errors.onlineUrl}
          />
        </div>
        <div className="col-12 col-md-4">
          <InputField
            id={id('capacity')}
            name="capacity"
            label="Posti"
            type="number"
            min={1}
            max={10000}
            inputMode="numeric"
            defaultValue={slot?.capacity ?? ''}
            error={errors.capacity}
          />
        </div>
      </div>
      <CheckboxField
        id={id('published')}
        name="published"
        label="Pubblicato: visibile e prenotabile sul sito"
        fieldClassName="form-check mb-3"
        defaultChecked={slot?.published ?? false}
      />
      <SubmitButton idle={submitLabel} busy="Salvataggio in corso…" />
    </Form>
  );
}
