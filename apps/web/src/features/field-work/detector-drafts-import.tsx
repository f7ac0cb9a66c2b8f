// Staff's "Importa bozze" on the detectors page (issue 39, decision 051): a detector's exported drafts
// file, first checked (what each report would become), then sent on the detector's behalf.
import { useState } from 'react';
import { useFetcher } from 'react-router';
import { Button } from 'design-react-kit';
import {
  DRAFT_IMPORT_MAX_CHARS,
  importDetectorReports,
  REPORT_IMPORT_MESSAGES,
  REPORT_IMPORT_STATUS_LABELS,
  VISIT_STATE_LABELS,
  type DetectorSummary,
  type ReportImportItem,
  type ReportImportPhotoStatus,
  type ReportImportResult,
} from '@portale/shared/field-work';
import { FileField } from '../../components/form/file-field.tsx';
import { SelectField } from '../../components/form/select-field.tsx';
import { DetectorOptions } from './detector-options.tsx';
import { ApiError, callApi } from '../../lib/api-client.ts';
import { text } from '../../lib/form-data.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';

export const IMPORT_INTENTS = ['import-preview', 'import-apply'] as const;

export interface DraftsImportOutcome {
  kind: 'drafts-import';
  result?: ReportImportResult;
  message?: string;
  errors?: { detector?: string; file?: string };
}

const STATUS_BADGES: Record<keyof typeof REPORT_IMPORT_STATUS_LABELS, string> = {
  new: 'bg-primary',
  imported: 'bg-success',
  received: 'bg-secondary',
  conflict: 'bg-warning text-dark',
  invalid: 'bg-danger',
};

/** A photo's state, singular and plural ("1 valida", "2 valide"). */
const PHOTO_LABELS: Record<ReportImportPhotoStatus, [string, string]> = {
  valid: ['valida', 'valide'],
  invalid: ['non valida', 'non valide'],
  received: ['già ricevuta', 'già ricevute'],
  landed: ['caricata', 'caricate'],
  refused: ['rifiutata', 'rifiutate'],
};

/** The photos of one report in the file: how many, in which state, and why any is not loaded. */
function PhotosCell({ photos }: { photos: ReportImportItem['photos'] }) {
  if (photos.length === 0) return <>—</>;
  const states = (Object.keys(PHOTO_LABELS) as ReportImportPhotoStatus[])
    .map((s) => [s, photos.filter((p) => p.status === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${formatNumber(n)} ${PHOTO_LABELS[s][n === 1 ? 0 : 1]}`);
  return (
    <>
      {formatNumber(photos.length)} foto: {states.join(', ')}
      {photos
        .filter((p) => p.message)
        .map((p) => (
          <div key={p.index} className="small mt-1">
            Foto {p.index + 1}: {p.message}
          </div>
        ))}
    </>
  );
}

/** What the confirmation sends: reports (new or to keep as conflicts) and valid photos. */
function toSendOf(result: ReportImportResult): { reports: number; photos: number } {
  return {
    reports: result.counts.new + result.counts.conflict,
    photos: result.items.flatMap((i) => i.photos).filter((p) => p.status === 'valid').length,
  };
}

function confirmLabel(result: ReportImportResult): string {
  const { reports, photos } = toSendOf(result);
  const parts = [
    ...(reports > 0 ? [`${formatNumber(reports)} ${reports === 1 ? 'resoconto' : 'resoconti'}`] : []),
    ...(photos > 0 ? [`${formatNumber(photos)} foto`] : []),
  ];
  return `Conferma l’importazione di ${parts.join(' e ')} a nome di ${result.detector.firstName} ${result.detector.lastName}`;
}

/** The page action's part for the import: reads the file in the browser, the API validates and decides. */
export async function draftsImportAction(form: FormData): Promise<DraftsImportOutcome> {
  const userId = Number(text(form, 'detector'));
  // The browser read the chosen file into `content` (detector-drafts-import's form): the API validates it.
  const content = text(form, 'content');
  const errors: DraftsImportOutcome['errors'] = {};
  if (!userId) errors.detector = 'Scegli il rilevatore di cui importare le bozze.';
  if (!content) errors.file = REPORT_IMPORT_MESSAGES.content;
  else if (content.length > DRAFT_IMPORT_MAX_CHARS) errors.file = REPORT_IMPORT_MESSAGES.tooLarge;
  if (errors.detector || errors.file)
    return { kind: 'drafts-import', message: 'Controlla i campi evidenziati.', errors };
  try {
    const result = await callApi(importDetectorReports, {
      params: { userId },
      body: { content, confirm: text(form, 'intent') === 'import-apply' },
    });
    return { kind: 'drafts-import', result };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 401) throw error;
    const content = error.body?.errors?.content?.[0];
    return content
      ? { kind: 'drafts-import', message: content, errors: { file: content } }
      : { kind: 'drafts-import', message: error.message };
  }
}

function ImportTable({ result }: { result: ReportImportResult }) {
  return (
    <div className="table-responsive">
      <table className="table table-sm">
        <caption>
          Bozze nel file di {result.detector.firstName} {result.detector.lastName}
          {result.exportedAt ? `, esportato il ${formatDateTime(result.exportedAt)}` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Plesso</th>
            <th scope="col">Visita</th>
            <th scope="col">Resoconto</th>
            <th scope="col">Scritto il</th>
            <th scope="col">Foto</th>
            <th scope="col">Esito</th>
          </tr>
        </thead>
        <tbody>
          {result.items.map((i) => (
            <tr key={i.clientReportId}>
              <th scope="row">{i.site ? `${i.site.name} (${i.site.ministryCode})` : '—'}</th>
              <td>
                n. {i.visitId}
                {i.scheduledAt && <> del {formatDateTime(i.scheduledAt)}</>}
                {i.visitState && <> · {VISIT_STATE_LABELS[i.visitState]}</>}
              </td>
              <td>
                {i.excerpt}
                {i.teachersMet > 0 && <> · {formatNumber(i.teachersMet)} insegnanti incontrati</>}
              </td>
              <td>{i.writtenAt ? formatDateTime(i.writtenAt) : '—'}</td>
              <td>
                <PhotosCell photos={i.photos} />
              </td>
              <td>
                <span className={`badge ${STATUS_BADGES[i.status]}`}>
                  {REPORT_IMPORT_STATUS_LABELS[i.status]}
                </span>
                {i.message && <div className="small mt-1">{i.message}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The file's text (FileReader: every browser, and the test DOM). */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('Lettura del file non riuscita.'));
    reader.readAsText(file);
  });
}

/** "Importa bozze": detector, file, "Controlla il file", then "Conferma l'importazione". */
export function DraftsImportForm({ detectors }: { detectors: DetectorSummary[] }) {
  const fetcher = useFetcher<DraftsImportOutcome>();
  const busy = fetcher.state !== 'idle';
  const outcome = fetcher.data;
  const result = outcome?.result;
  const toSend = result ? toSendOf(result) : { reports: 0, photos: 0 };
  const [content, setContent] = useState('');
  const [reading, setReading] = useState(false);
  const readFile = async (file: File | undefined) => {
    setReading(true);
    try {
      setContent(file ? await readText(file) : '');
    } catch {
      setContent('');
    } finally {
      setReading(false);
    }
  };
  return (
    <section aria-labelledby="importa-title" className="mb-5">
      <h2 id="importa-title" className="h4">
        Importa bozze
      </h2>
      <p>
        Se il dispositivo di un rilevatore si è rotto, carica il file che ha scaricato con «Esporta bozze»:
        prima vedi cosa contiene, con le foto di ciascun resoconto e se sono valide, poi confermi e i
        resoconti e le loro foto vengono inviati a suo nome. Importare due volte lo stesso file non crea nulla
        di nuovo; un resoconto per una visita annullata, mancata o di un altro rilevatore è conservato tra i
        conflitti da risolvere (senza le foto).
      </p>
      <fetcher.Form method="post" className="row g-3 align-items-end" aria-labelledby="importa-title">
        <input type="hidden" name="content" value={content} />
        <SelectField
          id="import-detector"
          name="detector"
          label="Rilevatore"
          fieldClassName="col-md-4"
          labelClassName="form-label"
          required
          error={outcome?.errors?.detector}
        >
          <option value="">Scegli…</option>
          <DetectorOptions detectors={detectors} />
        </SelectField>
        <FileField
          id="import-file"
          onChange={(e) => void readFile(e.target.files?.[0])}
          label="File delle bozze (.json)"
          hint="Il file «resoconti-non-inviati.json» scaricato dal dispositivo del rilevatore."
          accept="application/json,.json"
          fieldClassName="col-md-5"
          labelClassName="form-label"
          aria-required="true"
          error={outcome?.errors?.file}
        />
        <div className="col-md-3">
          <Button
            color="primary"
            outline
            type="submit"
            name="intent"
            value="import-preview"
            disabled={busy || reading}
          >
            Controlla il file
          </Button>
        </div>
        <div className="col-12" role="status" data-testid="drafts-import-outcome">
          {outcome?.message && <div className="alert alert-danger">{outcome.message}</div>}
          {result && (
            <p className={`alert ${result.applied ? 'alert-success' : 'alert-info'}`}>
              {result.applied ? 'Importazione completata' : 'Contenuto del file'}: {countsLine(result)}.
            </p>
          )}
        </div>
        <div className="col-12">
          {result && (
            <>
              <ImportTable result={result} />
              {!result.applied &&
                (toSend.reports + toSend.photos > 0 ? (
                  <Button color="primary" type="submit" name="intent" value="import-apply" disabled={busy}>
                    {confirmLabel(result)}
                  </Button>
                ) : (
                  <p className="mb-0">Nessun resoconto da importare: il server ha già tutto.</p>
                ))}
            </>
          )}
        </div>
      </fetcher.Form>
    </section>
  );
}

function countsLine(result: ReportImportResult): string {
  return (Object.keys(REPORT_IMPORT_STATUS_LABELS) as (keyof typeof REPORT_IMPORT_STATUS_LABELS)[])
    .filter((s) => result.counts[s] > 0)
    .map((s) => `${REPORT_IMPORT_STATUS_LABELS[s].toLowerCase()} ${formatNumber(result.counts[s])}`)
    .join(', ');
}
