import { Form, useNavigation } from 'react-router';
import { Button } from 'design-react-kit';
import { TextField } from '../../components/form/text-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import type { FormResult } from '../../lib/form-data.ts';

/** The intent of the form among the account page's forms. */
export const TAX_CODE_INTENT = 'tax-code';

/**
 * The codice fiscale of the account (the adhesion signature is checked against it): changing one
 * already set asks for the current password (issue 32); the first one is set without.
 */
export function TaxCodeChange({
  taxCode,
  result,
}: {
  taxCode: string | null;
  result?: FormResult | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === TAX_CODE_INTENT;
  const error = (field: string) => result?.errors?.[field];
  return (
    <section aria-labelledby="codice-fiscale" className="mb-5">
      <h2 id="codice-fiscale" className="h4">
        Codice fiscale
      </h2>
      <p>
        {taxCode ? (
          <>
            Il codice fiscale del tuo account è <strong data-testid="tax-code">{taxCode}</strong>. Per
            cambiarlo inserisci anche la tua password attuale.
          </>
        ) : (
          'Il tuo account non ha ancora un codice fiscale.'
        )}
      </p>
      <FormMessage tone={result?.ok ? 'success' : 'danger'} message={result?.message} />
      <Form method="post" noValidate>
        <input type="hidden" name="intent" value={TAX_CODE_INTENT} />
        <TextField
          id="taxCode"
          name="taxCode"
          label={taxCode ? 'Nuovo codice fiscale' : 'Codice fiscale'}
          autoComplete="off"
          required
          error={error('taxCode')}
        />
        {taxCode && (
          <TextField
            id="current_password"
            name="current_password"
            type="password"
            label="Password attuale"
            autoComplete="current-password"
            required
            error={error('current_password')}
          />
        )}
        <Button type="submit" color="primary" disabled={busy}>
          {busy ? 'Salvataggio…' : 'Salva il codice fiscale'}
        </Button>
      </Form>
    </section>
  );
}
