// The staff home's glance at the programme: a small map of Italy (institutes enrolled per region)
// and the key trend lines, each linking to /portale/mappa and /portale/avanzamento. Plain SVG drawn
// here (no map or chart library on the home), with text and names for screen readers.
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { getMapBoundaries, type MapBoundaries } from '@portale/shared/map';
import { href } from '@portale/shared/pages';
import { getProgress, MAX_PROGRESS_DAYS, type ProgressResponse } from '@portale/shared/progress';
import { callApi } from '../../lib/api-client.ts';
import { formatNumber } from '../../lib/format.ts';

interface Trends {
  weeks: ProgressResponse;
  regions: ProgressResponse;
  boundaries: MapBoundaries;
}

const TREND_METRICS = ['institutesEnrolled', 'participatingSites', 'teachersRegistered'] as const;
const SHADES = ['#eef0f2', '#cce0f5', '#80b3e6', '#3380cc', '#004d99'];
const WIDTH = 300;

type Ring = number[][];
function ringsOf(geometry: { type: string; coordinates: unknown[] }): Ring[] {
  if (geometry.type === 'Polygon') return geometry.coordinates as Ring[];
  if (geometry.type === 'MultiPolygon') return (geometry.coordinates as Ring[][]).flat();
  return [];
}

/** SVG paths of the regions (equirectangular, scaled at Italy's latitude), a few points dropped. */
function regionPaths(boundaries: MapBoundaries) {
  const all = boundaries.features.flatMap((f) => ringsOf(f.geometry).flat());
  const minLon = Math.min(...all.map((p) => p[0]!));
  const maxLon = Math.max(...all.map((p) => p[0]!));
  const minLat = Math.min(...all.map((p) => p[1]!));
  const maxLat = Math.max(...all.map((p) => p[1]!));
  const k = Math.cos((42 * Math.PI) / 180);
  const scale = WIDTH / ((maxLon - minLon) * k);
  const height = (maxLat - minLat) * scale;
  const paths = boundaries.features.map((f) => {
    const d = ringsOf(f.geometry)
      .filter((ring) => ring.length > 8)
      .map((ring) => {
        const step = ring.length > 60 ? 3 : 1;
        const points = ring
          .filter((_, i) => i % step === 0)
          .map(
            (p) => `${((p[0]! - minLon) * k * scale).toFixed(1)},${((maxLat - p[1]!) * scale).toFixed(1)}`,
          );
        return `M${points.join('L')}Z`;
      })
      .join('');
    return { name: String(f.properties.reg_name ?? ''), d };
  });
  return { paths, height };
}

function shadeOf(value: number, max: number): string {
  if (value <= 0 || max <= 0) return SHADES[0]!;
  return SHADES[Math.min(4, 1 + Math.floor((value / max) * 3.999))]!;
}

function Sparkline({ values, label }: { values: number[]; label: string }) {
  const max = Math.max(1, ...values);
  const points = values
    .map(
      (v, i) =>
        `${((i / Math.max(1, values.length - 1)) * 160).toFixed(1)},${(38 - (v / max) * 34).toFixed(1)}`,
    )
    .join(' ');
  return (
    <svg width="160" height="40" viewBox="0 0 160 40" role="img" aria-label={label}>
      <polyline points={points} fill="none" stroke="#0066cc" strokeWidth="2" />
    </svg>
  );
}

/** Staff only (the home shows it with the key figures). */
export function ProgrammeTrends() {
  const [trends, setTrends] = useState<Trends | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    const today = new Date().toISOString().slice(0, 10);
    const longAgo = new Date(Date.now() - (MAX_PROGRESS_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
    Promise.all([
      callApi(getProgress, { query: {} }, { signal: abort.signal }),
      callApi(
        getProgress,
        { query: { groupBy: 'region', from: longAgo, to: today } },
        { signal: abort.signal },
      ),
      callApi(getMapBoundaries, { query: { layer: 'regioni' } }, { signal: abort.signal }),
    ])
      .then(([weeks, regions, boundaries]) => setTrends({ weeks, regions, boundaries }))
      .catch(() => {
        if (!abort.signal.aborted) setFailed(true);
      });
    return () => abort.abort();
  }, []);

  if (failed) return null;
  return (
    <section aria-labelledby="andamento" className="mb-5" data-testid="programme-trends">
      <h2 id="andamento" className="h4">
        Andamento del programma
      </h2>
      {!trends ? <p className="small">Caricamento dell'andamento…</p> : <TrendsBody trends={trends} />}
    </section>
  );
}

function TrendsBody({ trends }: { trends: Trends }) {
  const { weeks, regions, boundaries } = trends;
  const { paths, height } = regionPaths(boundaries);
  const byRegion = new Map(regions.rows.map((r) => [r.key, r.values.institutesEnrolled ?? 0]));
  const valueOf = (name: string) =>
    byRegion.get(name) ??
    [...byRegion.entries()].find(([k]) => k.split('/')[0] === name.split('/')[0])?.[1] ??
    0;
  const max = Math.max(0, ...regions.rows.map((r) => r.values.institutesEnrolled ?? 0));
  const top = [...regions.rows]
    .filter((r) => (r.values.institutesEnrolled ?? 0) > 0)
    .sort((a, b) => (b.values.institutesEnrolled ?? 0) - (a.values.institutesEnrolled ?? 0))
    .slice(0, 3);
  const mapLabel = top.length
    ? `Istituti iscritti per regione: ${top.map((r) => `${r.label} ${formatNumber(r.values.institutesEnrolled ?? 0)}`).join(', ')}.`
    : 'Nessun istituto iscritto finora.';
  return (
    <div className="row g-4">
      <div className="col-12 col-md-5">
        <svg
          viewBox={`0 0 ${WIDTH} ${height.toFixed(0)}`}
          width="100%"
          style={{ maxWidth: 320 }}
          role="img"
          aria-label={mapLabel}
        >
          {paths.map((p) => (
            <path
              key={p.name}
              d={p.d}
              fill={shadeOf(valueOf(p.name), max)}
              stroke="#5f6b78"
              strokeWidth="0.5"
            >
              <title>{`${p.name}: ${formatNumber(valueOf(p.name))} istituti iscritti`}</title>
            </path>
          ))}
        </svg>
        <p className="small mb-1">{mapLabel} Più scuro: più istituti iscritti.</p>
        <Link to={href('portal.map')}>Apri la mappa dei plessi</Link>
      </div>
      <div className="col-12 col-md-7">
        <ul className="list-unstyled">
          {TREND_METRICS.map((m) => {
            const label = weeks.columns.find((c) => c.key === m)?.label ?? m;
            const values = weeks.rows.map((r) => r.cumulative?.[m] ?? 0);
            const total = values.at(-1) ?? 0;
            const text = `${label}: ${formatNumber(total)} in tutto, ${formatNumber(weeks.totals[m] ?? 0)} nelle ultime ${weeks.rows.length} settimane.`;
            return (
              <li key={m} className="d-flex flex-wrap align-items-center gap-3 mb-3" data-metric={m}>
                <Sparkline values={values} label={`Andamento settimanale. ${text}`} />
                <span>{text}</span>
              </li>
            );
          })}
        </ul>
        <Link to={href('portal.progress')}>Vedi l'avanzamento del programma</Link>
      </div>
    </div>
  );
}
