// The teacher's form to create access codes for a class (the teacher's home).
import { useEffect, useState } from 'react';
import { useFetcher } from 'react-router';
import {
  ACCESS_CODES_PER_REQUEST_MAX,
  CLASS_LABEL_MAX,
  type AccessCodeOptions,
} from '@portale/shared/surveys';
import { Button } from 'design-react-kit';
import { FieldError } from '../../components/form/field.tsx';
import { DateTimeField, InputField } from '../../components/form/input-field.tsx';
import { formatDate } from '../../lib/format.ts';
import {
  CREATE_CODES_FETCHER,
  CREATE_CODES_INTENT,
  type CreateCodesOutcome,
} from './teacher-codes-action.ts';

/** Today in Rome, `YYYY-MM-DD` (the earliest expiry a code may have). */
export const romeToday = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });

/**
 * Posts to the portal home's action through the home's `create-codes` fetcher (decision 045): the
 * home reads the codes just made from the same fetcher, and the router reloads the list.
 */
export function CreateCodesForm({ options }: { options: AccessCodeOptions }) {
  const survey = options.surveys[0]!;
  const fetcher = useFetcher<CreateCodesOutcome>({ key: CREATE_CODES_FETCHER });
  const [values, setValues] = useState({
    classLabel: '',
    count: '1',
    maxUses: '25',
    expiresOn: survey.closesOn,
  });
  const sending = fetcher.state !== 'idle';
  const outcome = sending ? undefined : fetcher.data;
  const errors = outcome?.errors ?? {};
  // A class done, the next one: the other choices stay as they were.
  useEffect(() => {
    if (outcome?.items) setValues((v) => ({ ...v, classLabel: '' }));
  }, [outcome]);
  const set = (name: keyof typeof values, value: string) => setValues((v) => ({ ...v, [name]: value }));
  const id = (field: string) => `codici-${field}`;

  return (
    <fetcher.Form
      method="post"
      noValidate
      aria-labelledby="crea-codici"
      className="card card-bg p-4 mb-4"
      data-testid="create-codes-form"
    >
      <input type="hidden" name="intent" value={CREATE_CODES_INTENT} />
      <input type="hidden" name="surveyId" value={survey.id} />
      {options.schoolSite && <input type="hidden" name="schoolSiteId" value={options.schoolSite.id} />}
      <h4 id="crea-codici" className="h6 mb-3">
        Crea i codici per una classe
      </h4>
      <div role="alert">
        {outcome?.message && !outcome.items && <div className="alert alert-danger">{outcome.message}</div>}
      </div>
      <FieldError id={id('surveyId')} error={errors.surveyId} className="text-danger small" />
      <FieldError id={id('schoolSiteId')} error={errors.schoolSiteId} className="text-danger small" />
      <div className="row g-3">
        <InputField
          id={id('classLabel')}
          name="classLabel"
          label="Classe"
          fieldClassName="col-md-6"
          labelClassName="form-label"
          maxLength={CLASS_LABEL_MAX}
          value={values.classLabel}
          onChange={(e) => set('classLabel', e.target.value)}
          hint="Per esempio «3ª B»: comparirà sul foglio da stampare."
          error={errors.classLabel}
        />
        <DateTimeField
          id={id('expiresOn')}
          name="expiresOn"
          type="date"
          label="Valido fino al"
          fieldClassName="col-md-6"
          labelClassName="form-label"
          min={romeToday()}
          max={survey.closesOn}
          value={values.expiresOn}
          onChange={(e) => set('expiresOn', e.target.value)}
          hint={`Al più tardi il ${formatDate(survey.closesOn)}, giorno di chiusura dell’indagine.`}
          error={errors.expiresOn}
        />
        <InputField
          id={id('count')}
          name="count"
          type="number"
          inputMode="numeric"
          label="Quanti codici"
          fieldClassName="col-md-6"
          labelClassName="form-label"
          min={1}
          max={ACCESS_CODES_PER_REQUEST_MAX}
          value={values.count}
          onChange={(e) => set('count', e.target.value)}
          hint={`Uno per tutta la classe, oppure uno per ogni studente o famiglia (al massimo ${ACCESS_CODES_PER_REQUEST_MAX}).`}
          error={errors.count}
        />
        <InputField
          id={id('maxUses')}
          name="maxUses"
          type="number"
          inputMode="numeric"
          label="Utilizzi per codice"
          fieldClassName="col-md-6"
          labelClassName="form-label"
          min={1}
          max={options.maxUses}
          value={values.maxUses}
          onChange={(e) => set('maxUses', e.target.value)}
          hint={`Quante risposte accetta ogni codice (1 se è personale, il numero di studenti se è per la classe; al massimo ${options.maxUses}).`}
          error={errors.maxUses}
        />
      </div>
      <div className="mt-3">
        <Button color="primary" type="submit" disabled={sending}>
          {sending ? 'Creazione in corso…' : 'Crea i codici'}
        </Button>
      </div>
    </fetcher.Form>
  );
}
