import { useEffect, useState } from 'react';
import { downloadVisitPhoto, listVisitPhotos, type ReportPhoto } from '@portale/shared/field-work';
import { ApiError, callApi, downloadFile } from '../../lib/api-client.ts';

interface Thumb {
  photo: ReportPhoto;
  url: string | null;
}

/**
 * The photos of a submitted visit report (decision 055), as thumbnails that open the photo: for the
 * detector on their visits and for staff who read detectors. Nothing is shown when there are none, nor
 * to a reviewer who may not see them (403). Loaded lazily by the pages that show a visit's report.
 */
export default function VisitPhotos({ visitId }: { visitId: number }) {
  const [thumbs, setThumbs] = useState<Thumb[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    const urls: string[] = [];
    void (async () => {
      try {
        const { items } = await callApi(listVisitPhotos, { params: { visitId } });
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
  }, [visitId]);
  if (error) return <p className="small text-danger">Foto del resoconto non disponibili: {error}</p>;
  if (thumbs.length === 0) return null;
  return (
    <div className="mb-2">
      <p className="small mb-1">Foto del resoconto ({thumbs.length})</p>
      <ul className="list-unstyled d-flex flex-wrap gap-2" aria-label="Foto del resoconto">
        {thumbs.map(({ photo, url }) => (
          <li key={photo.id}>
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
          </li>
        ))}
      </ul>
    </div>
  );
}
