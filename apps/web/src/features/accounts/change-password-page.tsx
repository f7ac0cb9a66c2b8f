import { Form, redirect, useActionData, type ActionFunctionArgs } from 'react-router';
import { getPage, REDIRECTS } from '@portale/shared/pages';
import { TextField } from '../../components/form/text-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { NarrowPage } from '../../components/narrow-page.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { orFailure, issuesToErrors, text, type FormResult } from '../../lib/form-data.ts';
import { callApi } from '../../lib/api-client.ts';
import { getSession, reloadUser } from '../../lib/session.ts';
import { NewPasswordFields } from '../../components/password-fields.tsx';

/** POST change-password; the server clears the flag, so the user is refetched before going on. */
export async function action({ request }: ActionFunctionArgs): Promise<FormResult | Response> {
  const form = await request.formData();
  // The policy's dictionaries load at submit if the password field has not loaded them yet.
  const { ChangePasswordBodySchema, changePassword } = await import('@portale/shared/accounts/password');
  const parsed = ChangePasswordBodySchema.safeParse({
    current_password: text(form, 'current_password'),
    password: text(form, 'password'),
    password_confirmation: text(form, 'password_confirmation'),
  });
  if (!parsed.success)
    return { message: 'Controlla i campi evidenziati.', errors: issuesToErrors(parsed.error.issues) };
  return orFailure(async () => {
    await callApi(changePassword, { body: parsed.data });
    await reloadUser();
    return redirect(REDIRECTS.home);
  });
}

export function Component() {
  const result = useActionData<FormResult>();
  const page = getPage('auth.change-password');
  const user = getSession().user;
  return (
    <NarrowPage title={page.title} description={page.description}>
      <FormMessage message={result?.message} />
      <Form method="post" noValidate className="mt-4">
        <TextField
          type="password"
          id="current_password"
          name="current_password"
          label="Password attuale"
          autoComplete="current-password"
          required
          error={result?.errors?.current_password}
        />
        <NewPasswordFields
          errors={result?.errors}
          {...(user
            ? { context: { email: user.email, firstName: user.firstName, lastName: user.lastName } }
            : {})}
        />
        <SubmitButton idle="Cambia la password" busy="Salvataggio in corso…" />
      </Form>
    </NarrowPage>
  );
}
