import { useEffect, useRef, useState } from 'react';
import { Form, Link, useActionData } from 'react-router';
import type { TeacherKind } from '@portale/shared/accounts';
import type { PasswordContext } from '@portale/shared/accounts/password';
import { CheckboxField } from '../../components/form/checkbox-field.tsx';
import { TextField } from '../../components/form/text-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import type { FormResult } from '../../lib/form-data.ts';
import { PasswordMeter, preloadPasswordPolicy } from '../../components/password-fields.tsx';
import { SchoolSitePicker } from '../../components/school-site-picker.tsx';
import { useVerifiedIdentity } from './verified-identity.ts';

const SUBJECTS_LABEL: Record<TeacherKind, string> = {
  insegnante: 'Materie che insegni (separate da virgole)',
  educatore: 'Ruolo o ambito educativo (facoltativo)',
  altro: 'Il tuo ruolo nel programma (facoltativo)',
};

/**
 * The registration form of a landing (insegnante, educatore, altro); its route action is registrationAction,
 * loaded at the first submit (it checks the password policy, whose dictionaries the page does not load up front).
 */
export function RegistrationForm({ kind }: { kind: TeacherKind }) {
  const result = useActionData<FormResult>();
  const errors = result?.errors;
  const [password, setPassword] = useState('');
  const [context, setContext] = useState<PasswordContext>({});
  const formRef = useRef<HTMLFormElement>(null);
  const verified = useVerifiedIdentity();
  // Verified with CIE: name, surname and codice fiscale are the provider's, shown and not typed over.
  const fromCie = (value: string | undefined) => (verified ? { defaultValue: value, readOnly: true } : {});
  // After a refused submit the first field to correct takes the focus, in the middle of the screen (not
  // under the page's edges or the cookie banner): the user hears it and sees it (issue 34).
  useEffect(() => {
    if (!result || result.ok) return;
    const field = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!field) return;
    field.focus({ preventScroll: true });
    field.scrollIntoView({ block: 'center' });
  }, [result]);
  const trackContext = (event: React.FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLInputElement;
    if (['firstName', 'lastName', 'email'].includes(target.name))
      setContext((c) => ({ ...c, [target.name]: target.value }));
  };
  return (
    <section id="registrazione" aria-labelledby="registrazione-titolo" className="my-5">
      <h2 id="registrazione-titolo" className="h3">
        Modulo di registrazione
      </h2>
      {result?.ok ? (
        <FormMessage tone="success" message={result.message} />
      ) : (
        <>
          <FormMessage message={result?.message} />
          <Form
            ref={formRef}
            method="post"
            noValidate
            preventScrollReset
            onChange={trackContext}
            className="mt-4"
          >
            <input type="hidden" name="kind" value={kind} />
            {verified && (
              <p className="callout note" role="status">
                Nome, cognome e codice fiscale sono quelli verificati con la CIE. Inserisci l’indirizzo e-mail
                e gli altri dati: la CIE non comunica l’e-mail.
              </p>
            )}
            <div className="row" key={verified ? 'verified' : 'typed'}>
              <div className="col-md-6">
                <TextField
                  id="firstName"
                  name="firstName"
                  label="Nome"
                  autoComplete="given-name"
                  required
                  {...fromCie(verified?.firstName)}
                  error={errors?.firstName}
                />
              </div>
              <div className="col-md-6">
                <TextField
                  id="lastName"
                  name="lastName"
                  label="Cognome"
                  autoComplete="family-name"
                  required
                  {...fromCie(verified?.lastName)}
                  error={errors?.lastName}
                />
              </div>
            </div>
            <TextField
              type="email"
              id="email"
              name="email"
              label="Indirizzo e-mail personale (non PEC)"
              autoComplete="email"
              required
              error={errors?.email}
            />
            <TextField
              type="tel"
              id="phone"
              name="phone"
              label="Numero di cellulare"
              autoComplete="tel"
              required
              error={errors?.phone}
            />
            <TextField
              type="password"
              id="password"
              name="password"
              label="Password"
              autoComplete="new-password"
              required
              value={password}
              onFocus={preloadPasswordPolicy}
              onChange={(event) => setPassword(event.target.value)}
              error={errors?.password}
            />
            <PasswordMeter password={password} context={context} />
            <TextField
              key={verified ? 'taxCode-verified' : 'taxCode'}
              {...fromCie(verified?.taxCode)}
              id="taxCode"
              name="taxCode"
              label={kind === 'altro' ? 'Codice fiscale (facoltativo)' : 'Codice fiscale'}
              autoComplete="off"
              required={kind !== 'altro'}
              error={errors?.taxCode}
            />
            <SchoolSitePicker required={kind !== 'altro'} error={errors?.schoolSiteId} />
            <TextField
              id="subjects"
              name="subjects"
              label={SUBJECTS_LABEL[kind]}
              required={kind === 'insegnante'}
              error={errors?.subjects}
            />
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
            <SubmitButton idle="Registrati" busy="Invio in corso…" />
          </Form>
        </>
      )}
    </section>
  );
}
