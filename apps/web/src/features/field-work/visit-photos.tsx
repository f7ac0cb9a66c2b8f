import { useEffect, useRef, useState } from 'react';
import {
  deleteVisitPhoto,
  downloadVisitPhoto,
  listVisitPhotos,
  type ReportPhoto,
} from '@portale/shared/field-work';
import { ConfirmButton } from '../../components/form/confirm-button.tsx';
import { ApiError, callApi, downloadFile } from '../../lib/api-client.ts';

interface Thumb {
  photo: ReportPhoto;
  url: string | null;
}

/**
 * The photos of a submitted visit report (decision 055), as thumbnails that open the photo: for the
 * detector on their visits and for staff who read detectors. Nothing is shown when there are none, nor
 * to a reviewer who may not see them (403). Loaded lazily by the pages that show a visit's report.
 * A photo the caller may delete (`deletable`: staff who review; the detector until the report is
 * reviewed) has "Elimina", which asks first (decision 055, amendment).
 * With `clientReportId`: the photos of that one report sent for the visit, a kept conflict's included
 * (decision 061); without it, the photos of the reports the visit holds.
 */
export default function VisitPhotos({
  visitId,
  clientReportId,
}: {
  visitId: number;
  clientReportId?: string;
}) {
  const [thumbs, setThumbs] = useState<Thumb[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<{ text: string; failed: boolean } | null>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    // After a deletion the opener is gone: the focus goes to what happened.
    if (status) statusRef.current?.focus();
  }, [status]);
  const remove = async ({ photo, url }: Thumb) => {
    try {
      await callApi(deleteVisitPhoto, { params: { visitId, photoId: photo.id } });
      setThumbs((all) => all.filter((t) => t.photo.id !== photo.id));
      if (url) URL.revokeObjectURL(url);
      setStatus({ text: `Foto ${photo.index + 1} eliminata.`, failed: false });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      setStatus({ text: `Foto ${photo.index + 1} non eliminata: ${message}`, failed: true });
    }
  };
  useEffect(() => {
    let cancelled = false;
    const urls: string[] = [];
    void (async () => {
      try {
        const { items } = await callApi(listVisitPhotos, {
          params: { visitId },
          ...(clientReportId ? { query: { clientReportId } } : {}),
        });
        if (cancelled) return;
        setThumbs(items.map((photo) => ({ photo, url: null })));
        for (const photo of items) {
          const file = await downloadFile(
            downloadVisitPhoto,
            { params: { visitId, photoId: photo.id } },
            undefined,
            {
              save: false,
            },
          );
          if (cancelled) return;
          const url = URL.createObjectURL(file.blob);
          urls.push(url);
          setThumbs((all) => all.map((t) => (t.photo.id === photo.id ? { ...t, url } : t)));
        }
      } catch (e) {
        if (cancelled || (e instanceof ApiError && e.status === 403)) return;
        setError(e instanceof Error ? e.message : String(e));
      }
    })();
    return () => {
      cancelled = true;
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, [visitId, clientReportId]);
  if (error) return <p className="small text-danger">Foto del resoconto non disponibili: {error}</p>;
  const message = status ? (
    <p
      ref={statusRef}
      tabIndex={-1}
      role={status.failed ? 'alert' : 'status'}
      className={`small mb-1 ${status.failed ? 'text-danger' : ''}`}
    >
      {status.text}
    </p>
  ) : null;
  if (thumbs.length === 0) return message;
  return (
    <div className="mb-2">
      {message}
      <p className="small mb-1">Foto del resoconto ({thumbs.length})</p>
      <ul className="list-unstyled d-flex flex-wrap gap-2" aria-label="Foto del resoconto">
        {thumbs.map((thumb) => {
          const { photo, url } = thumb;
          return (
            <li key={photo.id} className="d-flex flex-column align-items-start gap-1">
              {url ? (
                <a
                  href={url}
                  target="_blank"
                  rel="noreferrer"
                  aria-label={`Apri la foto ${photo.index + 1} a grandezza piena`}
                >
                  <img
                    src={url}
                    alt={`Foto ${photo.index + 1} del resoconto`}
                    width={96}
                    height={72}
                    style={{ objectFit: 'cover' }}
                    className="border"
                  />
                </a>
              ) : (
                <span className="small text-muted">Caricamento della foto {photo.index + 1}…</span>
              )}
              {photo.deletable ? (
                <ConfirmButton
                  intent="delete-photo"
                  onConfirm={() => remove(thumb)}
                  label={`Elimina la foto ${photo.index + 1}`}
                  question={`Eliminare la foto ${photo.index + 1} del resoconto? Non si potrà recuperare.`}
                  confirmLabel={`Conferma: elimina la foto ${photo.index + 1}`}
                  openerClassName="btn btn-outline-danger btn-sm"
                  confirmClassName="btn btn-danger btn-sm"
                  cancelClassName="btn btn-outline-secondary btn-sm"
                  boxClassName="border rounded p-2 small"
                />
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
