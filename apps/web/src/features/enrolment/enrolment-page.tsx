import { useEffect, useRef, useState } from 'react';
import { Form, Link, useActionData, useLoaderData } from 'react-router';
import { ADHESION_STATE_LABELS, SCHOOL_LEVEL_LABELS } from '@portale/shared/registry';
import {
  ENROLMENT_VERIFICATION_MAX_AGE_MINUTES,
  type EnrolmentCreated,
  type EnrolmentInstitute,
} from '@portale/shared/enrolment';
import { getPage, href } from '@portale/shared/pages';
import { CheckboxField } from '../../components/form/checkbox-field.tsx';
import { TextField } from '../../components/form/text-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { SmsCodeForm } from '../../components/sms-code-form.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { formatDateTime } from '../../lib/format.ts';
import type { FieldErrors } from '../../lib/form-data.ts';
import {
  INSTITUTE_PARAM,
  SEARCH_PARAM,
  stepUrl,
  VERIFY_PARAM,
  type EnrolmentActionData,
  type EnrolmentPageData,
} from './enrolment-actions.ts';

export { action, loader } from './enrolment-actions.ts';

const hasFieldErrors = (result: EnrolmentActionData | undefined) =>
  Object.keys(result?.errors ?? {}).length > 0;

const STEPS = ['Verifica del cellulare', 'Scelta dell’istituto', 'Dati e plessi'] as const;

/** The step shown last on this page (null when the page is opened): a new step's heading takes the focus. */
let shownStep: number | null = null;

/**
 * The heading of a step. When the step changes (the phone verified, the institute chosen), it takes the
 * focus, so that keyboard and screen reader users go on from the new step, not from the top of the page
 * (issue 34); not when the page is opened.
 */
function StepHeading({ index, id }: { index: 0 | 1 | 2 | 3; id: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (shownStep !== null && shownStep !== index) ref.current?.focus();
    shownStep = index;
  }, [index]);
  if (index === 3) {
    return (
      <h2 ref={ref} id={id} tabIndex={-1} className="h3">
        Iscrizione completata
      </h2>
    );
  }
  return (
    <h2 ref={ref} id={id} tabIndex={-1} className="h3 mb-3">
      <span className="d-block small text-secondary fw-normal">
        Passo {index + 1} di {STEPS.length}
      </span>
      {STEPS[index]}
    </h2>
  );
}

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

function VerifiedNote({
  phoneMasked,
  usableUntil,
}: {
  phoneMasked: string | null;
  usableUntil: string | null;
}) {
  return (
    <p className="small" data-testid="verified-phone">
      Cellulare verificato: {phoneMasked}
      {usableUntil ? `. Completa l’iscrizione entro il ${formatDateTime(usableUntil)}.` : '.'}
    </p>
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

function PersonFields({
  prefix,
  legend,
  errors,
  hint,
}: {
  prefix: 'principal' | 'firstContact';
  legend: string;
  errors: FieldErrors | undefined;
  hint?: string;
}) {
  const field = (name: string) => `${prefix}.${name}`;
  const id = (name: string) => `${prefix}-${name}`;
  return (
    <fieldset className="mb-4">
      <legend className="h5">{legend}</legend>
      {hint && <p className="small">{hint}</p>}
      <div className="row">
        <div className="col-md-6">
          <TextField
            id={id('firstName')}
            name={field('firstName')}
            label="Nome"
            autoComplete="off"
            required
            error={errors?.[field('firstName')]}
          />
        </div>
        <div className="col-md-6">
          <TextField
            id={id('lastName')}
            name={field('lastName')}
            label="Cognome"
            autoComplete="off"
            required
            error={errors?.[field('lastName')]}
          />
        </div>
      </div>
      <TextField
        type="email"
        id={id('email')}
        name={field('email')}
        label="Indirizzo e-mail personale (non PEC)"
        autoComplete="off"
        required
        error={errors?.[field('email')]}
      />
      <TextField
        id={id('taxCode')}
        name={field('taxCode')}
        label="Codice fiscale"
        autoComplete="off"
        required
        error={errors?.[field('taxCode')]}
      />
      <TextField
        type="tel"
        id={id('phone')}
        name={field('phone')}
        label="Numero di cellulare"
        autoComplete="off"
        required
        error={errors?.[field('phone')]}
      />
    </fieldset>
  );
}

function SchoolSitesFieldset({
  institute,
  error,
}: {
  institute: EnrolmentInstitute;
  error: string | undefined;
}) {
  const errorId = 'schoolSiteIds-error';
  return (
    <fieldset className="mb-4" {...(error ? { 'aria-describedby': errorId } : {})}>
      <legend className="h5">Plessi che partecipano</legend>
      <p className="small">Scegli almeno un plesso. Potrai aggiornare l’elenco dopo l’accesso al portale.</p>
      {institute.schoolSites.length === 0 ? (
        <p>L’anagrafe non elenca plessi per questo istituto: scrivi allo staff dalla pagina dei contatti.</p>
      ) : (
        institute.schoolSites.map((site) => (
          <div className="form-check" key={site.id}>
            <input
              className="form-check-input"
              type="checkbox"
              id={`site-${site.id}`}
              name="schoolSiteIds"
              value={site.id}
            />
            <label className="form-check-label" htmlFor={`site-${site.id}`}>
              {site.name} · {site.ministryCode} – {SCHOOL_LEVEL_LABELS[site.schoolLevel]},{' '}
              {site.municipalityName}
            </label>
          </div>
        ))
      )}
      {error && (
        <p id={errorId} className="text-danger small mt-2">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function Confirmation({ enrolled }: { enrolled: EnrolmentCreated }) {
  const same = enrolled.principalEmail === enrolled.firstContactEmail;
  return (
    <section
      aria-labelledby="iscrizione-completata"
      className="callout callout-success p-4 border border-success rounded"
      role="status"
    >
      <StepHeading index={3} id="iscrizione-completata" />
      <p>
        L’istituto <strong>{enrolled.instituteName}</strong> ({enrolled.ministryCode}) è iscritto al programma
        con {enrolled.schoolSiteCount} {enrolled.schoolSiteCount === 1 ? 'plesso' : 'plessi'}.
      </p>
      <h3 className="h5">Cosa succede adesso</h3>
      <ol>
        <li>
          {same ? (
            <>
              Il dirigente scolastico, che è anche referente, riceve un’e-mail all’indirizzo{' '}
              <strong>{enrolled.principalEmail}</strong>.
            </>
          ) : (
            <>
              Il dirigente scolastico riceve un’e-mail all’indirizzo{' '}
              <strong>{enrolled.principalEmail}</strong> e il referente all’indirizzo{' '}
              <strong>{enrolled.firstContactEmail}</strong>.
            </>
          )}{' '}
          Chi non ha ancora un account sceglie la password dal collegamento dell’e-mail (vale 7 giorni); chi
          ha già un account accede al portale e accetta l’invito, che vale solo se il codice fiscale indicato
          è quello del suo account.
        </li>
        <li>Il dirigente accede al portale e firma il documento di adesione formale dell’istituto.</li>
        <li>Lo staff del programma verifica l’adesione firmata e attiva l’istituto.</li>
      </ol>
      <Link to={href('auth.login')} className="btn btn-primary">
        Vai all’accesso
      </Link>
    </section>
  );
}

function DetailsStep({ data }: { data: Extract<EnrolmentPageData, { step: 'details' }> }) {
  const result = useActionData<EnrolmentActionData>();
  const [samePerson, setSamePerson] = useState(false);
  const { institute, verificationId } = data;
  const errors = result?.intent === 'enrol' ? result.errors : undefined;
  const back = stepUrl({ [VERIFY_PARAM]: verificationId, [SEARCH_PARAM]: data.q });
  return (
    <section aria-labelledby="passo-dati">
      <StepHeading index={2} id="passo-dati" />
      <VerifiedNote phoneMasked={data.verification.phoneMasked} usableUntil={data.verification.usableUntil} />
      <div className="border rounded p-3 mb-4" data-testid="chosen-institute">
        <p className="fw-semibold mb-1">
          {institute.name} · {institute.ministryCode}
        </p>
        <p className="small mb-2">
          {institute.type} – {institute.address ? `${institute.address}, ` : ''}
          {institute.municipalityName} ({institute.province})
        </p>
        <Link to={back} className="small">
          Cambia istituto
        </Link>
      </div>
      {!institute.enrollable ? (
        <FormMessage
          message={`L’istituto ${institute.ministryCode} è già iscritto al programma (stato: ${ADHESION_STATE_LABELS[institute.adhesionState]}): non è possibile iscriverlo di nuovo.`}
        />
      ) : (
        <>
          <FormMessage message={result?.intent === 'enrol' ? result.message : undefined} />
          {result?.intent === 'enrol' &&
            result.message &&
            !errors?.['principal.email'] &&
            result.message.includes('verifica del cellulare') && (
              <p>
                <Link to={href('enrolment')}>Verifica di nuovo il numero di cellulare</Link>
              </p>
            )}
          <Form method="post" noValidate>
            <input type="hidden" name="intent" value="enrol" />
            <input type="hidden" name="verificationId" value={verificationId} />
            <input type="hidden" name="instituteId" value={institute.id} />
            {errors?.verificationId && <FormMessage message={errors.verificationId} />}
            <PersonFields
              prefix="principal"
              legend="Dirigente scolastico"
              errors={errors}
              hint="Riceverà un’e-mail per accedere al portale e firmare l’adesione formale. Se il cellulare coincide con quello appena verificato, risulterà già verificato."
            />
            <div className="form-check mb-4">
              <input
                id="firstContactIsPrincipal"
                name="firstContactIsPrincipal"
                type="checkbox"
                value="true"
                className="form-check-input"
                checked={samePerson}
                onChange={(event) => setSamePerson(event.target.checked)}
              />
              <label htmlFor="firstContactIsPrincipal" className="form-check-label">
                Il referente è il dirigente
              </label>
            </div>
            {!samePerson && (
              <PersonFields
                prefix="firstContact"
                legend="Referente d’istituto"
                errors={errors}
                hint="La persona che cura l’adesione e tiene aggiornati i dati dell’istituto e dei plessi."
              />
            )}
            <SchoolSitesFieldset institute={institute} error={errors?.schoolSiteIds} />
            <CheckboxField
              id="privacyAccepted"
              name="privacyAccepted"
              error={errors?.privacyAccepted}
              label={
                <>
                  Dichiaro di aver letto l’<Link to="/privacy">informativa sulla privacy</Link>
                </>
              }
            />
            <SubmitButton idle="Iscrivi l’istituto" busy="Iscrizione in corso…" />
          </Form>
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

/** `/iscrizioni/iscrizione`: phone by SMS, then the institute, then principal, first contact, plessi and consent. */
export function Component() {
  const data = useLoaderData<EnrolmentPageData>();
  // After the enrolment the loader runs again and finds the verification used: the confirmation stays.
  const enrolled = useActionData<EnrolmentActionData>()?.enrolled;
  const page = getPage('enrolment');
  // Opening the page again later is not a step change.
  useEffect(
    () => () => {
      shownStep = null;
    },
    [],
  );
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
              {data.step === 'phone' && <PhoneStepSection />}
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
