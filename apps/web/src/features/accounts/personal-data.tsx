import { useState } from 'react';
import { Button } from 'design-react-kit';
import { Form } from 'react-router';
import { exportAccount } from '@portale/shared/accounts';
import { romeDateStamp } from '@portale/shared/bookings';
import { FormMessage } from '../../components/form/form-message.tsx';
import { TextAreaField } from '../../components/form/text-area-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import type { FormResult } from '../../lib/form-data.ts';
import { callApi } from '../../lib/api-client.ts';

/** The export's file name, with today's date in Rome (not UTC: just after midnight it is already tomorrow there). */
export function personalDataFileName(now: Date = new Date()): string {
  return `i-miei-dati-${romeDateStamp(now)}.json`;
}

/** Saves the export as a JSON file named with today's date. */
function saveJson(data: unknown) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = personalDataFileName();
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

function ExportButton() {
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const download = async () => {
    setState({ busy: true });
    try {
      saveJson(await callApi(exportAccount, {}));
      setState({ busy: false });
    } catch (error) {
      setState({ busy: false, error: error instanceof Error ? error.message : 'Scaricamento non riuscito.' });
    }
  };
  return (
    <>
      <FormMessage message={state.error} />
      {/* Marked busy, not disabled: a disabled button loses the focus to the top of the page (issue 34). */}
      <Button
        color="primary"
        outline
        type="button"
        aria-disabled={state.busy || undefined}
        onClick={() => void (state.busy ? undefined : download())}
      >
        {state.busy ? 'Preparazione del file…' : 'Scarica i miei dati (JSON)'}
      </Button>
    </>
  );
}

/** Download of the user's data and the deletion request (recorded; staff complete it). */
export function PersonalData({ result }: { result?: FormResult | undefined }) {
  const reasonError = result?.errors?.reason;
  return (
    <section aria-labelledby="dati-personali" className="mb-5">
      <h2 id="dati-personali" className="h4">
        I tuoi dati personali
      </h2>
      <p>Puoi scaricare una copia di tutti i dati che il portale conserva su di te.</p>
      <ExportButton />
      <h3 className="h5 mt-5">Cancellazione dell’account</h3>
      {result?.ok ? (
        <FormMessage tone="success" message={result.message} />
      ) : (
        <>
          <p>
            Se chiedi la cancellazione, lo staff la completerà entro 30 giorni e te ne darà conferma via
            e-mail.
          </p>
          <FormMessage message={result?.message} />
          <Form method="post" noValidate>
            <input type="hidden" name="intent" value="deletion-request" />
            <TextAreaField
              id="reason"
              name="reason"
              label="Motivo della richiesta (facoltativo)"
              fieldClassName="form-group"
              labelClassName="active"
              rows={3}
              maxLength={2000}
              error={reasonError}
            />
            <SubmitButton idle="Chiedi la cancellazione dell’account" busy="Invio in corso…" />
          </Form>
        </>
      )}
    </section>
  );
}
