import { Alert, Button, Input } from 'design-react-kit';
import {
  Form,
  Link,
  redirect,
  useActionData,
  useLoaderData,
  useNavigation,
  type LoaderFunctionArgs,
} from 'react-router';
import {
  IDENTITY_FAILURES,
  IDENTITY_PROVIDER_SHORT_LABELS,
  pendingIdentity,
  requestIdentityLinkCode,
  SPID_LOGOUT_FAILURES,
  VERIFIED_IDENTITY_QUERY,
  type IdentityFailure,
  type PendingIdentity,
  type SpidLogoutFailure,
} from '@portale/shared/identity';
import { TextField } from '../../components/form/text-field.tsx';
import { href } from '@portale/shared/pages';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { registrationPagePath, rememberPendingIdentity } from '../../lib/identity-marks.ts';
import { adoptProviderSession, linkProviderIdentity } from '../../lib/session.ts';

type ResultData =
  | { kind: 'error'; message: string }
  | { kind: 'logout'; message: string }
  | { kind: 'pending'; pending: PendingIdentity };

const GENERIC_FAILURE =
  'L’accesso con SPID o CIE non è riuscito. Riprova, oppure accedi con e-mail e password.';

const GENERIC_LOGOUT_FAILURE = SPID_LOGOUT_FAILURES.logout_invalid;

function failureMessage(code: string | null): string {
  return code && code in IDENTITY_FAILURES ? IDENTITY_FAILURES[code as IdentityFailure] : GENERIC_FAILURE;
}

function logoutFailureMessage(code: string | null): string {
  return code && code in SPID_LOGOUT_FAILURES
    ? SPID_LOGOUT_FAILURES[code as SpidLogoutFailure]
    : GENERIC_LOGOUT_FAILURE;
}

/** The callback's outcome (`?esito=`): signed in → the portal; a pending identity → its form; else the reason. */
export async function loader({ request }: LoaderFunctionArgs): Promise<ResultData | Response> {
  const url = new URL(request.url);
  const outcome = url.searchParams.get('esito');
  if (outcome === 'accesso') {
    try {
      await adoptProviderSession();
      return redirect('/portale');
    } catch {
      return { kind: 'error', message: GENERIC_FAILURE };
    }
  }
  if (outcome === 'collega' || outcome === 'registrazione') {
    try {
      const pending = await callApi(pendingIdentity, {});
      // The enrolment asks the API for the verified person only while one may be waiting.
      if (pending.kind === 'register') rememberPendingIdentity(pending.expiresAt);
      return { kind: 'pending', pending };
    } catch (error) {
      return { kind: 'error', message: error instanceof ApiError ? error.message : GENERIC_FAILURE };
    }
  }
  // The return from a SPID single logout that failed (decision 052): the portal's session is over.
  if (outcome === 'uscita')
    return { kind: 'logout', message: logoutFailureMessage(url.searchParams.get('codice')) };
  return { kind: 'error', message: failureMessage(url.searchParams.get('codice')) };
}

/** What the link form shows after a submit: an error (of the password or of the code step), or the code sent. */
export type LinkActionData = {
  message?: string;
  /** The code step is open: the code was sent (to `sentTo`), or a code was refused. */
  codeStep?: boolean;
  sentTo?: string;
  validMinutes?: number;
};

const failed = (error: unknown, codeStep = false): LinkActionData => ({
  message: error instanceof ApiError ? error.message : GENERIC_FAILURE,
  codeStep,
});

/** `intent`: `password` (default), `send-code` (a code to the account's e-mail) or `code` (link with it). */
export async function action({ request }: { request: Request }): Promise<LinkActionData | Response> {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'password');
  if (intent === 'send-code') {
    try {
      const sent = await callApi(requestIdentityLinkCode, {});
      return { codeStep: true, sentTo: sent.sentTo, validMinutes: sent.validMinutes };
    } catch (error) {
      return failed(error);
    }
  }
  if (intent === 'code') {
    const code = String(form.get('code') ?? '').trim();
    if (!/^\d{6}$/.test(code))
      return { message: 'Il codice è di 6 cifre: controlla il messaggio ricevuto.', codeStep: true };
    try {
      await linkProviderIdentity({ code });
      return redirect('/portale');
    } catch (error) {
      return failed(error, true);
    }
  }
  const password = String(form.get('password') ?? '');
  if (!password) return { message: 'Inserisci la password.' };
  try {
    await linkProviderIdentity({ password });
    return redirect('/portale');
  } catch (error) {
    return failed(error);
  }
}

function VerifiedData({ pending }: { pending: PendingIdentity }) {
  return (
    <dl className="row">
      <dt className="col-sm-4">Nome</dt>
      <dd className="col-sm-8">{pending.firstName}</dd>
      <dt className="col-sm-4">Cognome</dt>
      <dd className="col-sm-8">{pending.lastName}</dd>
      <dt className="col-sm-4">Codice fiscale</dt>
      <dd className="col-sm-8 font-monospace">{pending.taxCode}</dd>
    </dl>
  );
}

/** «CIE» or «SPID», as the sentence names the provider the person came from. */
const providerOf = (pending: PendingIdentity) => IDENTITY_PROVIDER_SHORT_LABELS[pending.provider];

function LinkForm({ pending }: { pending: PendingIdentity }) {
  const result = useActionData<LinkActionData>();
  const submitting = useNavigation().state === 'submitting';
  const provider = providerOf(pending);
  return (
    <>
      <PageHeader
        title={`Collega ${pending.provider === 'cie' ? 'la CIE' : 'SPID'} al tuo account`}
        description="Un account del portale ha questo codice fiscale, inserito a mano: conferma che è tuo con la sua password."
      />
      <VerifiedData pending={pending} />
      <p>
        Account: <strong>{pending.accountEmailHint}</strong>. Dopo il collegamento il codice fiscale risulterà
        verificato con {provider} e potrai entrare anche solo con{' '}
        {pending.provider === 'cie' ? 'la CIE' : 'SPID'}.
      </p>
      {result?.message && !result.codeStep && (
        <Alert color="danger" role="alert">
          {result.message}
        </Alert>
      )}
      <Form method="post" noValidate>
        <input type="hidden" name="intent" value="password" />
        <Input
          type="password"
          id="password"
          name="password"
          label="Password dell’account"
          autoComplete="current-password"
          required
        />
        <Button color="primary" type="submit" disabled={submitting}>
          {submitting ? 'Collegamento in corso…' : 'Collega e accedi'}
        </Button>
      </Form>
      {pending.codeAvailable ? (
        <CodeProof pending={pending} result={result} />
      ) : (
        <p className="mt-4">
          <Link to="/auth/forgot-password">Non ricordi la password?</Link>
        </p>
      )}
    </>
  );
}

/** The proof by a code to the account's confirmed e-mail: ask for it, then type it. */
function CodeProof({ pending, result }: { pending: PendingIdentity; result: LinkActionData | undefined }) {
  const submitting = useNavigation().state === 'submitting';
  return (
    <section className="mt-5 pt-4 border-top" aria-labelledby="codice-titolo">
      <h2 id="codice-titolo" className="h5">
        Non ricordi la password?
      </h2>
      <p>
        Possiamo inviare un codice all’indirizzo e-mail dell’account,{' '}
        <strong>{pending.accountEmailHint}</strong>: inseriscilo qui al posto della password.
      </p>
      {result?.sentTo && (
        // A status, not an alert (the kit's Alert is always role="alert").
        <p className="alert alert-success" role="status">
          Codice inviato a {result.sentTo}: vale {result.validMinutes} minuti.
        </p>
      )}
      {result?.codeStep && result.message && (
        <Alert color="danger" role="alert">
          {result.message}
        </Alert>
      )}
      {result?.codeStep && (
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="code" />
          <TextField
            id="code"
            name="code"
            label="Codice ricevuto per e-mail"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            required
          />
          <Button color="primary" type="submit" disabled={submitting}>
            Collega con il codice
          </Button>
        </Form>
      )}
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="send-code" />
        <Button color="primary" outline type="submit" disabled={submitting}>
          {result?.codeStep ? 'Invia un nuovo codice' : 'Invia il codice per e-mail'}
        </Button>
      </Form>
    </section>
  );
}

function RegisterOffer({ pending }: { pending: PendingIdentity }) {
  return (
    <>
      <PageHeader
        title="Crea l’account"
        description="Nessun account del portale ha questo codice fiscale. Puoi registrarti come insegnante o educatore."
      />
      <VerifiedData pending={pending} />
      <p>
        {pending.email
          ? `La registrazione userà l’indirizzo e-mail comunicato da ${providerOf(pending)} (${pending.email}): potrai cambiarlo.`
          : `${pending.provider === 'cie' ? 'La CIE' : 'Il gestore SPID'} non ha comunicato l’indirizzo e-mail: lo inserirai nella registrazione.`}
      </p>
      <Link
        className="btn btn-primary"
        to={`${registrationPagePath()}?${VERIFIED_IDENTITY_QUERY}=${pending.provider}#registrazione`}
      >
        Crea l’account
      </Link>
      <h2 className="h5 mt-5">Devi iscrivere la tua scuola?</h2>
      <p>
        Se sei il dirigente o il referente di un istituto non ancora iscritto al programma, puoi iscriverlo
        come persona verificata: nome, cognome e codice fiscale arriveranno da {providerOf(pending)}.
      </p>
      <Link className="btn btn-outline-primary" to={href('enrolment')}>
        Iscrivi la scuola
      </Link>
    </>
  );
}

function LogoutFailure({ message }: { message: string }) {
  return (
    <>
      <PageHeader
        title="Uscita da SPID"
        description="Sei uscito dal portale. L’uscita dal gestore dell’identità SPID non è stata confermata."
      />
      <Alert color="warning" role="alert">
        {message}
      </Alert>
      <Link className="btn btn-primary" to="/">
        Vai alla home
      </Link>
    </>
  );
}

export function Component() {
  const data = useLoaderData<ResultData>();
  if (data.kind === 'logout')
    return (
      <div className="container my-5">
        <div className="row justify-content-center">
          <div className="col-md-8 col-lg-6">
            <LogoutFailure message={data.message} />
          </div>
        </div>
      </div>
    );
  return (
    <div className="container my-5">
      <div className="row justify-content-center">
        <div className="col-md-8 col-lg-6">
          {data.kind === 'pending' ? (
            data.pending.kind === 'link' ? (
              <LinkForm pending={data.pending} />
            ) : (
              <RegisterOffer pending={data.pending} />
            )
          ) : (
            <>
              <PageHeader
                title="Accesso con SPID o CIE"
                description="L’accesso con l’identità digitale non è riuscito: non è stata aperta nessuna sessione."
              />
              <Alert color="danger" role="alert">
                {data.message}
              </Alert>
              <Link className="btn btn-primary" to="/auth/login">
                Torna all’accesso
              </Link>
            </>
          )}
        </div>
      </div>
    </div>
  );
}
