import { useEffect, useRef } from 'react';
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useSubmit,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import type { EmailVerificationStatus } from '@portale/shared/accounts';
import { getPage } from '@portale/shared/pages';
import { TextField } from '../../components/form/text-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { NarrowPage } from '../../components/narrow-page.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { failureResult, issuesToErrors, text, type FormResult } from '../../lib/form-data.ts';
import { callApi } from '../../lib/api-client.ts';
import { getSession, reloadUser, useSession } from '../../lib/session.ts';
import { useUrlToken } from './use-url-token.ts';

const PATH = '/verifica/email-verificata';
type Result = FormResult & { status?: EmailVerificationStatus; resent?: boolean };

// The account contracts (with the phone-number metadata) are not needed to show the page when the
// link carries its token: they load while it renders ("verifica in corso") and the actions await them.
const accounts = () => import('@portale/shared/accounts');

/** Prerendered as its heading and a loading line in the narrow column until the app takes over (components/page-shell.tsx). */
export const prerenderShell = 'narrow';

/** Without a token the page says at once that the link is not valid: that message comes first. */
export async function loader({ request }: LoaderFunctionArgs): Promise<{ invalid?: string }> {
  if (new URL(request.url).searchParams.get('token')) {
    void accounts();
    return {};
  }
  return { invalid: (await accounts()).EMAIL_VERIFICATION_MESSAGES.invalid };
}

async function confirm(token: string): Promise<Result> {
  const { confirmEmailVerification, EMAIL_VERIFICATION_MESSAGES } = await accounts();
  try {
    const body = await callApi(confirmEmailVerification, { body: { token } });
    if (body.status === 'verified' && getSession().loggedIn) await reloadUser();
    return { status: body.status, message: EMAIL_VERIFICATION_MESSAGES[body.status] };
  } catch (error) {
    return { status: 'invalid', ...failureResult(error) };
  }
}

async function resend(form: FormData): Promise<Result> {
  const { RESEND_EMAIL_ANSWER, resendEmailVerification, ResendEmailVerificationBodySchema } =
    await accounts();
  const email = text(form, 'email');
  const parsed = ResendEmailVerificationBodySchema.safeParse(getSession().loggedIn ? {} : { email });
  if (!parsed.success || (!getSession().loggedIn && !email)) {
    return {
      status: 'expired',
      errors: parsed.success
        ? { email: 'Inserisci l’indirizzo e-mail.' }
        : issuesToErrors(parsed.error.issues),
    };
  }
  try {
    await callApi(resendEmailVerification, { body: parsed.data });
    return { resent: true, message: RESEND_EMAIL_ANSWER };
  } catch (error) {
    return { status: 'expired', ...failureResult(error) };
  }
}

export async function action({ request }: ActionFunctionArgs): Promise<Result> {
  const form = await request.formData();
  return text(form, 'intent') === 'resend' ? resend(form) : confirm(text(form, 'token'));
}

function ResendForm({ errors }: { errors?: FormResult['errors'] }) {
  const { loggedIn } = useSession();
  return (
    <Form method="post" action={PATH} noValidate className="mt-4">
      <input type="hidden" name="intent" value="resend" />
      {!loggedIn && (
        <TextField
          type="email"
          id="email"
          name="email"
          label="Indirizzo e-mail"
          autoComplete="email"
          required
          error={errors?.email}
        />
      )}
      <SubmitButton idle="Invia un nuovo collegamento" busy="Invio in corso…" />
    </Form>
  );
}

export function Component() {
  const token = useUrlToken();
  const result = useActionData<Result>();
  const { invalid } = useLoaderData<{ invalid?: string }>() ?? {};
  const submit = useSubmit();
  const { loggedIn } = useSession();
  const sent = useRef(false);
  const page = getPage('email-verified');

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    void submit({ intent: 'confirm', token }, { method: 'post', action: PATH, replace: true });
  }, [token, submit]);

  const pending = !!token && !result;
  const ok = result?.status === 'verified' || result?.status === 'already_verified';
  const failed = !pending && !ok && !result?.resent;
  return (
    <NarrowPage title={page.title} description={page.description}>
      {pending && <p role="status">Verifica dell’indirizzo in corso…</p>}
      {ok && (
        <>
          <FormMessage tone="success" message={result.message} />
          <Link to={loggedIn ? '/auth/completa-registrazione' : '/auth/login'} className="btn btn-primary">
            {loggedIn ? 'Continua' : 'Accedi al portale'}
          </Link>
        </>
      )}
      {result?.resent && <FormMessage tone="success" message={result.message} />}
      {failed && (
        <>
          <FormMessage message={result?.message ?? (token ? undefined : invalid)} />
          <ResendForm errors={result?.errors} />
        </>
      )}
    </NarrowPage>
  );
}
