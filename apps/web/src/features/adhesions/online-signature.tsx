import { Button } from 'design-react-kit';
import { Form, Link, useActionData } from 'react-router';
import { TextField } from '../../components/form/text-field.tsx';
import { ResendCountdown, useAnswerKey, useSecondsLeft } from '../../components/sms-code-form.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import type { AdhesionActionData, ChallengeStep } from './adhesion-actions.ts';

function ChallengeFields({ step, documentSha256 }: { step: ChallengeStep; documentSha256: string }) {
  return (
    <>
      <input type="hidden" name="documentSha256" value={documentSha256} />
      <input type="hidden" name="challengeId" value={step.challengeId} />
      <input type="hidden" name="phoneMasked" value={step.phoneMasked} />
      <input type="hidden" name="resendAfterSeconds" value={step.resendAfterSeconds} />
      <input type="hidden" name="at" value={step.at} />
    </>
  );
}

function CodeStep({
  step,
  documentSha256,
  error,
}: {
  step: ChallengeStep;
  documentSha256: string;
  error: string | undefined;
}) {
  const seconds = useSecondsLeft(step);
  const errorKey = useAnswerKey(useActionData());
  return (
    <>
      <p role="status">
        Abbiamo inviato un codice di 6 cifre al numero {step.phoneMasked}. Il codice vale 10 minuti:
        inseriscilo per confermare la firma del documento che hai letto.
      </p>
      <Form method="post" noValidate>
        <input type="hidden" name="intent" value="sign" />
        <ChallengeFields step={step} documentSha256={documentSha256} />
        <TextField
          id="code"
          name="code"
          label="Codice ricevuto via SMS"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          autoFocus
          error={error}
          errorAlertKey={errorKey}
        />
        <SubmitButton idle="Conferma la firma" busy="Firma in corso…" className="me-2" />
      </Form>
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="send-code" />
        <input type="hidden" name="documentSha256" value={documentSha256} />
        <Button color="primary" outline type="submit" disabled={seconds > 0}>
          Invia un nuovo codice
        </Button>
        <ResendCountdown seconds={seconds} />
      </Form>
    </>
  );
}

/** Online signature: the principal asks a code by SMS, then confirms it; the signature records name, time, IP and SHA-256. */
export function OnlineSignature({
  documentSha256,
  phoneMasked,
  blocker,
  result,
}: {
  documentSha256: string;
  phoneMasked: string | null;
  blocker: string | null;
  result: AdhesionActionData | undefined;
}) {
  const step =
    result && (result.intent === 'send-code' || result.intent === 'sign') ? result.challenge : undefined;
  return (
    <section aria-labelledby="firma-online" className="card card-bg mb-4">
      <div className="card-body">
        <h3 id="firma-online" className="h5">
          Firma online
        </h3>
        <p>
          Confermi la firma con un codice che ricevi via SMS{phoneMasked ? ` al numero ${phoneMasked}` : ''}.
          Registriamo il tuo nome, la data e l’ora, l’indirizzo IP e l’impronta SHA-256 del documento firmato.
        </p>
        {blocker ? (
          <div className="alert alert-warning" role="status">
            {blocker} <Link to="/auth/completa-registrazione">Completa il tuo profilo</Link>.
          </div>
        ) : step ? (
          <CodeStep step={step} documentSha256={documentSha256} error={result?.errors?.code} />
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="send-code" />
            <input type="hidden" name="documentSha256" value={documentSha256} />
            <SubmitButton idle="Invia il codice via SMS" busy="Invio del codice…" className="mt-0" />
          </Form>
        )}
      </div>
    </section>
  );
}
