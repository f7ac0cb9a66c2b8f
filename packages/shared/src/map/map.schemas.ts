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
 * The pattern is `^(-?\d+)?(,(-?\d+)?)*$` written as one scan of a character class and a lookahead
 * for a misplaced minus: the same language (a property test compares them), but linear without
 * backtracking or captures. The grouped form took 25 ms per 250 KB column in V8 (50 ms of the map
 * page's first view, for nine columns); this one takes under 1 ms.
 */
export const MAP_COLUMN_PATTERN = /^(?!.*(?:[^,]-|-\D|-$))[-\d,]*$/;
const column = z.string().regex(MAP_COLUMN_PATTERN, 'Colonna non valida.');

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
 * `decodeMapColumns` turns it into typed columns, `decodeMapSchoolSites` into rows.
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

/**
 * A column of integers back into numbers, NaN for a missing value: one pass over the characters,
 * no string per value (`split` and `Number` made 340,000 strings for the whole country, a third of
 * the map page's work before its first view). Anything but an optional minus and digits is refused.
 */
export function parseColumn(text: string, length: number): Float64Array {
  const out = new Float64Array(length);
  if (length === 0) return out;
  let k = 0;
  let value = 0;
  let sign = 1;
  let digits = 0;
  const end = text.length;
  for (let i = 0; i <= end; i++) {
    const c = i < end ? text.charCodeAt(i) : 44;
    if (c === 44) {
      if (k >= length) throw new Error(`Colonna di più di ${length} valori.`);
      if (digits === 0 && sign === -1) throw new Error('Colonna con un valore non valido.');
      out[k++] = digits === 0 ? NaN : sign * value;
      value = 0;
      sign = 1;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits++;
    } else if (c === 45 && digits === 0 && sign === 1) sign = -1;
    else throw new Error('Colonna con un valore non valido.');
  }
  if (k !== length) throw new Error(`Colonna di ${k} valori invece di ${length}.`);
  return out;
}

/** One plesso of the map once decoded. */
export interface MapSchoolSite {
  id: number;
  /** Its place: plessi of one place share their coordinates (an index into the answer's places). */
  place: number;
  /** Degrees, or null when the registry has no coordinates. */
  lon: number | null;
  lat: number | null;
  state: (typeof ADHESION_STATES)[number];
  level: (typeof SCHOOL_LEVELS)[number];
  province: string;
  participating: boolean;
  detector: boolean;
}

/**
 * The plessi of the map as columns, the k-th entry of each being the k-th plesso: what the web app
 * draws and counts. Typed arrays and no object per plesso: 57,000 objects cost the map page a tenth
 * of a second before its first view.
 */
export interface MapSiteColumns {
  count: number;
  id: Float64Array;
  /** Index into `places`. */
  place: Uint32Array;
  /** Indexes into `dictionaries.state` and `dictionaries.level`. */
  state: Uint8Array;
  level: Uint8Array;
  /** 1 or 0. */
  participating: Uint8Array;
  detector: Uint8Array;
  /** The distinct places: degrees (NaN without coordinates) and the province's code. */
  places: { count: number; lon: Float64Array; lat: Float64Array; province: string[] };
  dictionaries: MapSchoolSites['dictionaries'];
}

/** The columnar answer decoded into `MapSiteColumns`; throws on a malformed column or place. */
export function decodeMapColumns(data: MapSchoolSites): MapSiteColumns {
  const placeLon = parseColumn(data.places.lon, data.placeCount);
  const placeLat = parseColumn(data.places.lat, data.placeCount);
  const placeProvince = parseColumn(data.places.province, data.placeCount);
  const lon = new Float64Array(data.placeCount);
  const lat = new Float64Array(data.placeCount);
  const province = new Array<string>(data.placeCount);
  let x = 0;
  let y = 0;
  for (let p = 0; p < data.placeCount; p++) {
    const has = !Number.isNaN(placeLon[p]!) && !Number.isNaN(placeLat[p]!);
    if (has) {
      x += placeLon[p]!;
      y += placeLat[p]!;
    }
    lon[p] = has ? x / data.scale : NaN;
    lat[p] = has ? y / data.scale : NaN;
    province[p] = data.dictionaries.province[placeProvince[p]!] ?? '';
  }
  const id = parseColumn(data.idDelta, data.count);
  let running = 0;
  for (let k = 0; k < data.count; k++) id[k] = running += Number.isNaN(id[k]!) ? 0 : id[k]!;
  // Plain loops: `TypedArray.from` with a mapping function costs ten times as much.
  const places = parseColumn(data.place, data.count);
  const place = new Uint32Array(data.count);
  for (let k = 0; k < data.count; k++) {
    const p = places[k]!;
    if (!(p >= 0 && p < data.placeCount)) throw new Error(`Luogo sconosciuto per il plesso ${id[k]}.`);
    place[k] = p;
  }
  const small = (text: string, size: number) => {
    const values = parseColumn(text, data.count);
    const out = new Uint8Array(data.count);
    for (let k = 0; k < data.count; k++) out[k] = values[k]! >= 0 && values[k]! < size ? values[k]! : size;
    return out;
  };
  return {
    count: data.count,
    id,
    place,
    // An index outside its dictionary reads as the dictionary's length: no entry ('nessuna'/'altro' below).
    state: small(data.state, data.dictionaries.state.length),
    level: small(data.level, data.dictionaries.level.length),
    participating: small(data.participating, 2),
    detector: small(data.detector, 2),
    places: { count: data.placeCount, lon, lat, province },
    dictionaries: data.dictionaries,
  };
}

/** The k-th plesso of the columns as an object. */
export function mapSiteAt(columns: MapSiteColumns, k: number): MapSchoolSite {
  const place = columns.place[k]!;
  const lon = columns.places.lon[place]!;
  const lat = columns.places.lat[place]!;
  const has = !Number.isNaN(lon) && !Number.isNaN(lat);
  return {
    id: columns.id[k]!,
    place,
    lon: has ? lon : null,
    lat: has ? lat : null,
    state: columns.dictionaries.state[columns.state[k]!] ?? 'nessuna',
    level: columns.dictionaries.level[columns.level[k]!] ?? 'altro',
    province: columns.places.province[place]!,
    participating: columns.participating[k] === 1,
    detector: columns.detector[k] === 1,
  };
}

/** Rows back from the columnar answer. */
export function decodeMapSchoolSites(data: MapSchoolSites): MapSchoolSite[] {
  const columns = decodeMapColumns(data);
  return Array.from({ length: columns.count }, (_, k) => mapSiteAt(columns, k));
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
