import { Form, Link, useActionData, type ActionFunctionArgs } from 'react-router';
import { getPage } from '@portale/shared/pages';
import { FormMessage } from '../../components/form/form-message.tsx';
import { NarrowPage } from '../../components/narrow-page.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { orFailure, issuesToErrors, text, type FormResult } from '../../lib/form-data.ts';
import { callApi } from '../../lib/api-client.ts';
import { NewPasswordFields } from '../../components/password-fields.tsx';
import { useUrlToken } from './use-url-token.ts';

const PATH = '/auth/reset-password';
const DONE =
  'La password è stata aggiornata e tutte le sessioni aperte sono state chiuse. Ora puoi accedere con la nuova password.';

/** Prerendered as its heading and a loading line in the narrow column until the app takes over (components/page-shell.tsx). */
export const prerenderShell = 'narrow';

export async function action({ request }: ActionFunctionArgs): Promise<FormResult> {
  const form = await request.formData();
  // The policy's dictionaries load at submit if the password field has not loaded them yet.
  const { ResetPasswordBodySchema, resetPassword } = await import('@portale/shared/accounts/password');
  const parsed = ResetPasswordBodySchema.safeParse({
    token: text(form, 'token'),
    password: text(form, 'password'),
    password_confirmation: text(form, 'password_confirmation'),
  });
  if (!parsed.success) {
    const errors = issuesToErrors(parsed.error.issues);
    return { message: errors.token ?? 'Controlla i campi evidenziati.', errors };
  }
  return orFailure(async () => {
    await callApi(resetPassword, { body: parsed.data });
    return { ok: true, message: DONE };
  });
}

export function Component() {
  const token = useUrlToken();
  const result = useActionData<FormResult>();
  const page = getPage('auth.reset-password');
  return (
    <NarrowPage title={page.title} description={page.description}>
      {result?.ok ? (
        <>
          <FormMessage tone="success" message={result.message} />
          <Link to="/auth/login" className="btn btn-primary">
            Vai all’accesso
          </Link>
        </>
      ) : !token ? (
        <>
          <FormMessage message="Il collegamento non è valido: apri quello ricevuto per e-mail o chiedine uno nuovo." />
          <Link to="/auth/forgot-password">Chiedi un nuovo collegamento</Link>
        </>
      ) : (
        <>
          <FormMessage message={result?.message} />
          {result?.message && (
            <p>
              <Link to="/auth/forgot-password">Chiedi un nuovo collegamento</Link>
            </p>
          )}
          <Form method="post" action={PATH} noValidate className="mt-4">
            <input type="hidden" name="token" value={token} />
            <NewPasswordFields errors={result?.errors} />
            <SubmitButton idle="Imposta la nuova password" busy="Salvataggio in corso…" />
          </Form>
        </>
      )}
    </NarrowPage>
  );
}
