import { useEffect, type ReactNode } from 'react';
import { Form, Link, useActionData, useLoaderData } from 'react-router';
import { ADHESION_STATE_LABELS } from '@portale/shared/registry';
import { ENROLMENT_VERIFICATION_MAX_AGE_MINUTES } from '@portale/shared/enrolment';
import { getPage, href } from '@portale/shared/pages';
import { TextField } from '../../components/form/text-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { SmsCodeForm } from '../../components/sms-code-form.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import {
  INSTITUTE_PARAM,
  SEARCH_PARAM,
  stepUrl,
  VERIFY_PARAM,
  type EnrolmentActionData,
  type EnrolmentPageData,
} from './enrolment-actions.ts';
import { Confirmation, DetailsStep } from './enrolment-details-step.tsx';
import { forgetShownStep, StepHeading, VerifiedNote } from './enrolment-steps.tsx';

export { action, loader } from './enrolment-actions.ts';

const hasFieldErrors = (result: EnrolmentActionData | undefined) =>
  Object.keys(result?.errors ?? {}).length > 0;

function PhoneStepSection() {
  const result = useActionData<EnrolmentActionData>();
  const step = result?.phone;
  return (
    <section aria-labelledby="passo-cellulare">
      <StepHeading index={0} id="passo-cellulare" />
      <p>
        Per iniziare verifichiamo il tuo numero di cellulare con un codice via SMS. La verifica vale{' '}
        {ENROLMENT_VERIFICATION_MAX_AGE_MINUTES} minuti e serve per una sola iscrizione.
      </p>
      {result?.ok ? (
        <FormMessage tone="success" message={result.message} />
      ) : (
        !hasFieldErrors(result) && <FormMessage message={result?.message} />
      )}
      {step ? (
        <SmsCodeForm step={step} error={result?.errors?.code} />
      ) : (
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="phone-start" />
          <TextField
            type="tel"
            id="phone"
            name="phone"
            label="Numero di cellulare"
            autoComplete="tel"
            required
            error={result?.errors?.phone}
          />
          <SubmitButton idle="Invia il codice via SMS" busy="Invio in corso…" />
        </Form>
      )}
    </section>
  );
}

function InstituteStep({ data }: { data: Extract<EnrolmentPageData, { step: 'institute' }> }) {
  const { results, q, verificationId } = data;
  return (
    <section aria-labelledby="passo-istituto">
      <StepHeading index={1} id="passo-istituto" />
      <VerifiedNote phoneMasked={data.verification.phoneMasked} usableUntil={data.verification.usableUntil} />
      <Form method="get" role="search" aria-label="Cerca l’istituto">
        <input type="hidden" name={VERIFY_PARAM} value={verificationId} />
        <TextField
          type="search"
          id="institute-q"
          name={SEARCH_PARAM}
          label="Codice meccanografico o nome dell’istituto"
          defaultValue={q}
          autoComplete="off"
          required
          error={data.searchError}
        />
        <SubmitButton idle="Cerca" busy="Ricerca in corso…" className="mt-n2 mb-4" />
      </Form>
      {results && (
        <>
          <p aria-live="polite" data-testid="institute-results-count">
            {results.length === 0
              ? 'Nessun istituto trovato: controlla il codice meccanografico o prova con altre parole del nome o del comune.'
              : `${results.length} ${results.length === 1 ? 'istituto trovato' : 'istituti trovati'}${results.length === 20 ? ' (i primi 20: aggiungi parole per restringere la ricerca)' : ''}.`}
          </p>
          <ul className="list-unstyled" aria-label="Istituti trovati">
            {results.map((institute) => (
              <li key={institute.id} className="border rounded p-3 mb-2">
                <p className="fw-semibold mb-1">
                  {institute.name}{' '}
                  <span className="text-secondary fw-normal">· {institute.ministryCode}</span>
                </p>
                <p className="small mb-2">
                  {institute.type} – {institute.municipalityName} ({institute.province})
                </p>
                {institute.enrollable ? (
                  <Link
                    className="btn btn-outline-primary btn-sm"
                    to={stepUrl({
                      [VERIFY_PARAM]: verificationId,
                      [SEARCH_PARAM]: q,
                      [INSTITUTE_PARAM]: institute.id,
                    })}
                  >
                    Scegli <span className="visually-hidden">{institute.name}</span>
                  </Link>
                ) : (
                  <p className="small mb-0">
                    <span className="badge bg-secondary me-2">Già iscritto</span>
                    Stato di adesione: {ADHESION_STATE_LABELS[institute.adhesionState]}. Non può essere
                    iscritto di nuovo.
                  </p>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function VerificationProblem({
  data,
}: {
  data: Extract<EnrolmentPageData, { step: 'verification-problem' }>;
}) {
  return (
    <section aria-labelledby="verifica-non-valida">
      <h2 id="verifica-non-valida" className="h3">
        Verifica del cellulare da ripetere
      </h2>
      <FormMessage message={data.verification.message} />
      <Link to={href('enrolment')} className="btn btn-primary">
        Verifica di nuovo il numero
      </Link>
    </section>
  );
}

/**
 * `/iscrizioni/iscrizione`: phone by SMS, then the institute, then principal, first contact, plessi and
 * consent. `identityLogin`: what the app puts under the first step (the SPID/CIE way in, decision 054).
 */
export function Component({ identityLogin }: { identityLogin?: ReactNode }) {
  const data = useLoaderData<EnrolmentPageData>();
  // After the enrolment the loader runs again and finds the verification used: the confirmation stays.
  const enrolled = useActionData<EnrolmentActionData>()?.enrolled;
  const page = getPage('enrolment');
  // Opening the page again later is not a step change.
  useEffect(() => forgetShownStep, []);
  return (
    <div className="container my-5">
      <div className="row justify-content-center">
        <div className="col-lg-8">
          <PageHeader
            title={page.title}
            description="Iscrivi il tuo istituto al programma: servono un cellulare da verificare, i dati del dirigente scolastico e del referente e i plessi che partecipano."
          />
          {enrolled ? (
            <Confirmation enrolled={enrolled} />
          ) : (
            <>
              {data.step === 'phone' && (
                <>
                  <PhoneStepSection />
                  {identityLogin}
                </>
              )}
              {data.step === 'verification-problem' && <VerificationProblem data={data} />}
              {data.step === 'institute' && <InstituteStep data={data} />}
              {data.step === 'details' && <DetailsStep data={data} />}
            </>
          )}
        </div>
      </div>
    </div>
  );
}
