// The enrolment's last step (the people, the plessi) and its confirmation.
import { StepHeading, VerifiedNote } from './enrolment-steps.tsx';
import { useState } from 'react';
import { Form, Link, useActionData } from 'react-router';
import { ADHESION_STATE_LABELS, SCHOOL_LEVEL_LABELS } from '@portale/shared/registry';
import { type EnrolmentCreated, type EnrolmentInstitute } from '@portale/shared/enrolment';
import { IDENTITY_PROVIDER_SHORT_LABELS, type PendingIdentity } from '@portale/shared/identity';
import { href } from '@portale/shared/pages';
import { CheckboxField } from '../../components/form/checkbox-field.tsx';
import { ChoiceField } from '../../components/form/choice-field.tsx';
import { TextField } from '../../components/form/text-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import type { FieldErrors } from '../../lib/form-data.ts';
import {
  SEARCH_PARAM,
  stepUrl,
  VERIFY_PARAM,
  type EnrolmentActionData,
  type EnrolmentPageData,
} from './enrolment-actions.ts';

function PersonFields({
  prefix,
  legend,
  errors,
  hint,
  verified,
}: {
  prefix: 'principal' | 'firstContact';
  legend: string;
  errors: FieldErrors | undefined;
  hint?: string;
  /** The applicant verified with SPID/CIE is this person: name, surname and codice fiscale are theirs. */
  verified?: PendingIdentity | null | undefined;
}) {
  const field = (name: string) => `${prefix}.${name}`;
  const id = (name: string) => `${prefix}-${name}`;
  const fixed = (value: string | undefined) => (verified ? { defaultValue: value, readOnly: true } : {});
  const offered = (value: string | null | undefined) => (verified && value ? { defaultValue: value } : {});
  return (
    <fieldset className="mb-4" key={verified ? 'verified' : 'typed'}>
      <legend className="h5">{legend}</legend>
      {hint && <p className="small">{hint}</p>}
      {verified && (
        <p className="small">
          Sei tu: nome, cognome e codice fiscale sono quelli verificati con{' '}
          {IDENTITY_PROVIDER_SHORT_LABELS[verified.provider]}.
        </p>
      )}
      <div className="row">
        <div className="col-md-6">
          <TextField
            id={id('firstName')}
            name={field('firstName')}
            label="Nome"
            autoComplete="off"
            required
            {...fixed(verified?.firstName)}
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
            {...fixed(verified?.lastName)}
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
        {...offered(verified?.email)}
        error={errors?.[field('email')]}
      />
      <TextField
        id={id('taxCode')}
        name={field('taxCode')}
        label="Codice fiscale"
        autoComplete="off"
        required
        {...fixed(verified?.taxCode)}
        error={errors?.[field('taxCode')]}
      />
      <TextField
        type="tel"
        id={id('phone')}
        name={field('phone')}
        label="Numero di cellulare"
        autoComplete="off"
        required
        {...offered(verified?.phone)}
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
  return (
    <ChoiceField
      id="schoolSiteIds"
      name="schoolSiteIds"
      type="checkbox"
      legend="Plessi che partecipano"
      legendClassName="h5"
      className="mb-4"
      options={institute.schoolSites.map((site) => ({
        value: String(site.id),
        label: (
          <>
            {site.name} · {site.ministryCode} – {SCHOOL_LEVEL_LABELS[site.schoolLevel]},{' '}
            {site.municipalityName}
          </>
        ),
      }))}
      optionId={(value) => `site-${value}`}
      error={error}
    >
      <p className="small">Scegli almeno un plesso. Potrai aggiornare l’elenco dopo l’accesso al portale.</p>
      {institute.schoolSites.length === 0 && (
        <p>L’anagrafe non elenca plessi per questo istituto: scrivi allo staff dalla pagina dei contatti.</p>
      )}
    </ChoiceField>
  );
}

/** Which of the two people the applicant verified with SPID/CIE is (decision 054). */
function VerifiedApplicant({
  identity,
  onChange,
}: {
  identity: PendingIdentity;
  onChange: (value: string) => void;
}) {
  const provider = IDENTITY_PROVIDER_SHORT_LABELS[identity.provider];
  return (
    <div onChange={(event) => onChange((event.target as HTMLInputElement).value)}>
      <ChoiceField
        id="verifiedAs"
        name="verifiedAs"
        legend={`Chi sei tu? (${identity.firstName} ${identity.lastName}, identità verificata con ${provider})`}
        legendClassName="h5"
        className="mb-4"
        defaultValue="principal"
        options={[
          { value: 'principal', label: 'Sono il dirigente scolastico' },
          { value: 'firstContact', label: 'Sono il referente d’istituto' },
          { value: '', label: 'Nessuno dei due: inserisco i dati a mano' },
        ]}
        optionId={(value) => `verifiedAs-${value || 'nessuno'}`}
        hint={`Il tuo account sarà collegato a ${provider}: potrai entrare con ${provider} e il codice fiscale risulterà verificato.`}
      />
    </div>
  );
}

export function Confirmation({ enrolled }: { enrolled: EnrolmentCreated }) {
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

export function DetailsStep({ data }: { data: Extract<EnrolmentPageData, { step: 'details' }> }) {
  const result = useActionData<EnrolmentActionData>();
  const [samePerson, setSamePerson] = useState(false);
  const { institute, verificationId, verifiedIdentity } = data;
  const [verifiedAs, setVerifiedAs] = useState<string>(verifiedIdentity ? 'principal' : '');
  const applicant = verifiedIdentity && verifiedAs ? (samePerson ? 'principal' : verifiedAs) : '';
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
            {verifiedIdentity && <VerifiedApplicant identity={verifiedIdentity} onChange={setVerifiedAs} />}
            <input type="hidden" name="verifiedPerson" value={applicant} />
            <PersonFields
              prefix="principal"
              legend="Dirigente scolastico"
              errors={errors}
              verified={applicant === 'principal' ? verifiedIdentity : null}
              hint="Riceverà un’e-mail per accedere al portale e firmare l’adesione formale. Se il cellulare coincide con quello appena verificato, risulterà già verificato."
            />
            <CheckboxField
              id="firstContactIsPrincipal"
              name="firstContactIsPrincipal"
              label="Il referente è il dirigente"
              checked={samePerson}
              onChange={(event) => setSamePerson(event.target.checked)}
            />
            {!samePerson && (
              <PersonFields
                prefix="firstContact"
                legend="Referente d’istituto"
                errors={errors}
                verified={applicant === 'firstContact' ? verifiedIdentity : null}
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
