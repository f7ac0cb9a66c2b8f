import { useEffect, useState } from 'react';
import { Button } from 'design-react-kit';
import { Form } from 'react-router';
import { FormField } from '../../components/form-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import type { CompleteActionData, PhoneStep } from './complete-registration-actions.ts';

function useSecondsLeft(step: PhoneStep): number {
  const left = () => Math.max(0, Math.ceil((step.at + step.resendAfterSeconds * 1000 - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    const timer = setInterval(() => setSeconds(left()), 1000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step.at, step.resendAfterSeconds]);
  return seconds;
}

function StepFields({ step }: { step: PhoneStep }) {
  return (
    <>
      <input type="hidden" name="verificationId" value={step.verificationId} />
      <input type="hidden" name="phoneMasked" value={step.phoneMasked} />
      <input type="hidden" name="resendAfterSeconds" value={step.resendAfterSeconds} />
      <input type="hidden" name="at" value={step.at} />
    </>
  );
}

function CodeForm({ step, error }: { step: PhoneStep; error?: string | undefined }) {
  const seconds = useSecondsLeft(step);
  return (
    <>
      <p>Abbiamo inviato un codice di 6 cifre al numero {step.phoneMasked}. Il codice vale 10 minuti.</p>
      <Form method="post" noValidate>
        <input type="hidden" name="intent" value="phone-confirm" />
        <StepFields step={step} />
        <FormField id="code" name="code" label="Codice ricevuto via SMS" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required error={error} />
        <SubmitButton idle="Verifica il numero" busy="Verifica in corso…" className="me-2" />
      </Form>
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="phone-resend" />
        <StepFields step={step} />
        <Button color="primary" outline type="submit" disabled={seconds > 0}>
          Invia un nuovo codice
        </Button>
        <p className="small mt-1" aria-live="polite">
          {seconds > 0 ? `Potrai chiedere un nuovo codice tra ${seconds} secondi.` : 'Non hai ricevuto il codice? Puoi chiederne uno nuovo.'}
        </p>
      </Form>
    </>
  );
}

/** Phone step of the completion: number → SMS code → confirm (resend after the server's delay). */
export function PhoneVerification({ result, phone }: { result?: CompleteActionData | undefined; phone: string | null }) {
  const step = result?.phone;
  const isPhone = result?.intent.startsWith('phone-');
  return (
    <section aria-labelledby="cellulare" className="mb-5">
      <h2 id="cellulare" className="h4">
        Numero di cellulare
      </h2>
      {step ? (
        <CodeForm step={step} error={isPhone ? result?.errors?.code : undefined} />
      ) : (
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="phone-start" />
          <FormField
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
