import { useEffect } from 'react';
import { Form, Link, useActionData, type ActionFunctionArgs } from 'react-router';
import { getPage } from '@portale/shared/pages';
import { TextField } from '../../components/form/text-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { NarrowPage } from '../../components/narrow-page.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { orFailure, issuesToErrors, text, type FormResult } from '../../lib/form-data.ts';
import { callApi } from '../../lib/api-client.ts';

/** The same confirmation whatever the address (no account enumeration). */
export async function action({ request }: ActionFunctionArgs): Promise<FormResult> {
  const form = await request.formData();
  // The account contracts (with the phone-number metadata) are not needed to show the page: they
  // load after its first render (below) and are awaited here.
  const { FORGOT_PASSWORD_ANSWER, ForgotPasswordBodySchema, forgotPassword } =
    await import('@portale/shared/accounts');
  const parsed = ForgotPasswordBodySchema.safeParse({ email: text(form, 'email') });
  if (!parsed.success) return { errors: issuesToErrors(parsed.error.issues) };
  return orFailure(async () => {
    await callApi(forgotPassword, { body: parsed.data });
    return { ok: true, message: FORGOT_PASSWORD_ANSWER };
  });
}

export function Component() {
  const result = useActionData<FormResult>();
  const page = getPage('auth.forgot-password');
  useEffect(() => {
    void import('@portale/shared/accounts');
  }, []);
  return (
    <NarrowPage title={page.title} description={page.description}>
      {result?.ok ? (
        <>
          <FormMessage tone="success" message={result.message} />
          <Link to="/auth/login">Torna all’accesso</Link>
        </>
      ) : (
        <>
          <FormMessage message={result?.message} />
          <Form method="post" noValidate className="mt-4">
            <TextField
              type="email"
              id="email"
              name="email"
              label="Indirizzo e-mail"
              autoComplete="email"
              required
              error={result?.errors?.email}
            />
            <SubmitButton idle="Invia il collegamento" busy="Invio in corso…" />
          </Form>
          <p className="mt-4">
            <Link to="/auth/login">Torna all’accesso</Link>
          </p>
        </>
      )}
    </NarrowPage>
  );
}
