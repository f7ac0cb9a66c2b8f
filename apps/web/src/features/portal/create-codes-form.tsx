// The teacher's form to create access codes for a class (the teacher's home).
import { useState, type FormEvent } from 'react';
import {
  ACCESS_CODES_PER_REQUEST_MAX,
  AccessCodeInputSchema,
  CLASS_LABEL_MAX,
  createAccessCodes,
  type AccessCodeOptions,
  type AccessCodeSummary,
} from '@portale/shared/surveys';
import { Button } from 'design-react-kit';
import { DateTimeField, InputField } from '../../components/form/input-field.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format.ts';
import { INVALID_FORM_MESSAGE } from '../../lib/form-action.ts';

/** Today in Rome, `YYYY-MM-DD` (the earliest expiry a code may have). */
export const romeToday = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });

export function CreateCodesForm({
  options,
  onCreated,
}: {
  options: AccessCodeOptions;
  onCreated: (codes: AccessCodeSummary[]) => void;
}) {
  const survey = options.surveys[0]!;
  const [values, setValues] = useState({
    classLabel: '',
    count: '1',
    maxUses: '25',
    expiresOn: survey.closesOn,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const set = (name: keyof typeof values, value: string) => setValues((v) => ({ ...v, [name]: value }));
  const id = (field: string) => `codici-${field}`;
  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const input = {
      surveyId: survey.id,
      ...(options.schoolSite ? { schoolSiteId: options.schoolSite.id } : {}),
      ...values,
    };
    const parsed = AccessCodeInputSchema.safeParse(input);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      setProblem(INVALID_FORM_MESSAGE);
      return;
    }
    setSending(true);
    try {
      const { items } = await callApi(createAccessCodes, { body: parsed.data });
      setErrors({});
      setValues((v) => ({ ...v, classLabel: '' }));
      onCreated(items);
    } catch (failure) {
      const found: Record<string, string> = {};
      if (failure instanceof ApiError)
        for (const [field, messages] of Object.entries(failure.body?.errors ?? {}))
          if (messages[0]) found[field] = messages[0];
      setErrors(found);
      setProblem(
        failure instanceof Error
          ? failure.message
          : 'Non è stato possibile creare i codici. Riprova più tardi.',
      );
    } finally {
      setSending(false);
    }
  }

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby="crea-codici"
      className="card card-bg p-4 mb-4"
      data-testid="create-codes-form"
    >
      <h4 id="crea-codici" className="h6 mb-3">
        Crea i codici per una classe
      </h4>
      <div role="alert">{problem && <div className="alert alert-danger">{problem}</div>}</div>
      {errors.surveyId && <p className="text-danger small">{errors.surveyId}</p>}
      {errors.schoolSiteId && <p className="text-danger small">{errors.schoolSiteId}</p>}
      <div className="row g-3">
        <InputField
          id={id('classLabel')}
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
    </form>
  );
}
