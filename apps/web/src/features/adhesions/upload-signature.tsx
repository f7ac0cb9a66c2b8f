import { Form, Link } from 'react-router';
import { FileField } from '../../components/form/file-field.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { formatBytes } from '../../lib/format.ts';
import type { AdhesionActionData } from './adhesion-actions.ts';

/** Upload of the document signed with a qualified digital signature (PAdES .pdf, CAdES .p7m or detached .p7s). */
export function UploadSignature({
  maxBytes,
  blocker,
  result,
}: {
  maxBytes: number;
  blocker: string | null;
  result: AdhesionActionData | undefined;
}) {
  const error = result?.intent === 'upload' ? result.errors?.signedFile : undefined;
  return (
    <section aria-labelledby="firma-digitale" className="card card-bg mb-4">
      <div className="card-body">
        <h3 id="firma-digitale" className="h5">
          Carica il documento firmato digitalmente
        </h3>
        <p>
          Scarica il documento, firmalo con la tua firma digitale qualificata senza modificarlo e caricalo
          qui: in formato PAdES (file .pdf) o CAdES (file .p7m), al massimo {formatBytes(maxBytes)}. Se il tuo
          programma di firma produce una firma staccata (file .p7s), carica solo il file .p7s: il documento
          firmato è quello che hai scaricato da qui e il portale lo conserva già. Controlliamo che la firma
          sia valida e qualificata, che il documento sia esattamente quello generato per il tuo istituto e che
          il certificato sia intestato a te.
        </p>
        {blocker ? (
          <div className="alert alert-warning" role="status">
            {blocker} <Link to="/auth/completa-registrazione">Completa il tuo profilo</Link>.
          </div>
        ) : (
          <Form method="post" encType="multipart/form-data" noValidate>
            <input type="hidden" name="intent" value="upload" />
            <input type="hidden" name="maxBytes" value={maxBytes} />
            <FileField
              id="signedFile"
              name="signedFile"
              label="File firmato (.pdf, .p7m o .p7s)"
              labelClassName="form-label d-block fw-semibold"
              accept=".pdf,.p7m,.p7s,application/pdf,application/pkcs7-mime,application/pkcs7-signature"
              required
              error={error}
            />
            <SubmitButton idle="Carica e firma" busy="Verifica della firma…" className="mt-0" />
          </Form>
        )}
      </div>
    </section>
  );
}
