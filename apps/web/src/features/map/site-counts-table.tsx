import { Fragment, useMemo } from 'react';
import { Link } from 'react-router';
import {
  ADHESION_STATE_LABELS,
  ADHESION_STATES,
  REGIONS,
  type AdhesionState,
} from '@portale/shared/registry';
import type { MapSiteColumns } from '@portale/shared/map';
import { formatNumber } from '../../lib/format.ts';
import { REGION_OF_PROVINCE } from './map-labels.ts';

interface Counts {
  total: number;
  participating: number;
  detector: number;
  byState: Record<AdhesionState, number>;
}

const empty = (): Counts => ({
  total: 0,
  participating: 0,
  detector: 0,
  byState: Object.fromEntries(ADHESION_STATES.map((s) => [s, 0])) as Record<AdhesionState, number>,
});

export interface RegionCounts {
  region: string;
  counts: Counts;
  provinces: { province: string; counts: Counts }[];
}

/** Counts per region → province, regions in the registry's order, only those with plessi. */
export function countByRegion(sites: MapSiteColumns): RegionCounts[] {
  // Counted per place first (typed arrays, no lookup per plesso), then per province.
  const states = sites.dictionaries.state;
  const width = states.length + 3;
  const perPlace = new Uint32Array(sites.places.count * width);
  for (let i = 0; i < sites.count; i++) {
    const at = sites.place[i]! * width;
    perPlace[at]!++;
    perPlace[at + 1]! += sites.participating[i]!;
    perPlace[at + 2]! += sites.detector[i]!;
    if (sites.state[i]! < states.length) perPlace[at + 3 + sites.state[i]!]!++;
  }
  const byProvince = new Map<string, Counts>();
  for (let place = 0; place < sites.places.count; place++) {
    const at = place * width;
    if (!perPlace[at]) continue;
    const province = sites.places.province[place]!;
    let counts = byProvince.get(province);
    if (!counts) byProvince.set(province, (counts = empty()));
    counts.total += perPlace[at]!;
    counts.participating += perPlace[at + 1]!;
    counts.detector += perPlace[at + 2]!;
    states.forEach((state, s) => (counts.byState[state] += perPlace[at + 3 + s]!));
  }
  const out: RegionCounts[] = [];
  for (const region of REGIONS) {
    const provinces = [...byProvince.entries()]
      .filter(([p]) => REGION_OF_PROVINCE[p] === region)
      .sort(([a], [b]) => a.localeCompare(b));
    if (!provinces.length) continue;
    const counts = empty();
    for (const [, c] of provinces) {
      counts.total += c.total;
      counts.participating += c.participating;
      counts.detector += c.detector;
      for (const s of ADHESION_STATES) counts.byState[s] += c.byState[s];
    }
    out.push({ region, counts, provinces: provinces.map(([province, c]) => ({ province, counts: c })) });
  }
  return out;
}

function Cells({ counts }: { counts: Counts }) {
  return (
    <>
      <td className="text-end">{formatNumber(counts.total)}</td>
      <td className="text-end">{formatNumber(counts.participating)}</td>
      <td className="text-end">{formatNumber(counts.detector)}</td>
      {ADHESION_STATES.map((s) => (
        <td key={s} className="text-end">
          {formatNumber(counts.byState[s])}
        </td>
      ))}
    </>
  );
}

/**
 * The map's accessible twin: the same plessi counted per region and province, with links that
 * narrow the map (and this table) to a region or a province.
 */
export function SiteCountsTable({ sites, query }: { sites: MapSiteColumns; query: Record<string, string> }) {
  const rows = useMemo(() => countByRegion(sites), [sites]);
  const hrefWith = (params: Record<string, string>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries({ ...query, ...params })) if (value) search.set(key, value);
    return `?${search.toString()}`;
  };
  return (
    <div className="table-responsive" tabIndex={0} role="region" aria-labelledby="map-table-caption">
      <table className="table table-sm table-hover" data-testid="map-counts">
        <caption id="map-table-caption" className="caption-top">
          Plessi per regione e provincia ({formatNumber(sites.count)} in tutto), per partecipazione,
          rilevatore e stato di adesione dell'istituto
        </caption>
        <thead>
          <tr>
            <th scope="col">Regione / provincia</th>
            <th scope="col" className="text-end">
              Plessi
            </th>
            <th scope="col" className="text-end">
              Partecipanti
            </th>
            <th scope="col" className="text-end">
              Con rilevatore
            </th>
            {ADHESION_STATES.map((s) => (
              <th key={s} scope="col" className="text-end">
                {ADHESION_STATE_LABELS[s]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <Fragment key={r.region}>
              <tr className="table-light" data-region={r.region} data-count={r.counts.total}>
                <th scope="row">
                  <Link to={hrefWith({ region: r.region, province: '' })}>{r.region}</Link>
                </th>
                <Cells counts={r.counts} />
              </tr>
              {r.provinces.map((p) => (
                <tr key={p.province} data-province={p.province} data-count={p.counts.total}>
                  <th scope="row" className="fw-normal ps-4">
                    <Link
                      to={hrefWith({ region: r.region, province: p.province })}
                      aria-label={`Provincia ${p.province} (${r.region})`}
                    >
                      {p.province}
                    </Link>
                  </th>
                  <Cells counts={p.counts} />
                </tr>
              ))}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
