import { Form } from 'react-router';
import {
  SURVEY_PARTICIPANTS,
  SURVEY_PARTICIPANTS_LABELS,
  type SurveyDetail,
  type SurveyParticipants,
} from '@portale/shared/surveys';
import { SubmitButton } from '../../components/submit-button.tsx';
import { text, type FieldErrors } from '../../lib/form-data.ts';

/** The survey fields of the form, as the contract's SurveyInputSchema reads them. */
export function surveyFormValues(form: FormData) {
  return {
    title: text(form, 'title'),
    purpose: text(form, 'purpose'),
    audience: text(form, 'audience'),
    opensOn: text(form, 'opensOn'),
    closesOn: text(form, 'closesOn'),
    // Not sent once the survey is open (the radios are disabled then: decision 046).
    ...(form.has('participants') ? { participants: text(form, 'participants') as SurveyParticipants } : {}),
  };
}

/** Who answers (decision 046): radios, fixed once the survey has left `bozza`. */
function ParticipantsField({
  survey,
  errors,
  prefix,
}: {
  survey?: SurveyDetail;
  errors: FieldErrors;
  prefix: string;
}) {
  const id = `${prefix}-participants`;
  const error = errors.participants;
  const locked = survey !== undefined && survey.state !== 'bozza';
  const describedBy = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <fieldset className="mb-3" aria-describedby={describedBy} data-testid={`${prefix}-participants`}>
      <legend className="form-label fw-semibold fs-6">Chi risponde</legend>
      {SURVEY_PARTICIPANTS.map((value) => (
        <div className="form-check" key={value}>
          <input
            className="form-check-input"
            type="radio"
            id={`${id}-${value}`}
            name="participants"
            value={value}
            defaultChecked={(survey?.participants ?? 'entrambi') === value}
            disabled={locked}
            {...(error ? { 'aria-invalid': true as const } : {})}
          />
          <label className="form-check-label" htmlFor={`${id}-${value}`}>
            {SURVEY_PARTICIPANTS_LABELS[value]}
          </label>
        </div>
      ))}
      <p id={`${id}-hint`} className="small text-muted mb-0">
        {locked
          ? 'L’indagine non è più in bozza: chi risponde non si può cambiare.'
          : 'Le domande si mostrano a chi sono rivolte. Si possono tenere aperte più indagini solo se sono rivolte a persone diverse.'}
      </p>
      {error && (
        <p id={`${id}-error`} className="text-danger small mt-1 mb-0">
          {error}
        </p>
      )}
    </fieldset>
  );
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

/** Create or edit a survey: title, purpose (the description), audience, who answers, opening and closing dates. */
export function SurveyForm({
  survey,
  errors,
  intent,
  submitLabel,
  prefix,
}: {
  survey?: SurveyDetail;
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
                maxLength={200}
                defaultValue={survey?.title ?? ''}
                aria-describedby={d}
                {...invalid('title')}
              />
            )}
          </Field>
        </div>
        <div className="col-12">
          <Field
            name="purpose"
            label="Scopo dell’indagine"
            hint="Si legge nella pagina pubblica «Indagine»."
            errors={errors}
            prefix={prefix}
          >
            {(d, id) => (
              <textarea
                id={id}
                name="purpose"
                className="form-control"
                rows={4}
                defaultValue={survey?.purpose ?? ''}
                aria-describedby={d}
                {...invalid('purpose')}
              />
            )}
          </Field>
        </div>
        <div className="col-12">
          <Field name="audience" label="Chi partecipa" errors={errors} prefix={prefix}>
            {(d, id) => (
              <textarea
                id={id}
                name="audience"
                className="form-control"
                rows={2}
                defaultValue={survey?.audience ?? ''}
                aria-describedby={d}
                {...invalid('audience')}
              />
            )}
          </Field>
        </div>
        <div className="col-12">
          <ParticipantsField survey={survey} errors={errors} prefix={prefix} />
        </div>
        <div className="col-12 col-md-6">
          <Field name="opensOn" label="Data di apertura" errors={errors} prefix={prefix}>
            {(d, id) => (
              <input
                id={id}
                name="opensOn"
                className="form-control"
                type="date"
                defaultValue={survey?.opensOn ?? ''}
                aria-describedby={d}
                {...invalid('opensOn')}
              />
            )}
          </Field>
        </div>
        <div className="col-12 col-md-6">
          <Field name="closesOn" label="Data di chiusura" errors={errors} prefix={prefix}>
            {(d, id) => (
              <input
                id={id}
                name="closesOn"
                className="form-control"
                type="date"
                defaultValue={survey?.closesOn ?? ''}
                aria-describedby={d}
                {...invalid('closesOn')}
              />
            )}
          </Field>
        </div>
      </div>
      <SubmitButton idle={submitLabel} busy="Salvataggio…" />
    </Form>
  );
}
