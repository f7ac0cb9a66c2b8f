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
  pendingIdentity,
  SPID_LOGOUT_FAILURES,
  type IdentityFailure,
  type PendingIdentity,
  type SpidLogoutFailure,
} from '@portale/shared/identity';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { adoptProviderSession, linkProviderIdentity } from '../../lib/session.ts';

type ResultData =
  | { kind: 'error'; message: string }
  | { kind: 'logout'; message: string }
  | { kind: 'pending'; pending: PendingIdentity };

const GENERIC_FAILURE = 'L’accesso con CIE non è riuscito. Riprova, oppure accedi con e-mail e password.';

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
      return { kind: 'pending', pending: await callApi(pendingIdentity, {}) };
    } catch (error) {
      return { kind: 'error', message: error instanceof ApiError ? error.message : GENERIC_FAILURE };
    }
  }
  // The return from a SPID single logout that failed (decision 052): the portal's session is over.
  if (outcome === 'uscita')
    return { kind: 'logout', message: logoutFailureMessage(url.searchParams.get('codice')) };
  return { kind: 'error', message: failureMessage(url.searchParams.get('codice')) };
}

export async function action({ request }: { request: Request }): Promise<{ message: string } | Response> {
  const form = await request.formData();
  const password = String(form.get('password') ?? '');
  if (!password) return { message: 'Inserisci la password.' };
  try {
    await linkProviderIdentity(password);
    return redirect('/portale');
  } catch (error) {
    return { message: error instanceof ApiError ? error.message : GENERIC_FAILURE };
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

function LinkForm({ pending }: { pending: PendingIdentity }) {
  const result = useActionData<{ message: string }>();
  const submitting = useNavigation().state === 'submitting';
  return (
    <>
      <PageHeader
        title="Collega la CIE al tuo account"
        description="Un account del portale ha questo codice fiscale, inserito a mano: conferma che è tuo con la sua password."
      />
      <VerifiedData pending={pending} />
      <p>
        Account: <strong>{pending.accountEmailHint}</strong>. Dopo il collegamento il codice fiscale risulterà
        verificato con CIE e potrai entrare anche solo con la CIE.
      </p>
      {result?.message && (
        <Alert color="danger" role="alert">
          {result.message}
        </Alert>
      )}
      <Form method="post" noValidate>
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
      <p className="mt-4">
        <Link to="/auth/forgot-password">Non ricordi la password?</Link>
      </p>
    </>
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
      <p>La CIE non comunica l’indirizzo e-mail: lo inserirai nella registrazione.</p>
      <Link className="btn btn-primary" to="/landing/registrazioni/insegnante?identita=cie#registrazione">
        Crea l’account
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
                title="Accesso con CIE"
                description="L’accesso con la CIE non è riuscito: non è stata aperta nessuna sessione."
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
