import { Form } from 'react-router';
import { TextField } from '../../components/form/text-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import type { FormResult } from '../../lib/form-data.ts';

export const EMAIL_CHANGE_INTENT = 'email-change';

/** A change of one's own e-mail (decision 041): confirmed by a link to the new address; the old one is told. */
export function EmailChange({ email, result }: { email: string; result?: FormResult | undefined }) {
  return (
    <section aria-labelledby="indirizzo-email" className="mb-5" data-testid="email-change">
      <h2 id="indirizzo-email" className="h4">
        Indirizzo e-mail
      </h2>
      <p>
        Il tuo indirizzo è <strong>{email}</strong>. Per cambiarlo scrivi il nuovo indirizzo e la password: ti
        inviamo un collegamento al nuovo indirizzo e il cambio vale quando lo apri; al vecchio indirizzo
        arriva un avviso.
      </p>
      <FormMessage tone={result?.ok ? 'success' : 'danger'} message={result?.message} />
      {!result?.ok && (
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value={EMAIL_CHANGE_INTENT} />
          <TextField
            id="new-email"
            name="email"
            type="email"
            label="Nuovo indirizzo e-mail"
            autoComplete="email"
            error={result?.errors?.email}
          />
          <TextField
            id="email-change-password"
            name="current_password"
            type="password"
            label="Password attuale"
            autoComplete="current-password"
            error={result?.errors?.current_password}
          />
          <SubmitButton idle="Cambia l’indirizzo e-mail" busy="Invio…" />
        </Form>
      )}
    </section>
  );
}
