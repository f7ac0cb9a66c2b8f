import { Form } from 'react-router';
import {
  SURVEY_PARTICIPANTS,
  SURVEY_PARTICIPANTS_LABELS,
  type SurveyDetail,
  type SurveyParticipants,
} from '@portale/shared/surveys';
import { ChoiceField } from '../../components/form/choice-field.tsx';
import { DateTimeField, InputField } from '../../components/form/input-field.tsx';
import { TextAreaField } from '../../components/form/text-area-field.tsx';
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
  const locked = survey !== undefined && survey.state !== 'bozza';
  return (
    <ChoiceField
      id={`${prefix}-participants`}
      name="participants"
      legend="Chi risponde"
      options={SURVEY_PARTICIPANTS.map((value) => ({ value, label: SURVEY_PARTICIPANTS_LABELS[value] }))}
      defaultValue={survey?.participants ?? 'entrambi'}
      disabled={locked}
      hint={
        locked
          ? 'L’indagine non è più in bozza: chi risponde non si può cambiare.'
          : 'Le domande si mostrano a chi sono rivolte. Si possono tenere aperte più indagini solo se sono rivolte a persone diverse.'
      }
      error={errors.participants}
      testId={`${prefix}-participants`}
    />
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
            maxLength={200}
            defaultValue={survey?.title ?? ''}
            error={errors.title}
          />
        </div>
        <div className="col-12">
          <TextAreaField
            id={id('purpose')}
            name="purpose"
            label="Scopo dell’indagine"
            hint="Si legge nella pagina pubblica «Indagine»."
            rows={4}
            defaultValue={survey?.purpose ?? ''}
            error={errors.purpose}
          />
        </div>
        <div className="col-12">
          <TextAreaField
            id={id('audience')}
            name="audience"
            label="Chi partecipa"
            rows={2}
            defaultValue={survey?.audience ?? ''}
            error={errors.audience}
          />
        </div>
        <div className="col-12">
          <ParticipantsField survey={survey} errors={errors} prefix={prefix} />
        </div>
        <div className="col-12 col-md-6">
          <DateTimeField
            id={id('opensOn')}
            name="opensOn"
            label="Data di apertura"
            type="date"
            defaultValue={survey?.opensOn ?? ''}
            error={errors.opensOn}
          />
        </div>
        <div className="col-12 col-md-6">
          <DateTimeField
            id={id('closesOn')}
            name="closesOn"
            label="Data di chiusura"
            type="date"
            defaultValue={survey?.closesOn ?? ''}
            error={errors.closesOn}
          />
        </div>
      </div>
      <SubmitButton idle={submitLabel} busy="Salvataggio…" />
    </Form>
  );
}
