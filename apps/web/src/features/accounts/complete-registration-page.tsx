import { Button } from 'design-react-kit';
import { Form, useActionData, useLoaderData } from 'react-router';
import type { AccountProfile, MissingItem } from '@portale/shared/accounts';
import { getPage } from '@portale/shared/pages';
import { TextField } from '../../components/form/text-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { SchoolSitePicker } from '../../components/school-site-picker.tsx';
import { FlaggedFields } from '../../components/flagged-fields.tsx';
import type { CompleteActionData } from './complete-registration-actions.ts';
import { PhoneVerification } from './phone-verification.tsx';

export { action, loader } from './complete-registration-actions.ts';

const MISSING_LABELS: Record<MissingItem, string> = {
  phone: 'Numero di cellulare',
  phoneVerification: 'Verifica del numero di cellulare',
  emailVerification: 'Verifica dell’indirizzo e-mail',
  taxCode: 'Codice fiscale',
  schoolSite: 'Plesso scolastico',
};

function EmailVerification({ email }: { email: string }) {
  return (
    <section aria-labelledby="verifica-email" className="mb-5">
      <h2 id="verifica-email" className="h4">
        Indirizzo e-mail
      </h2>
      <p>
        Apri il collegamento che abbiamo inviato a <strong>{email}</strong>. Se non lo trovi, anche nella
        posta indesiderata, chiedine uno nuovo.
      </p>
      <Form method="post">
        <input type="hidden" name="intent" value="email-resend" />
        <Button color="primary" outline type="submit">
          Invia di nuovo l’e-mail di verifica
        </Button>
      </Form>
    </section>
  );
}

function ProfileFields({
  missing,
  errors,
}: {
  missing: MissingItem[];
  errors?: Record<string, string> | undefined;
}) {
  return (
    <>
      {missing.includes('taxCode') && (
        <section aria-labelledby="codice-fiscale" className="mb-5">
          <h2 id="codice-fiscale" className="h4">
            Codice fiscale
          </h2>
          <Form method="post" noValidate>
            <input type="hidden" name="intent" value="tax-code" />
            <TextField
              id="taxCode"
              name="taxCode"
              label="Codice fiscale"
              autoComplete="off"
              required
              error={errors?.taxCode}
            />
            <SubmitButton idle="Salva il codice fiscale" busy="Salvataggio…" />
          </Form>
        </section>
      )}
      {missing.includes('schoolSite') && (
        <section aria-labelledby="plesso" className="mb-5">
          <h2 id="plesso" className="h4">
            Plesso
          </h2>
          <Form method="post" noValidate>
            <input type="hidden" name="intent" value="school-site" />
            <SchoolSitePicker required error={errors?.schoolSiteId} />
            <SubmitButton idle="Salva il plesso" busy="Salvataggio…" />
          </Form>
        </section>
      )}
    </>
  );
}

/** Sent back by the staff: their note, and the registration's data to correct and send again. */
function Correction({
  profile,
  errors,
}: {
  profile: AccountProfile;
  errors?: Record<string, string> | undefined;
}) {
  const teacher = profile.teacherProfile!;
  return (
    <section aria-labelledby="correzioni" className="mb-5" data-testid="registration-correction">
      <h2 id="correzioni" className="h4">
        Correggi la registrazione
      </h2>
      <div className="alert alert-warning" role="note">
        <p className="mb-1">
          Lo staff del programma ti ha chiesto di correggere la registrazione
          {teacher.reviewNote ? ' con questa nota:' : '.'}
        </p>
        {teacher.reviewNote && (
          <blockquote className="mb-0 fst-italic" data-testid="review-note">
            «{teacher.reviewNote}»
          </blockquote>
        )}
        <FlaggedFields fields={teacher.reviewFields} />
      </div>
      <p>
        Plesso attuale:{' '}
        <strong>
          {teacher.schoolSite
            ? `${teacher.schoolSite.name} (${teacher.schoolSite.ministryCode}), ${teacher.schoolSite.municipalityName}`
            : 'nessuno'}
        </strong>
        . Se è sbagliato, cercalo qui sotto; altrimenti lascia la ricerca vuota. Quando invii, la
        registrazione torna allo staff per una nuova revisione.
      </p>
      <Form method="post" noValidate>
        <input type="hidden" name="intent" value="correction" />
        <SchoolSitePicker error={errors?.schoolSiteId} />
        <TextField
          id="correction-subjects"
          name="subjects"
          label="Materie o ruolo (separate da virgole)"
          defaultValue={teacher.subjects.join(', ')}
          error={errors?.subjects}
        />
        <SubmitButton idle="Invia la registrazione corretta" busy="Invio…" />
      </Form>
    </section>
  );
}

export function Component() {
  const profile = useLoaderData<AccountProfile>();
  const result = useActionData<CompleteActionData>();
  const page = getPage('auth.complete-registration');
  const { missing } = profile;
  const needsPhone = missing.includes('phone') || missing.includes('phoneVerification');
  return (
    <div className="container my-5">
      <div className="row justify-content-center">
        <div className="col-md-10 col-lg-8">
          <PageHeader title={page.title} description={page.description}>
            {missing.length > 0 && (
              <>
                <p className="mb-1">Ti manca ancora:</p>
                <ul data-testid="missing-items">
                  {missing.map((item) => (
                    <li key={item}>{MISSING_LABELS[item]}</li>
                  ))}
                </ul>
              </>
            )}
          </PageHeader>
          <FormMessage tone={result?.ok ? 'success' : 'danger'} message={result?.message} />
          {needsPhone && <PhoneVerification result={result} phone={profile.phone} />}
          {missing.includes('emailVerification') && <EmailVerification email={profile.email} />}
          <ProfileFields missing={missing} errors={result?.errors} />
          {profile.teacherProfile?.reviewState === 'da_correggere' && (
            <Correction profile={profile} errors={result?.errors} />
          )}
        </div>
      </div>
    </div>
  );
}
