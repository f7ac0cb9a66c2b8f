import { useEffect, useState } from 'react';
import { Button } from 'design-react-kit';
import { Form, useActionData } from 'react-router';
import { TextField } from './form/text-field.tsx';
import { SubmitButton } from './submit-button.tsx';

/** A phone verification in progress, carried in hidden fields from one action to the next. */
export interface PhoneStep {
  verificationId: string;
  phoneMasked: string;
  resendAfterSeconds: number;
  /** When the step was answered (ms), to count down the resend delay. */
  at: number;
}

/** The step read back from the hidden fields of SmsCodeForm. */
export function phoneStepFrom(form: FormData): PhoneStep {
  const value = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : '';
  };
  return {
    verificationId: value('verificationId'),
    phoneMasked: value('phoneMasked'),
    resendAfterSeconds: Number(value('resendAfterSeconds')) || 60,
    at: Number(value('at')) || Date.now(),
  };
}

/** Seconds before a new code may be asked (counted from when the step was answered). */
export function useSecondsLeft(step: { at: number; resendAfterSeconds: number }): number {
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

/**
 * The resend delay: the countdown is shown but not in a live region (a screen reader would read it
 * every second for a minute, issue 34); a status region says once, when the delay is over, that a new
 * code can be asked.
 */
export function ResendCountdown({ seconds }: { seconds: number }) {
  // Whether this step counted down at all: a step opened after its delay has nothing to announce.
  const [counted] = useState(seconds > 0);
  return (
    <>
      <p className="small mt-1 mb-0" data-testid="resend-countdown">
        {seconds > 0
          ? `Potrai chiedere un nuovo codice tra ${seconds} secondi.`
          : 'Non hai ricevuto il codice? Puoi chiederne uno nuovo.'}
      </p>
      <p className="visually-hidden" role="status" data-testid="resend-status">
        {counted && seconds === 0 ? 'Puoi chiedere un nuovo codice.' : ''}
      </p>
    </>
  );
}

/**
 * Keys the error of a code field by the action's answer, so that the same error after a second wrong
 * code is a new alert, read again.
 */
export function useAnswerKey(answer: unknown): number {
  const [state, setState] = useState({ answer, key: 0 });
  if (state.answer === answer) return state.key;
  const next = { answer, key: state.key + 1 };
  setState(next);
  return next.key;
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

/**
 * The SMS code step of a phone verification: the code form (intent `phone-confirm`) and the resend
 * form (intent `phone-resend`, enabled after the server's delay), both posting to the route action.
 */
export function SmsCodeForm({ step, error }: { step: PhoneStep; error?: string | undefined }) {
  const seconds = useSecondsLeft(step);
  const errorKey = useAnswerKey(useActionData());
  return (
    <>
      <p>Abbiamo inviato un codice di 6 cifre al numero {step.phoneMasked}. Il codice vale 10 minuti.</p>
      <Form method="post" noValidate>
        <input type="hidden" name="intent" value="phone-confirm" />
        <StepFields step={step} />
        <TextField
          id="code"
          name="code"
          label="Codice ricevuto via SMS"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          error={error}
          errorAlertKey={errorKey}
        />
        <SubmitButton idle="Verifica il numero" busy="Verifica in corso…" className="me-2" />
      </Form>
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="phone-resend" />
        <StepFields step={step} />
        <Button color="primary" outline type="submit" disabled={seconds > 0}>
          Invia un nuovo codice
        </Button>
        <ResendCountdown seconds={seconds} />
      </Form>
    </>
  );
}
