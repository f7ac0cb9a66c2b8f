import { z } from 'zod';
import { optionalEnum, QueryBooleanSchema } from '../lists/list-query.ts';
import { ADHESION_STATES, PROVINCES, REGIONS, SCHOOL_LEVELS } from '../registry/registry.constants.ts';

/** Coordinates travel as integers: degrees × MAP_COORD_SCALE (1e-4°, about 11 m). */
export const MAP_COORD_SCALE = 10_000;

/** The detector filter: plessi with a detector assigned, or without one. */
export const DETECTOR_FILTER_VALUES = ['assigned', 'unassigned'] as const;
export type DetectorFilter = (typeof DETECTOR_FILTER_VALUES)[number];
export const DETECTOR_FILTER_LABELS: Record<DetectorFilter, string> = {
  assigned: 'Con rilevatore assegnato',
  unassigned: 'Senza rilevatore',
};

/** The map's filters (URL query of `/portale/mappa` and of `GET /api/map/school-sites`). */
export const MapFiltersSchema = z.object({
  region: optionalEnum(REGIONS, 'Regione'),
  province: optionalEnum(PROVINCES, 'Provincia'),
  level: optionalEnum(SCHOOL_LEVELS, 'Grado scolastico'),
  adhesionState: optionalEnum(ADHESION_STATES, 'Stato di adesione'),
  participating: QueryBooleanSchema,
  detector: optionalEnum(DETECTOR_FILTER_VALUES, 'Rilevatore'),
});
export type MapFilters = z.output<typeof MapFiltersSchema>;
export const MAP_FILTER_KEYS = Object.keys(MapFiltersSchema.shape) as (keyof MapFilters)[];

/**
 * A column of integers as text: comma-separated, an empty entry for a missing value. Text, not JSON
 * arrays: the browser checks one string instead of tens of thousands of numbers, and splits it fast.
 */
const column = z.string().regex(/^(-?\d+)?(,(-?\d+)?)*$/, 'Colonna non valida.');

/**
 * Every plesso matching the filters, columnar (one column per field, the k-th entry of each is the
 * k-th plesso), small enough for the whole country (≤ 300 KB gzip):
 * - `idDelta`: ids ascending, each the difference from the previous one (the first from 0);
 * - `place`: index into `places`, the distinct places (the registry puts a plesso at its
 *   municipality's centroid: ~7,000 places for ~57,000 plessi). `places.lon`/`places.lat` are
 *   degrees × `scale`, each the difference from the previous place's (the first from 0); a place
 *   without coordinates has an empty entry in both and does not move the running value;
 *   `places.province` indexes `dictionaries.province`;
 * - `state`, `level`: indexes into the dictionaries of the same name;
 * - `participating`, `detector`: 1 or 0.
 * `decodeMapSchoolSites` turns it back into rows.
 */
export const MapSchoolSitesSchema = z.object({
  count: z.number().int().nonnegative(),
  placeCount: z.number().int().nonnegative(),
  scale: z.number().int().positive(),
  dictionaries: z.object({
    state: z.array(z.enum(ADHESION_STATES)),
    level: z.array(z.enum(SCHOOL_LEVELS)),
    province: z.array(z.string()),
  }),
  places: z.object({ lon: column, lat: column, province: column }),
  idDelta: column,
  place: column,
  state: column,
  level: column,
  participating: column,
  detector: column,
});
export type MapSchoolSites = z.infer<typeof MapSchoolSitesSchema>;

/** A column of `MapSchoolSitesSchema` from numbers (null = missing). */
export function encodeColumn(values: readonly (number | null)[]): string {
  // `join` writes null as an empty field and numbers as `String` does.
  return values.join(',');
}

/** A column back into numbers (null = missing); its length must be `length`. */
export function decodeColumn(text: string, length: number): (number | null)[] {
  if (length === 0) return [];
  const parts = text.split(',');
  if (parts.length !== length) throw new Error(`Colonna di ${parts.length} valori invece di ${length}.`);
  return parts.map((p) => (p === '' ? null : Number(p)));
}

/** One plesso of the map once decoded. */
export interface MapSchoolSite {
  id: number;
  /** Degrees, or null when the registry has no coordinates. */
  lon: number | null;
  lat: number | null;
  state: (typeof ADHESION_STATES)[number];
  level: (typeof SCHOOL_LEVELS)[number];
  province: string;
  participating: boolean;
  detector: boolean;
}

/** Rows back from the columnar answer. */
export function decodeMapSchoolSites(data: MapSchoolSites): MapSchoolSite[] {
  const placeLon = decodeColumn(data.places.lon, data.placeCount);
  const placeLat = decodeColumn(data.places.lat, data.placeCount);
  const placeProvince = decodeColumn(data.places.province, data.placeCount);
  const places: { lon: number | null; lat: number | null; province: string }[] = [];
  let lon = 0;
  let lat = 0;
  for (let p = 0; p < data.placeCount; p++) {
    const dLon = placeLon[p];
    const dLat = placeLat[p];
    const has = dLon !== null && dLon !== undefined && dLat !== null && dLat !== undefined;
    if (has) {
      lon += dLon;
      lat += dLat;
    }
    places.push({ lon: has ? lon / data.scale : null, lat: has ? lat / data.scale : null, province: data.dictionaries.province[placeProvince[p] ?? -1] ?? '' });
  }
  const idDelta = decodeColumn(data.idDelta, data.count);
  const place = decodeColumn(data.place, data.count);
  const state = decodeColumn(data.state, data.count);
  const level = decodeColumn(data.level, data.count);
  const participating = decodeColumn(data.participating, data.count);
  const detector = decodeColumn(data.detector, data.count);
  const rows: MapSchoolSite[] = new Array(data.count);
  let id = 0;
  for (let k = 0; k < data.count; k++) {
    id += idDelta[k] ?? 0;
    const at = places[place[k] ?? -1];
    if (!at) throw new Error(`Luogo sconosciuto per il plesso ${id}.`);
    rows[k] = {
      id,
      lon: at.lon,
      lat: at.lat,
      state: data.dictionaries.state[state[k] ?? -1] ?? 'nessuna',
      level: data.dictionaries.level[level[k] ?? -1] ?? 'altro',
      province: at.province,
      participating: participating[k] === 1,
      detector: detector[k] === 1,
    };
  }
  return rows;
}

/** Which base-map layer `GET /api/map/boundaries` answers. */
export const BOUNDARY_LAYERS = ['regioni', 'province'] as const;
export type BoundaryLayer = (typeof BOUNDARY_LAYERS)[number];
export const MapBoundariesQuerySchema = z.object({
  layer: z.enum(BOUNDARY_LAYERS, { error: 'Livello dei confini non valido: usa «regioni» o «province».' }),
});

/** A GeoJSON FeatureCollection (WGS84) of region or province boundaries (ISTAT; openpolis, CC BY 4.0). */
export const MapBoundariesSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(
    z.object({
      type: z.literal('Feature'),
      properties: z.record(z.string(), z.unknown()),
      geometry: z.object({ type: z.string(), coordinates: z.array(z.unknown()) }),
    }),
  ),
});
export type MapBoundaries = z.infer<typeof MapBoundariesSchema>;
