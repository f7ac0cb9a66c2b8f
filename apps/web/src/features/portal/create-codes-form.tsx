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
  const described = (field: string, hint?: boolean) => {
    const ids = [hint ? `${id(field)}-hint` : null, errors[field] ? `${id(field)}-error` : null]
      .filter(Boolean)
      .join(' ');
    return {
      ...(ids ? { 'aria-describedby': ids } : {}),
      ...(errors[field] ? { 'aria-invalid': true as const } : {}),
    };
  };
  const error = (field: string) =>
    errors[field] ? (
      <p id={`${id(field)}-error`} className="text-danger small mt-1 mb-0">
        {errors[field]}
      </p>
    ) : null;

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
        <div className="col-md-6">
          <label htmlFor={id('classLabel')} className="form-label">
            Classe
          </label>
          <input
            id={id('classLabel')}
            className="form-control"
            maxLength={CLASS_LABEL_MAX}
            value={values.classLabel}
            onChange={(e) => set('classLabel', e.target.value)}
            {...described('classLabel', true)}
          />
          <p id={`${id('classLabel')}-hint`} className="small text-muted mb-0">
            Per esempio «3ª B»: comparirà sul foglio da stampare.
          </p>
          {error('classLabel')}
        </div>
        <div className="col-md-6">
          <label htmlFor={id('expiresOn')} className="form-label">
            Valido fino al
          </label>
          <input
            id={id('expiresOn')}
            type="date"
            className="form-control"
            min={romeToday()}
            max={survey.closesOn}
            value={values.expiresOn}
            onChange={(e) => set('expiresOn', e.target.value)}
            {...described('expiresOn', true)}
          />
          <p id={`${id('expiresOn')}-hint`} className="small text-muted mb-0">
            Al più tardi il {formatDate(survey.closesOn)}, giorno di chiusura dell’indagine.
          </p>
          {error('expiresOn')}
        </div>
        <div className="col-md-6">
          <label htmlFor={id('count')} className="form-label">
            Quanti codici
          </label>
          <input
            id={id('count')}
            type="number"
            inputMode="numeric"
            min={1}
            max={ACCESS_CODES_PER_REQUEST_MAX}
            className="form-control"
            value={values.count}
            onChange={(e) => set('count', e.target.value)}
            {...described('count', true)}
          />
          <p id={`${id('count')}-hint`} className="small text-muted mb-0">
            Uno per tutta la classe, oppure uno per ogni studente o famiglia (al massimo{' '}
            {ACCESS_CODES_PER_REQUEST_MAX}).
          </p>
          {error('count')}
        </div>
        <div className="col-md-6">
          <label htmlFor={id('maxUses')} className="form-label">
            Utilizzi per codice
          </label>
          <input
            id={id('maxUses')}
            type="number"
            inputMode="numeric"
            min={1}
            max={options.maxUses}
            className="form-control"
            value={values.maxUses}
            onChange={(e) => set('maxUses', e.target.value)}
            {...described('maxUses', true)}
          />
          <p id={`${id('maxUses')}-hint`} className="small text-muted mb-0">
            Quante risposte accetta ogni codice (1 se è personale, il numero di studenti se è per la classe;
            al massimo {options.maxUses}).
          </p>
          {error('maxUses')}
        </div>
      </div>
      <div className="mt-3">
        <button type="submit" className="btn btn-primary" disabled={sending}>
          {sending ? 'Creazione in corso…' : 'Crea i codici'}
        </button>
      </div>
    </form>
  );
}
