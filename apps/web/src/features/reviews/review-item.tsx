import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  downloadInstituteAdhesionDocument,
  downloadInstituteSignedFile,
  downloadSignatureVerificationReport,
  SIGNATURE_FORMAT_LABELS,
  SIGNATURE_METHOD_LABELS,
} from '@portale/shared/adhesions';
import { IDENTITY_PROVIDER_SHORT_LABELS } from '@portale/shared/identity';
import { ADHESION_STATE_LABELS } from '@portale/shared/registry';
import {
  REVIEW_FIELD_LABELS,
  REVIEW_STATE_LABELS,
  type ReviewDetail,
  type ReviewHistoryEntry,
} from '@portale/shared/reviews';
import { href } from '@portale/shared/pages';
import { TEACHER_KIND_LABELS } from '@portale/shared/teachers';
import { Button } from 'design-react-kit';
import { downloadFile } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { REVIEW_STATE_BADGES } from './review-labels.ts';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="col-sm-4">{label}</dt>
      <dd className="col-sm-8">{children}</dd>
    </>
  );
}

const missing = (text = 'non indicato') => <span className="text-muted">{text}</span>;
const yesNo = (value: boolean) => (value ? 'sì' : <span className="text-muted">no</span>);

export function StateBadge({ state }: { state: ReviewDetail['state'] }) {
  return <span className={`badge ${REVIEW_STATE_BADGES[state]}`}>{REVIEW_STATE_LABELS[state]}</span>;
}

type TeacherContent = Extract<ReviewDetail['content'], { type: 'insegnanti' }>;
type AdhesionContent = Extract<ReviewDetail['content'], { type: 'adesioni' }>;
type VisitContent = Extract<ReviewDetail['content'], { type: 'visite' }>;

// The report's photos (issue 39, decision 055), loaded only when a visit is reviewed.
const VisitPhotos = lazy(() => import('../field-work/visit-photos.tsx'));

function VisitFacts({ content }: { content: VisitContent }) {
  const v = content.visit;
  const site = v.schoolSite;
  const conflictsHref = `${href('portal.detector-conflicts')}?q=${encodeURIComponent(site.ministryCode)}`;
  return (
    <div data-testid="review-visit">
      {v.openConflicts > 0 && (
        // A former holder's version waits for staff (decision 061): decide which one to keep first.
        <div className="alert alert-warning" data-testid="review-visit-conflicts">
          {v.openConflicts === 1
            ? 'Di questa visita è arrivato anche un altro resoconto, conservato come conflitto: '
            : `Di questa visita sono arrivati anche altri ${v.openConflicts} resoconti, conservati come conflitti: `}
          prima di decidere, confrontali in <Link to={conflictsHref}>Conflitti da risolvere</Link>.
        </div>
      )}
      <dl className="row">
        <Fact label="Plesso">
          {site.name} ({site.ministryCode})
        </Fact>
        <Fact label="Istituto">{site.instituteName}</Fact>
        <Fact label="Indirizzo">
          {site.address ?? missing()} · {site.municipalityName} ({site.province})
        </Fact>
        <Fact label="Rilevatore">
          {v.detector.firstName} {v.detector.lastName} ·{' '}
          <a href={`mailto:${v.detector.email}`}>{v.detector.email}</a>
        </Fact>
        <Fact label="Data della visita">{formatDateTime(v.scheduledAt)}</Fact>
        <Fact label="Resoconto inviato il">{v.reportedAt ? formatDateTime(v.reportedAt) : missing()}</Fact>
        <Fact label="Insegnanti incontrati">
          {v.teachersMet.length
            ? v.teachersMet.map((p) => `${p.firstName} ${p.lastName}`).join(', ')
            : missing('nessuno')}
        </Fact>
      </dl>
      <h3 className="h6">Resoconto</h3>
      <p style={{ whiteSpace: 'pre-line' }} data-testid="review-visit-report">
        {v.report ?? missing()}
      </p>
      <Suspense fallback={null}>
        <VisitPhotos visitId={v.id} />
      </Suspense>
    </div>
  );
}

function TeacherFacts({ content }: { content: TeacherContent }) {
  const t = content.teacher;
  const site = t.schoolSite;
  return (
    <dl className="row mb-0" data-testid="review-teacher">
      <Fact label="Nome e cognome">
        {t.firstName} {t.lastName}
      </Fact>
      <Fact label="Tipo">{TEACHER_KIND_LABELS[t.kind]}</Fact>
      <Fact label="E-mail">
        <a href={`mailto:${t.email}`}>{t.email}</a> (verificata: {yesNo(t.emailVerified)})
      </Fact>
      <Fact label="Cellulare">
        {t.phone ?? missing()} (verificato: {yesNo(t.phoneVerified)})
      </Fact>
      <Fact label="Codice fiscale">{t.taxCode ?? missing()}</Fact>
      <Fact label="Plesso">
        {site ? (
          <>
            {site.name} ({site.ministryCode}), {site.municipalityName} ({site.province})
            {site.instituteName && <span className="d-block small">Istituto: {site.instituteName}</span>}
          </>
        ) : (
          missing('non scelto')
        )}
      </Fact>
      <Fact label="Materie">{t.subjects.length ? t.subjects.join(', ') : missing('nessuna')}</Fact>
      <Fact label="Registrazione">{formatDateTime(t.registeredAt)}</Fact>
    </dl>
  );
}

/** Opens one of the adhesion's documents (served by the adhesions module; the browser saves it). */
function DownloadButton({
  label,
  kind,
  instituteId,
  signatureId,
}: {
  label: string;
  kind: 'document' | 'signedFile' | 'report';
  instituteId: number;
  signatureId?: number;
}) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const start = async () => {
    setState({ busy: true, error: null });
    try {
      if (kind === 'report')
        await downloadFile(downloadSignatureVerificationReport, {
          params: { instituteId, signatureId: signatureId! },
        });
      else
        await downloadFile(
          kind === 'document' ? downloadInstituteAdhesionDocument : downloadInstituteSignedFile,
          { params: { instituteId } },
        );
      setState({ busy: false, error: null });
    } catch (error) {
      setState({ busy: false, error: error instanceof Error ? error.message : 'Download non riuscito.' });
    }
  };
  return (
    <span className="d-inline-block me-2 mb-2">
      <Button
        type="button"
        color="primary"
        outline
        size="sm"
        onClick={() => void start()}
        disabled={state.busy}
      >
        {state.busy ? 'Download in corso…' : label}
      </Button>
      {state.error && (
        <span className="d-block text-danger small" role="alert">
          {state.error}
        </span>
      )}
    </span>
  );
}

function AdhesionFacts({ content }: { content: AdhesionContent }) {
  const i = content.institute;
  const s = content.signature;
  return (
    <div data-testid="review-adhesion">
      <dl className="row">
        <Fact label="Istituto">{i.name}</Fact>
        <Fact label="Codice meccanografico">{i.ministryCode}</Fact>
        <Fact label="Comune">
          {i.municipalityName} ({i.province}), {i.region}
        </Fact>
        <Fact label="Stato dell’adesione">{ADHESION_STATE_LABELS[i.adhesionState]}</Fact>
        <Fact label="Dirigente scolastico">{i.principal ?? missing()}</Fact>
        <Fact label="Referente d’istituto">{i.firstContact ?? missing()}</Fact>
      </dl>
      <h3 className="h6">Firma</h3>
      {s ? (
        <dl className="row">
          <Fact label="Modalità">{SIGNATURE_METHOD_LABELS[s.method]}</Fact>
          <Fact label="Firmatario">{s.signerName}</Fact>
          <Fact label="Codice fiscale">
            {s.signerTaxCode ?? missing()}
            {s.verification?.expectedSignerVerifiedBy && (
              <span className="d-block small">
                uguale a quello del dirigente verificato con{' '}
                {IDENTITY_PROVIDER_SHORT_LABELS[s.verification.expectedSignerVerifiedBy]}
              </span>
            )}
          </Fact>
          <Fact label="Firmato il">{formatDateTime(s.signedAt)}</Fact>
          <Fact label="Impronta SHA-256 del documento">
            <code className="text-break">{s.documentSha256}</code>
          </Fact>
          {s.signedFileName && <Fact label="File firmato">{s.signedFileName}</Fact>}
          {s.certificateSubject && <Fact label="Certificato">{s.certificateSubject}</Fact>}
          <SignatureVerification signature={s} />
        </dl>
      ) : (
        <p className="text-muted">
          Firma non disponibile: l’elemento è entrato in coda senza i dati della firma.
        </p>
      )}
      {content.versions.length > 0 && <SignatureVersions versions={content.versions} instituteId={i.id} />}
      <div>
        <DownloadButton label="Scarica il documento di adesione (PDF)" kind="document" instituteId={i.id} />
        {s && s.method !== 'online' && (
          <DownloadButton label="Scarica il file firmato" kind="signedFile" instituteId={i.id} />
        )}
      </div>
    </div>
  );
}

const TIME_SOURCES = {
  receipt: 'ricezione del file da parte del portale',
  timestamp: 'marca temporale qualificata',
} as const;
const REVOCATION_SOURCES = { ocsp: 'OCSP', crl: 'CRL' } as const;

/** What the portal verified of an uploaded signature; the SMS signature is told for what it is. */
function SignatureVerification({ signature: s }: { signature: NonNullable<AdhesionContent['signature']> }) {
  if (s.method === 'online') {
    return (
      <Fact label="Firma qualificata">
        no: firma con codice SMS (firma elettronica con codice monouso, non una firma digitale qualificata)
      </Fact>
    );
  }
  const v = s.verification;
  if (!v) {
    return (
      <Fact label="Firma qualificata">
        {missing('non verificata: file caricato prima della verifica delle firme qualificate')}
      </Fact>
    );
  }
  return (
    <>
      <Fact label="Firma qualificata">
        {v.qualified ? 'sì' : 'no'}: {v.trustService.name} ({v.trustService.provider}), stato nell’elenco di
        fiducia: {v.trustService.status}
      </Fact>
      <Fact label="Emittente del certificato">{v.issuer}</Fact>
      <Fact label="Formato">{SIGNATURE_FORMAT_LABELS[v.formatDetail]}</Fact>
      <Fact label="Ora attendibile">
        {formatDateTime(v.trustedTime.at)} (fonte: {TIME_SOURCES[v.trustedTime.source]}
        {v.trustedTime.authority ? ` di ${v.trustedTime.authority}` : ''})
        {v.declaredSigningTime && (
          <span className="d-block small text-muted">
            Ora dichiarata nel file: {formatDateTime(v.declaredSigningTime)}
          </span>
        )}
      </Fact>
      <Fact label="Revoca">
        non revocato, risposta {REVOCATION_SOURCES[v.revocation.source]} del{' '}
        {formatDateTime(v.revocation.producedAt)}
      </Fact>
    </>
  );
}

/** Every signature of the institute in the order the portal received them; the newest is the current one. */
function SignatureVersions({
  versions,
  instituteId,
}: {
  versions: AdhesionContent['versions'];
  instituteId: number;
}) {
  return (
    <>
      <h3 className="h6">Versioni della firma (in ordine di caricamento)</h3>
      <ol className="mb-3" data-testid="signature-versions">
        {versions.map((v) => (
          <li key={v.id} aria-current={v.current ? 'true' : undefined}>
            {SIGNATURE_METHOD_LABELS[v.method]}, ricevuta il {formatDateTime(v.receivedAt)} (firmatario{' '}
            {v.signerName}
            {v.signedFileName ? `, file ${v.signedFileName}` : ''}){' '}
            {v.current && <span className="badge bg-primary">Versione corrente</span>}
            {v.hasReport && (
              <span className="d-block mt-1">
                <DownloadButton
                  label="Scarica il rapporto di verifica (JSON)"
                  kind="report"
                  instituteId={instituteId}
                  signatureId={v.id}
                />
              </span>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}

/** Every submission of the same subject, newest first: who decided what, when, with which note. */
export function ReviewHistory({ history }: { history: ReviewHistoryEntry[] }) {
  return (
    <section aria-labelledby="storico-title" className="mb-4">
      <h2 id="storico-title" className="h5">
        Storico delle decisioni
      </h2>
      <ol className="list-unstyled mb-0" data-testid="review-history">
        {history.map((h) => (
          <li key={h.id} className="border-start border-3 ps-3 mb-3">
            <StateBadge state={h.state} />{' '}
            <span className="small">inviato il {formatDateTime(h.submittedAt)}</span>
            {h.decidedAt && (
              <span className="d-block small">
                deciso il {formatDateTime(h.decidedAt)}
                {h.decidedBy ? ` da ${h.decidedBy}` : ''}
              </span>
            )}
            {h.note && (
              <p className="mb-0 mt-1" style={{ whiteSpace: 'pre-line' }}>
                Nota: {h.note}
              </p>
            )}
            {h.fields.length > 0 && (
              <p className="mb-0 mt-1 small">
                Dati da correggere: {h.fields.map((f) => REVIEW_FIELD_LABELS[f]).join(', ')}
              </p>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The item under review: what was submitted (by type) and where it stands. */
export function ReviewItem({ item }: { item: ReviewDetail }) {
  return (
    <section
      aria-labelledby="elemento-title"
      className="mb-4"
      data-testid="review-item"
      data-item-id={item.id}
    >
      <h2 id="elemento-title" className="h4">
        {item.title}
      </h2>
      <p>
        <StateBadge state={item.state} />{' '}
        <span className="small">Inviato il {formatDateTime(item.submittedAt)}</span>
        {item.decidedAt && (
          <span className="small">
            {' '}
            · deciso il {formatDateTime(item.decidedAt)}
            {item.decidedBy ? ` da ${item.decidedBy}` : ''}
          </span>
        )}
      </p>
      {item.content.type === 'insegnanti' && <TeacherFacts content={item.content} />}
      {item.content.type === 'adesioni' && <AdhesionFacts content={item.content} />}
      {item.content.type === 'visite' && <VisitFacts content={item.content} />}
    </section>
  );
}
