import { useState } from 'react';
import { Button } from 'design-react-kit';
import { Form, Link, useActionData, useLoaderData } from 'react-router';
import {
  downloadCurrentAdhesionDocument,
  SIGNATURE_METHOD_LABELS,
  type AdhesionSignature,
  type CurrentAdhesion,
} from '@portale/shared/adhesions';
import { IDENTITY_PROVIDER_SHORT_LABELS } from '@portale/shared/identity';
import { SCHOOL_LEVEL_LABELS } from '@portale/shared/registry';
import { AdhesionBadge } from '../../components/adhesion-badge.tsx';
import { ChoiceField } from '../../components/form/choice-field.tsx';
import { FormMessage } from '../../components/form/form-message.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { FlaggedFields } from '../../components/flagged-fields.tsx';
import { ApiError, downloadFile } from '../../lib/api-client.ts';
import { formatBytes, formatDate, formatDateTime } from '../../lib/format.ts';
import type { AdhesionActionData } from './adhesion-actions.ts';
import { OnlineSignature } from './online-signature.tsx';
import { UploadSignature } from './upload-signature.tsx';

export { action, loader } from './adhesion-actions.ts';

const ADHESION_PATH = '/iscrizioni/adesione-formale';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="col-sm-4">{label}</dt>
      <dd className="col-sm-8">{children}</dd>
    </>
  );
}

const missing = (what: string) => <span className="text-muted">{what}</span>;

function InstituteData({ adhesion }: { adhesion: CurrentAdhesion }) {
  const i = adhesion.institute;
  const person = (p: CurrentAdhesion['institute']['principal']) =>
    p ? `${p.firstName} ${p.lastName}` : null;
  return (
    <section aria-labelledby="dati-documento" className="mb-5">
      <h2 id="dati-documento" className="h4">
        I dati dell’istituto nel documento
      </h2>
      <dl className="row">
        <Fact label="Denominazione">{i.name}</Fact>
        <Fact label="Codice meccanografico">{i.ministryCode}</Fact>
        <Fact label="Indirizzo">
          {i.address ? [i.address, i.postalCode].filter(Boolean).join(' – ') : missing('non indicato')}
        </Fact>
        <Fact label="Comune">
          {i.municipalityName} ({i.province}), {i.region}
        </Fact>
        <Fact label="PEC">{i.certifiedEmail ?? missing('non indicata')}</Fact>
        <Fact label="Dirigente scolastico">
          {person(i.principal) ?? missing('non indicato')}
          {i.principal && <> – codice fiscale {i.principal.taxCode ?? missing('non indicato')}</>}
          {i.principal?.taxCode && <VerifiedIdentity person={i.principal} />}
        </Fact>
        <Fact label="Referente d’istituto">{person(i.firstContact) ?? missing('non ancora indicato')}</Fact>
        <Fact label="Plessi partecipanti">
          {i.schoolSites.length === 0 ? (
            missing('nessun plesso indicato')
          ) : (
            <ul className="mb-0 ps-3">
              {i.schoolSites.map((s) => (
                <li key={s.id}>
                  {s.name} ({s.ministryCode}), {SCHOOL_LEVEL_LABELS[s.schoolLevel]}, {s.municipalityName}
                </li>
              ))}
            </ul>
          )}
        </Fact>
      </dl>
      <p className="small">
        Se un dato non è corretto, <Link to="/contatti">scrivi al gruppo di lavoro</Link> prima di firmare: il
        documento viene aggiornato con i dati corretti.
      </p>
    </section>
  );
}

function DownloadButton({ fileName, instituteId }: { fileName: string; instituteId: number }) {
  const [state, setState] = useState<{ busy: boolean; message: string }>({ busy: false, message: '' });
  const run = async () => {
    setState({ busy: true, message: '' });
    try {
      await downloadFile(downloadCurrentAdhesionDocument, { query: { istituto: instituteId } }, undefined, {
        fallbackName: fileName,
      });
      setState({ busy: false, message: 'Documento scaricato.' });
    } catch (error) {
      setState({
        busy: false,
        message: error instanceof ApiError ? error.message : 'Scaricamento non riuscito. Riprova più tardi.',
      });
    }
  };
  return (
    <>
      <Button color="primary" onClick={() => void run()} disabled={state.busy} className="me-2 mb-2">
        {state.busy ? 'Scaricamento…' : 'Scarica il documento (PDF)'}
      </Button>
      <span className="small" aria-live="polite">
        {state.message}
      </span>
    </>
  );
}

function DocumentSection({
  adhesion,
  result,
}: {
  adhesion: CurrentAdhesion;
  result: AdhesionActionData | undefined;
}) {
  const doc = adhesion.document;
  return (
    <section aria-labelledby="documento" className="mb-5">
      <h2 id="documento" className="h4">
        Il documento di adesione
      </h2>
      {result?.intent === 'prepare' && (
        <FormMessage message={result.message} tone={result.ok ? 'success' : 'danger'} />
      )}
      {doc ? (
        <>
          <dl className="row">
            <Fact label="Versione">{doc.version}</Fact>
            <Fact label="Generato il">{formatDateTime(doc.createdAt)}</Fact>
            <Fact label="Dimensione">{formatBytes(doc.sizeBytes)}</Fact>
            <Fact label="Impronta SHA-256">
              <code className="text-break" data-testid="document-sha256">
                {doc.sha256}
              </code>
            </Fact>
          </dl>
          <DownloadButton
            fileName={`adesione-${adhesion.institute.ministryCode}-v${doc.version}.pdf`}
            instituteId={adhesion.institute.id}
          />
        </>
      ) : (
        <p>Il documento non è ancora stato preparato.</p>
      )}
      {adhesion.canPrepare && (
        <Form method="post" className="mt-2">
          <input type="hidden" name="intent" value="prepare" />
          <SubmitButton
            idle={doc ? 'Rigenera il documento con i dati attuali' : 'Prepara il documento'}
            busy="Preparazione…"
            className="mt-0"
          />
          <p className="small mt-1 mb-0">
            Il documento si aggiorna da solo quando cambiano i dati dell’istituto; lo stesso contenuto dà
            sempre lo stesso documento.
          </p>
        </Form>
      )}
      {adhesion.viewerRole === 'first-contact' && adhesion.canPrepare && (
        <div className="alert alert-info mt-3" role="note">
          Solo il dirigente scolastico può firmare il documento di adesione: rileggilo e segnala al dirigente
          che è pronto.
        </div>
      )}
    </section>
  );
}

function SignatureFacts({ signature }: { signature: AdhesionSignature }) {
  return (
    <dl className="row mb-0">
      <Fact label="Modalità">{SIGNATURE_METHOD_LABELS[signature.method]}</Fact>
      <Fact label="Firmato da">
        {signature.signerName}
        {signature.signerTaxCode ? ` (${signature.signerTaxCode})` : ''}
      </Fact>
      <Fact label="Data e ora">{formatDateTime(signature.signedAt)}</Fact>
      <Fact label="Documento firmato">
        versione {signature.documentVersion}, impronta SHA-256{' '}
        <code className="text-break">{signature.documentSha256}</code>
      </Fact>
      {signature.signedFileName && <Fact label="File caricato">{signature.signedFileName}</Fact>}
    </dl>
  );
}

function SignedNotice({ signature }: { signature: AdhesionSignature }) {
  return (
    <div className="alert alert-success mb-5" role="status" data-testid="signed-notice">
      <h2 className="h4">Adesione firmata</h2>
      <p>
        Grazie: l’adesione è firmata ed è ora in revisione da parte dello staff. Riceverai un’e-mail con
        l’esito.
      </p>
      <SignatureFacts signature={signature} />
      <p className="mt-3 mb-0">
        <Link to="/portale" className="btn btn-primary">
          Vai al portale
        </Link>
      </p>
    </div>
  );
}

/** `/iscrizioni/adesione-formale`: the institute's adhesion document, its state, and the principal's signature. */
/** A principal or first contact of several institutes chooses which one this page is about (issue 35, item 1). */
function InstituteChooser({ adhesion }: { adhesion: CurrentAdhesion }) {
  if (adhesion.institutes.length < 2) return null;
  return (
    <nav aria-labelledby="i-tuoi-istituti" className="mb-4" data-testid="institute-chooser">
      <h2 id="i-tuoi-istituti" className="h5">
        I tuoi istituti
      </h2>
      <ul className="list-unstyled mb-0">
        {adhesion.institutes.map((i) => (
          <li key={i.id} className="mb-1">
            {i.id === adhesion.institute.id ? (
              <strong aria-current="page">
                {i.name} ({i.ministryCode})
              </strong>
            ) : (
              <Link to={`?istituto=${i.id}`}>
                {i.name} ({i.ministryCode})
              </Link>
            )}{' '}
            · {i.viewerRole === 'principal' ? 'dirigente' : 'referente'} ·{' '}
            <AdhesionBadge state={i.adhesionState} />
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Sent back for corrections: the participating plessi can be corrected; the document becomes a new version. */
function CorrectionForm({
  sites,
  result,
}: {
  sites: NonNullable<CurrentAdhesion['correctableSchoolSites']>;
  result: AdhesionActionData | undefined;
}) {
  const error = result?.errors?.schoolSiteIds;
  return (
    <section aria-labelledby="correggi-dati" className="mb-5" data-testid="adhesion-correction">
      <h2 id="correggi-dati" className="h4">
        Correggi i dati dell’adesione
      </h2>
      <FormMessage message={result?.message} tone={result?.ok ? 'success' : 'danger'} />
      <Form method="post">
        <input type="hidden" name="intent" value="correct" />
        <ChoiceField
          id="correggi-plessi"
          name="schoolSiteIds"
          type="checkbox"
          legend="Plessi che partecipano al programma"
          legendClassName="h6"
          className=""
          options={sites.map((s) => ({
            value: String(s.id),
            label: `${s.name} (${s.ministryCode}), ${s.municipalityName}`,
          }))}
          optionId={(value) => `correct-site-${value}`}
          defaultValue={sites.filter((s) => s.participating).map((s) => String(s.id))}
          error={error}
        />
        <p className="small mt-2">
          Salvando, il documento di adesione viene aggiornato con i dati corretti (una nuova versione) e il
          dirigente scolastico lo firma di nuovo.
        </p>
        <Button color="primary" type="submit">
          Salva le correzioni
        </Button>
      </Form>
    </section>
  );
}

export function Component() {
  const adhesion = useLoaderData<CurrentAdhesion>();
  const result = useActionData<AdhesionActionData>();
  const justSigned = result?.ok && result.signature ? result.signature : null;
  const { institute, nextStep } = adhesion;
  const showSigning = adhesion.canSign && adhesion.document && !justSigned;
  return (
    <div className="container my-5">
      <PageHeader
        title="Adesione formale"
        description={`Il documento con cui ${institute.name} (${institute.ministryCode}) aderisce al programma, firmato dal dirigente scolastico.`}
      />
      {justSigned && <SignedNotice signature={justSigned} />}
      <InstituteChooser adhesion={adhesion} />
      <section aria-labelledby="stato" className="mb-5">
        <h2 id="stato" className="h4">
          Stato dell’adesione
        </h2>
        <p>
          <AdhesionBadge state={institute.adhesionState} />
          {institute.adhesionStateChangedAt && (
            <span className="ms-2 small">dal {formatDate(institute.adhesionStateChangedAt)}</span>
          )}
        </p>
        <p data-testid="next-step">
          <strong>Prossimo passo:</strong> {nextStep.message}{' '}
          {nextStep.link && nextStep.link.to !== ADHESION_PATH && (
            <Link to={nextStep.link.to}>{nextStep.link.label}</Link>
          )}
        </p>
        {adhesion.reviewNote && (
          <div className="alert alert-warning" role="note" aria-labelledby="nota-revisione">
            <h3 id="nota-revisione" className="h5">
              Correzioni richieste dallo staff il {formatDate(adhesion.reviewNote.decidedAt)}
            </h3>
            <p className="mb-0" style={{ whiteSpace: 'pre-line' }}>
              {adhesion.reviewNote.note}
            </p>
            <FlaggedFields fields={adhesion.reviewNote.fields} />
          </div>
        )}
        {!adhesion.canPrepare && institute.adhesionState !== 'nessuna' && !justSigned && (
          <p>
            <Link to="/portale">Vai al portale</Link>
          </p>
        )}
      </section>
      {adhesion.correctableSchoolSites && (
        <CorrectionForm
          sites={adhesion.correctableSchoolSites}
          result={result?.intent === 'correct' ? result : undefined}
        />
      )}
      <InstituteData adhesion={adhesion} />
      <DocumentSection adhesion={adhesion} result={result} />
      {showSigning && (
        <section aria-labelledby="firma" className="mb-5">
          <h2 id="firma" className="h4">
            Firma il documento
          </h2>
          <p>
            Firmi il documento che hai appena letto (impronta SHA-256 qui sopra). Scegli uno dei due modi.
          </p>
          {result && !result.ok && result.message && !result.errors?.code && !result.errors?.signedFile && (
            <FormMessage message={result.message} />
          )}
          <OnlineSignature
            documentSha256={adhesion.document!.sha256}
            phoneMasked={adhesion.phoneMasked}
            blocker={adhesion.signBlockers.online}
            result={result}
          />
          <UploadSignature
            maxBytes={adhesion.signedUploadMaxBytes}
            blocker={adhesion.signBlockers.upload}
            result={result}
          />
        </section>
      )}
      {adhesion.lastSignature && !justSigned && (
        <section aria-labelledby="ultima-firma" className="mb-5">
          <h2 id="ultima-firma" className="h4">
            Ultima firma
          </h2>
          <SignatureFacts signature={adhesion.lastSignature} />
        </section>
      )}
    </div>
  );
}

/**
 * Whether the principal's codice fiscale was proved with CIE/SPID (decision 048): an uploaded
 * signature's certificate is checked against it, so a verified one means the signer is the person.
 */
function VerifiedIdentity({ person }: { person: NonNullable<CurrentAdhesion['institute']['principal']> }) {
  return (
    <span className="d-block small" data-testid="principal-identity">
      {person.taxCodeVerifiedBy && person.taxCodeVerifiedAt
        ? `Identità verificata con ${IDENTITY_PROVIDER_SHORT_LABELS[person.taxCodeVerifiedBy]} il ${formatDate(person.taxCodeVerifiedAt)}: la firma digitale caricata deve essere di questo codice fiscale.`
        : 'Codice fiscale indicato dalla persona, non verificato con SPID o CIE: la firma digitale caricata deve essere di questo codice fiscale.'}
    </span>
  );
}
