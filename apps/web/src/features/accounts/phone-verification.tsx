import { Form } from 'react-router';
import { TextField } from '../../components/form/text-field.tsx';
import { SmsCodeForm } from '../../components/sms-code-form.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import type { CompleteActionData } from './complete-registration-actions.ts';

/** Phone step of the completion: number → SMS code → confirm (resend after the server's delay). */
export function PhoneVerification({
  result,
  phone,
}: {
  result?: CompleteActionData | undefined;
  phone: string | null;
}) {
  const step = result?.phone;
  const isPhone = result?.intent.startsWith('phone-');
  return (
    <section aria-labelledby="cellulare" className="mb-5">
      <h2 id="cellulare" className="h4">
        Numero di cellulare
      </h2>
      {step ? (
        <SmsCodeForm step={step} error={isPhone ? result?.errors?.code : undefined} />
      ) : (
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="phone-start" />
          <TextField
            type="tel"
            id="phone"
            name="phone"
            label="Numero di cellulare"
            autoComplete="tel"
            defaultValue={phone ?? ''}
            required
            error={isPhone ? result?.errors?.phone : undefined}
          />
          <SubmitButton idle="Invia il codice via SMS" busy="Invio in corso…" />
        </Form>
      )}
    </section>
  );
}
