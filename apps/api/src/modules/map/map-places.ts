import { encodeColumn, MAP_COORD_SCALE, type MapFilters, type MapSchoolSites } from '@portale/shared/map';
import { ADHESION_STATES, PROVINCES, SCHOOL_LEVELS } from '@portale/shared/registry';
import { DigitColumn, Dictionary, fieldCount, integers, naturalsColumn, positionOf } from './map-columns.ts';

// The map's answer from the text its queries send (map.repository.ts): parse, encode, assemble.
// Pure functions over strings and typed arrays (the text codecs are in map-columns.ts): no database,
// testable on their own.

/**
 * The answers as comma-separated text: PostgreSQL builds them in one pass, JavaScript splits them (far
 * cheaper than parsing rows or arrays). The institutes' states come with both queries.
 */
type StatesColumns = Record<'institute_ids' | 'institute_states' | 'places_version', string | null>;
/** The whole query: `sites` holds SITE_FIELDS fields a plesso (`mapSchoolSitesQuery`). */
export type WholeRow = StatesColumns & { sites: string | null };
/** The narrow query: each kept plesso's flags, in id order. */
export type ProgrammeRow = StatesColumns & { flags: string | null };

/** The fields of a plesso in the whole query: id, place, province, flags × 8 + level, institute. */
const SITE_FIELDS = 5;

// States and levels are one-digit columns (DigitColumn); the whole query sends the level in three bits.
if (ADHESION_STATES.length > 10 || SCHOOL_LEVELS.length > 8)
  throw new Error('A map column of more than ten values needs encodeColumn.');
const PROVINCE_CODES = new Dictionary(PROVINCES);
const STATE_CODES = new Dictionary(ADHESION_STATES);

/** Each institute's state as its index in ADHESION_STATES; institutes not listed (and a state outside it) read as the first. */
export function statesOf(row: StatesColumns | undefined): Map<number, number> {
  const count = fieldCount(row?.institute_ids);
  const ids = integers(row?.institute_ids, count);
  const states = STATE_CODES.indexes(row?.institute_states, count, 0);
  const stateOf = new Map<number, number>();
  for (let i = 0; i < count; i++) stateOf.set(ids[i]!, states[i]!);
  return stateOf;
}

/**
 * What the map keeps of its plessi between writes, for one set of place filters (region, province,
 * level): which plessi there are (ids ascending), their institutes, levels and places, and the
 * distinct places, with the text of the columns that do not depend on the programme. `version` is the
 * version of the topic 'map-places' they were read at.
 */
export interface MapPlaces {
  version: string;
  count: number;
  id: Float64Array;
  institute: Float64Array;
  level: Uint8Array;
  place: Uint32Array;
  /** The distinct places, in answer order: coordinates × MAP_COORD_SCALE (NaN without), province index (-1 unknown). */
  placeX: Float64Array;
  placeY: Float64Array;
  placeProvince: Int16Array;
  /** The columns of the answer with every plesso (no programme filter), built once. */
  text: { idDelta: string; place: string; level: string; lon: string; lat: string; province: string };
}

/** The distinct places of `keep`'s plessi, in order, as the answer's columns, and each plesso's new place index. */
function encodePlaces(places: MapPlaces, keep: (k: number) => boolean) {
  const used = new Int32Array(places.placeX.length).fill(-1);
  for (let k = 0; k < places.count; k++) if (keep(k)) used[places.place[k]!] = 0;
  const lon: (number | null)[] = [];
  const lat: (number | null)[] = [];
  const province: number[] = [];
  let previousX = 0;
  let previousY = 0;
  for (let p = 0; p < used.length; p++) {
    if (used[p] === -1) continue;
    used[p] = lon.length;
    const x = places.placeX[p]!;
    const y = places.placeY[p]!;
    province.push(places.placeProvince[p]!);
    if (Number.isNaN(x)) {
      lon.push(null);
      lat.push(null);
      continue;
    }
    lon.push(x - previousX);
    lat.push(y - previousY);
    previousX = x;
    previousY = y;
  }
  return {
    count: lon.length,
    lon: encodeColumn(lon),
    lat: encodeColumn(lat),
    province: encodeColumn(province),
    indexOf: used,
  };
}

/**
 * The whole query's plessi (SITE_FIELDS comma-separated fields each) in one pass over the text, in
 * answer order: id, place key, province index (127: unknown), level index, flags.
 */
function parseSites(text: string | null | undefined) {
  const fields = fieldCount(text);
  if (fields % SITE_FIELDS !== 0)
    throw new Error(`The map's plessi have ${fields} fields, not ${SITE_FIELDS} each.`);
  const n = fields / SITE_FIELDS;
  const id = new Float64Array(n);
  const xy = new Float64Array(n);
  const province = new Uint8Array(n);
  const level = new Uint8Array(n);
  const flags = new Float64Array(n);
  const institute = new Float64Array(n);
  if (!text) return { n, id, xy, province, level, flags, institute };
  let field = 0;
  let k = 0;
  let value = 0;
  let sign = 1;
  let start = 0;
  const length = text.length;
  for (let i = 0; i <= length; i++) {
    const c = i < length ? text.charCodeAt(i) : 44;
    if (c !== 44) {
      if (c === 45) sign = -1;
      else value = value * 10 + (c - 48);
      continue;
    }
    if (field === 0) id[k] = value;
    else if (field === 1) xy[k] = sign * value;
    else if (field === 2) province[k] = PROVINCE_CODES.lookup(text, start, i, 127);
    else if (field === 3) {
      level[k] = value & 7;
      flags[k] = value >> 3;
    } else institute[k++] = value;
    field = field === SITE_FIELDS - 1 ? 0 : field + 1;
    value = 0;
    sign = 1;
    start = i + 1;
  }
  return { n, id, xy, province, level, flags, institute };
}

/**
 * The kept plessi from the whole query's row: ids ascending, each pointing at one of the distinct
 * places (the registry places plessi at their municipality's centroid, so ~7,000 places serve ~57,000
 * plessi), the places sorted by longitude. Built with typed arrays and sorted searches, not a string or
 * a map entry per plesso. Also answers the row's flags in id order.
 */
export function buildPlaces(row: WholeRow | undefined): { places: MapPlaces; flags: Float64Array } {
  const {
    n,
    id: rawId,
    xy,
    province,
    level: rawLevel,
    flags: rawFlags,
    institute: rawInstitute,
  } = parseSites(row?.sites);

  // A place's key: its coordinates × 128 + its province's index (127: unknown), exact below 2^53;
  // without coordinates, -1 - the province's index.
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) key[i] = xy[i]! < 0 ? -1 - province[i]! : xy[i]! * 128 + province[i]!;

  // Distinct places ascending by key (longitude, then latitude, then province); those without
  // coordinates (negative keys, first in the sorted array) go last.
  const sorted = key.slice().sort();
  let distinctCount = 0;
  for (let i = 0; i < n; i++)
    if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[distinctCount++] = sorted[i]!;
  const distinct = sorted.subarray(0, distinctCount);
  const negatives = positionOf(distinct, 0);
  const positives = distinctCount - negatives;
  const placeIndex = (k: number) => {
    const position = positionOf(distinct, k);
    return position < negatives ? positives + position : position - negatives;
  };
  const placeX = new Float64Array(distinctCount);
  const placeY = new Float64Array(distinctCount);
  const placeProvince = new Int16Array(distinctCount);
  for (let position = 0; position < distinctCount; position++) {
    const k = distinct[position]!;
    const index = position < negatives ? positives + position : position - negatives;
    if (k < 0) {
      placeX[index] = NaN;
      placeY[index] = NaN;
      placeProvince[index] = -1 - k === 127 ? -1 : -1 - k;
      continue;
    }
    const p = k % 128;
    const xyKey = (k - p) / 128;
    const y = (xyKey % 4_194_304) - 2_000_000;
    placeX[index] = Math.round((xyKey - (y + 2_000_000)) / 4_194_304) - 2_000_000;
    placeY[index] = y;
    placeProvince[index] = p === 127 ? -1 : p;
  }

  // Plessi in id order (the table's order already, almost always: sorted only when needed).
  let order: number[] | null = null;
  for (let i = 1; i < n; i++) {
    if (rawId[i]! < rawId[i - 1]!) {
      order = Array.from({ length: n }, (_, k) => k).sort((a, b) => rawId[a]! - rawId[b]!);
      break;
    }
  }
  const id = new Float64Array(n);
  const institute = new Float64Array(n);
  const level = new Uint8Array(n);
  const place = new Uint32Array(n);
  const flags = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const i = order ? order[k]! : k;
    id[k] = rawId[i]!;
    institute[k] = rawInstitute[i]!;
    level[k] = rawLevel[i]!;
    place[k] = placeIndex(key[i]!);
    flags[k] = rawFlags[i]!;
  }
  const places: MapPlaces = {
    version: row?.places_version ?? '',
    count: n,
    id,
    institute,
    level,
    place,
    placeX,
    placeY,
    placeProvince,
    text: { idDelta: '', place: '', level: '', lon: '', lat: '', province: '' },
  };
  // Every place has a plesso: the places keep their indexes.
  const all = encodePlaces(places, () => true);
  const idDelta = new Float64Array(n);
  const levels = new DigitColumn(n);
  for (let k = 0; k < n; k++) {
    idDelta[k] = id[k]! - (k ? id[k - 1]! : 0);
    levels.set(k, level[k]!);
  }
  places.text = {
    idDelta: naturalsColumn(idDelta),
    place: naturalsColumn(place),
    level: levels.text(),
    lon: all.lon,
    lat: all.lat,
    province: all.province,
  };
  return { places, flags };
}

/** The programme filters (participation, detector, institute's state) as a test on a kept plesso; null without any. */
function dynamicFilterOf(
  filters: MapFilters,
  flags: Float64Array,
  state: Uint8Array,
): ((k: number) => boolean) | null {
  const tests: ((k: number) => boolean)[] = [];
  if (filters.participating !== undefined) {
    const wanted = filters.participating ? 1 : 0;
    tests.push((k) => (flags[k]! & 1) === wanted);
  }
  if (filters.detector) {
    const wanted = filters.detector === 'assigned' ? 2 : 0;
    tests.push((k) => (flags[k]! & 2) === wanted);
  }
  if (filters.adhesionState) {
    const wanted = ADHESION_STATES.indexOf(filters.adhesionState);
    tests.push((k) => state[k] === wanted);
  }
  if (!tests.length) return null;
  return (k) => tests.every((test) => test(k));
}

/** The answer from the kept plessi and what changes with the programme (flags and states, id order). */
export function assemble(
  places: MapPlaces,
  flags: Float64Array,
  stateOf: Map<number, number>,
  filters: MapFilters,
): MapSchoolSites {
  const n = places.count;
  const state = new Uint8Array(n);
  for (let k = 0; k < n; k++) state[k] = stateOf.get(places.institute[k]!) ?? 0;
  const keep = dynamicFilterOf(filters, flags, state);
  const dictionaries = { state: [...ADHESION_STATES], level: [...SCHOOL_LEVELS], province: [...PROVINCES] };
  // The one-digit columns are written as bytes ("d,d,…"): no number is turned into a string.
  const digits = (count: number, digit: (k: number) => number, ks: Uint32Array | null) => {
    const column = new DigitColumn(count);
    for (let j = 0; j < count; j++) column.set(j, digit(ks ? ks[j]! : j));
    return column.text();
  };
  if (!keep) {
    return {
      count: n,
      placeCount: places.placeX.length,
      scale: MAP_COORD_SCALE,
      dictionaries,
      places: { lon: places.text.lon, lat: places.text.lat, province: places.text.province },
      idDelta: places.text.idDelta,
      place: places.text.place,
      state: digits(n, (k) => state[k]!, null),
      level: places.text.level,
      participating: digits(n, (k) => flags[k]! & 1, null),
      detector: digits(n, (k) => flags[k]! >> 1, null),
    };
  }
  // Only the plessi that pass the programme filters, and only their places.
  let count = 0;
  const ks = new Uint32Array(n);
  for (let k = 0; k < n; k++) if (keep(k)) ks[count++] = k;
  const chosen = ks.subarray(0, count);
  const encoded = encodePlaces(places, keep);
  const idDelta = new Float64Array(count);
  const place = new Uint32Array(count);
  for (let j = 0; j < count; j++) {
    const k = chosen[j]!;
    idDelta[j] = places.id[k]! - (j ? places.id[chosen[j - 1]!]! : 0);
    place[j] = encoded.indexOf[places.place[k]!]!;
  }
  return {
    count,
    placeCount: encoded.count,
    scale: MAP_COORD_SCALE,
    dictionaries,
    places: { lon: encoded.lon, lat: encoded.lat, province: encoded.province },
    idDelta: naturalsColumn(idDelta),
    place: naturalsColumn(place),
    state: digits(count, (k) => state[k]!, chosen),
    level: digits(count, (k) => places.level[k]!, chosen),
    participating: digits(count, (k) => flags[k]! & 1, chosen),
    detector: digits(count, (k) => flags[k]! >> 1, chosen),
  };
}
