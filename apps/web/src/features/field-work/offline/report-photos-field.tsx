import { useEffect, useId, useState } from 'react';
import { Button } from 'design-react-kit';
import { detectorReportQueue } from './detector-report-queue.ts';
import { compressPhoto } from './photo-compression.ts';
import { PHOTOS_PER_REPORT, TOO_MANY_PHOTOS } from './report-queue.ts';

interface Shown {
  index: number;
  url: string;
  size: number;
}

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('it-IT')} KB`;

/**
 * The photos of a report draft (issue 39, decision 055): taken or chosen, compressed on the device,
 * kept in IndexedDB with the draft, shown as thumbnails with "Rimuovi". They are sent after the report.
 * `ensureDraft` gives the draft's client id (creating the draft on the first photo).
 */
export default function ReportPhotosField({
  clientReportId,
  ensureDraft,
}: {
  clientReportId: string | null;
  ensureDraft: () => Promise<string>;
}) {
  const id = useId();
  const [photos, setPhotos] = useState<Shown[]>([]);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!clientReportId) return;
    let cancelled = false;
    let shown: Shown[] = [];
    void detectorReportQueue()
      .then((q) => q.photosOf(clientReportId))
      .then((stored) => {
        if (cancelled) return;
        shown = stored.map((p) => ({ index: p.index, url: URL.createObjectURL(p.blob), size: p.size }));
        setPhotos(shown);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      for (const p of shown) URL.revokeObjectURL(p.url);
    };
  }, [clientReportId, version]);

  const add = async (files: File[]) => {
    setError(null);
    if (files.length === 0) return;
    if (photos.length + files.length > PHOTOS_PER_REPORT) {
      setError(`${TOO_MANY_PHOTOS} Puoi aggiungerne ancora ${PHOTOS_PER_REPORT - photos.length}.`);
      return;
    }
    setBusy(true);
    setStatus('Compressione delle foto in corso…');
    try {
      const draftId = await ensureDraft();
      const queue = await detectorReportQueue();
      for (const file of files) await queue.addPhoto(draftId, await compressPhoto(file));
      const count = (await queue.photosOf(draftId)).length;
      setStatus(
        `${files.length === 1 ? 'Foto aggiunta' : 'Foto aggiunte'}: ${count} di ${PHOTOS_PER_REPORT}.`,
      );
    } catch (e) {
      setStatus('');
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
      setVersion((v) => v + 1);
    }
  };

  const remove = async (index: number) => {
    if (!clientReportId) return;
    await (await detectorReportQueue()).removePhoto(clientReportId, index);
    setStatus(`Foto ${index + 1} rimossa.`);
    setVersion((v) => v + 1);
  };

  const full = photos.length >= PHOTOS_PER_REPORT;
  return (
    <fieldset className="mb-3">
      <legend className="h6">Foto (facoltative, al massimo {PHOTOS_PER_REPORT})</legend>
      <p id={`${id}-hint`} className="small text-muted mb-2">
        Le foto restano su questo dispositivo con la bozza, ridotte a 1600 pixel sul lato lungo, e sono
        inviate dopo il resoconto; se la rete cade, l’invio riprende da dove si era fermato.
      </p>
      <label htmlFor={`${id}-input`} className="form-label">
        Scatta o scegli una foto
      </label>
      <input
        id={`${id}-input`}
        type="file"
        accept="image/jpeg,image/png,image/*"
        multiple
        className="form-control"
        disabled={busy || full}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        aria-invalid={error ? true : undefined}
        onChange={(event) => {
          const input = event.currentTarget;
          const files = [...(input.files ?? [])];
          input.value = '';
          void add(files);
        }}
      />
      {full && <p className="small mt-1">Hai aggiunto il numero massimo di foto.</p>}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-danger small mt-1">
          {error}
        </p>
      )}
      <p role="status" className="small mt-1 mb-2">
        {status}
      </p>
      {photos.length > 0 && (
        <ul className="list-unstyled d-flex flex-wrap gap-3" aria-label="Foto della bozza">
          {photos.map((p, position) => (
            <li key={p.index} className="text-center">
              <img
                src={p.url}
                alt={`Foto ${position + 1} di ${photos.length}`}
                width={120}
                height={90}
                style={{ objectFit: 'cover' }}
                className="d-block border mb-1"
              />
              <span className="small d-block">{kb(p.size)}</span>
              <Button
                type="button"
                color="secondary"
                outline
                size="xs"
                aria-label={`Rimuovi la foto ${position + 1}`}
                onClick={() => void remove(p.index)}
              >
                Rimuovi
              </Button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
