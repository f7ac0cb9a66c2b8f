import { Alert, Button, Input } from 'design-react-kit';
import { Form, Link, useActionData, useNavigation } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { IdentityLogin } from './identity-login.tsx';
import type { LoginActionData } from './login-actions.ts';

export { action } from './login-actions.ts';

function SubmitButton({ idle, busy }: { idle: string; busy: string }) {
  const submitting = useNavigation().state === 'submitting';
  return (
    <Button color="primary" type="submit" disabled={submitting} className="mt-2">
      {submitting ? busy : idle}
    </Button>
  );
}

function PasswordForm({ message }: { message?: string | undefined }) {
  return (
    <>
      <PageHeader
        title="Accedi"
        description="Accedi al portale con l’indirizzo e-mail e la password del tuo account."
      />
      {message && (
        <Alert color="danger" role="alert">
          {message}
        </Alert>
      )}
      <Form method="post" noValidate className="mt-4">
        <input type="hidden" name="intent" value="password" />
        <Input
          type="email"
          id="email"
          name="email"
          label="Indirizzo e-mail"
          autoComplete="username"
          required
        />
        <Input
          type="password"
          id="password"
          name="password"
          label="Password"
          autoComplete="current-password"
          required
        />
        <SubmitButton idle="Accedi" busy="Accesso in corso…" />
      </Form>
      <IdentityLogin />
    </>
  );
}

function SecondFactorForm({ data }: { data: Extract<LoginActionData, { step: 'second-factor' }> }) {
  return (
    <>
      <PageHeader
        title="Verifica in due passaggi"
        description="Il tuo ruolo richiede un secondo fattore di autenticazione."
      />
      {data.enrolment && (
        <div className="callout note mb-4">
          <div className="callout-title">Configura l’app di autenticazione</div>
          <p>
            Aggiungi un account nella tua app di autenticazione (per esempio FreeOTP o un’app TOTP) inserendo
            questa chiave, poi scrivi qui sotto il codice di 6 cifre che l’app mostra.
          </p>
          <p className="font-monospace fs-5" data-testid="mfa-secret">
            {data.enrolment.secret}
          </p>
        </div>
      )}
      {data.message && (
        <Alert color="danger" role="alert">
          {data.message}
        </Alert>
      )}
      <Form method="post" noValidate className="mt-4">
        <input type="hidden" name="intent" value="second-factor" />
        <input type="hidden" name="mfa_token" value={data.mfaToken} />
        {data.enrolment && <input type="hidden" name="secret" value={data.enrolment.secret} />}
        {data.enrolment && <input type="hidden" name="otpauth_uri" value={data.enrolment.otpauthUri} />}
        <Input
          type="text"
          id="code"
          name="code"
          label="Codice di verifica o codice di recupero"
          autoComplete="one-time-code"
          inputMode="text"
          required
        />
        <SubmitButton idle="Verifica" busy="Verifica in corso…" />
      </Form>
    </>
  );
}

function RecoveryCodes({ data }: { data: Extract<LoginActionData, { step: 'recovery-codes' }> }) {
  return (
    <>
      <PageHeader
        title="Codici di recupero"
        description="Conservali in un luogo sicuro: ognuno vale una sola volta se perdi il dispositivo."
      />
      <ul className="list-unstyled font-monospace fs-5" data-testid="recovery-codes">
        {data.codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <p>Questi codici non saranno mostrati di nuovo.</p>
      <Link to={data.next} className="btn btn-primary">
        Ho salvato i codici, continua
      </Link>
    </>
  );
}

export function Component() {
  const data = useActionData<LoginActionData>();
  return (
    <div className="container my-5">
      <div className="row justify-content-center">
        <div className="col-md-8 col-lg-6">
          {data?.step === 'second-factor' ? (
            <SecondFactorForm data={data} />
          ) : data?.step === 'recovery-codes' ? (
            <RecoveryCodes data={data} />
          ) : (
            <PasswordForm message={data?.message} />
          )}
        </div>
      </div>
    </div>
  );
}
