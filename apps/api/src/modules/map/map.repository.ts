import { sql, type SQL } from 'drizzle-orm';
import { ADHESION_STATES, PROVINCES, SCHOOL_LEVELS } from '@portale/shared/registry';
import { encodeColumn, MAP_COORD_SCALE, type MapFilters, type MapSchoolSites } from '@portale/shared/map';
import type { DbOrTx } from '../../db/transaction.ts';
import { dataVersionSql, foldIfLong } from '../../lib/data-version.repository.ts';
import { enrolledInstitute } from '../registry/index.ts';

/** The data-version topic of what places a plesso (migration 0015). */
export const PLACES_TOPIC = 'map-places';

/**
 * The filters on what the map keeps between writes (which plessi, where, which level), applied in
 * SQL. Participation, detector and the institute's state change with the programme: they are
 * applied to the kept plessi in JavaScript (`dynamicFilterOf`).
 */
function placesWhereOf(filters: MapFilters): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filters.region) conditions.push(sql`s.region = ${filters.region}`);
  if (filters.province) conditions.push(sql`s.province = ${filters.province}`);
  if (filters.level) conditions.push(sql`s.school_level = ${filters.level}`);
  return sql.join(conditions, sql` and `);
}

/**
 * The answers as comma-separated text: PostgreSQL builds them in one pass, JavaScript splits them (far
 * cheaper than parsing rows or arrays). The institutes' states come with both queries.
 */
type StatesColumns = Record<'institute_ids' | 'institute_states' | 'places_version', string | null>;
/** The whole query: `sites` holds SITE_FIELDS fields a plesso (`mapSchoolSitesQuery`). */
type WholeRow = StatesColumns & { sites: string | null };
/** The narrow query: each kept plesso's flags, in id order. */
type ProgrammeRow = StatesColumns & { flags: string | null };

/** Participation (1) and detector (2) of a plesso as one number. */
const FLAG_BITS = sql`(s.participating::int + 2 * (s.detector_user_id is not null)::int)`;
const FLAGS = sql`${FLAG_BITS}::text`;
/** A plesso's level as its index in SCHOOL_LEVELS (an unknown level reads as the last, 'altro'). */
const LEVEL_INDEX = sql`case s.school_level ${sql.join(
  SCHOOL_LEVELS.map((level, index) => sql`when ${level} then ${index}::int`),
  sql` `,
)} else ${SCHOOL_LEVELS.length - 1}::int end`;
/** The fields of a plesso in the whole query: id, place, province, flags × 8 + level, institute. */
const SITE_FIELDS = 5;
/**
 * The enrolled institutes only (state other than the first, 'nessuna', which every other institute
 * has): most of the registry's ~20,000 never enrol, and aggregating all of them was half of the map's query.
 */
const INSTITUTE_STATES = sql`select string_agg(id::text, ',') as institute_ids, string_agg(adhesion_state, ',') as institute_states from institutes where ${enrolledInstitute}`;

/**
 * The map's whole query (exported for the benchmark's raw-SQL reference): one statement, so one
 * snapshot, with the version of the places it read. The plessi and their institutes' states are
 * aggregated apart and joined in JavaScript (a hash join of the two tables cost PostgreSQL a third of
 * the query), and province codes travel as text that JavaScript maps to their index (`array_position`
 * over the 107 province codes cost 130 ms a call). The plessi are one text of SITE_FIELDS fields each,
 * level and flags as one small number: one aggregate instead of six, and no level names, a third less
 * text to send and read (1.7 MB for the whole country, against 2.5 MB).
 */
export function mapSchoolSitesQuery(filters: MapFilters): SQL {
  // Each plesso's coordinates as one exact integer, (lon + 2e6) × 2^22 + (lat + 2e6) (coordinates × 1e4
  // stay below 2^21 in magnitude), -1 without them.
  const lon = sql`round(s.longitude * ${MAP_COORD_SCALE})::bigint`;
  const lat = sql`round(s.latitude * ${MAP_COORD_SCALE})::bigint`;
  return sql`
    with sites as (
      -- Every field is not null (a place without coordinates is -1): concat_ws would drop a null one.
      select string_agg(concat_ws(',', s.id, coalesce((${lon} + 2000000) * 4194304 + (${lat} + 2000000), -1), s.province, ${FLAG_BITS} * 8 + ${LEVEL_INDEX}, s.institute_id), ',') as sites
      from school_sites s
      where ${placesWhereOf(filters)}
    ), states as (${INSTITUTE_STATES})
    select *, ${dataVersionSql(PLACES_TOPIC)} as places_version from sites, states`;
}

/**
 * The narrow query of a call after a write that moved no plesso (exported for the benchmark): the
 * version of the places, and what changes with the programme, in id order, for the kept plessi.
 */
export function mapProgrammeQuery(filters: MapFilters): SQL {
  return sql`
    with sites as (
      -- In id order from the primary key's index: an aggregate's own ORDER BY sorted the rows again (2.5× the time).
      select string_agg(${FLAGS}, ',') as flags from (select * from school_sites s where ${placesWhereOf(filters)} order by s.id) s
    ), states as (${INSTITUTE_STATES})
    select *, ${dataVersionSql(PLACES_TOPIC)} as places_version from sites, states`;
}

/** The number of fields of a comma-separated list. */
function fieldCount(text: string | null | undefined): number {
  if (!text) return 0;
  let count = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 44) count++;
  return count;
}

/** `count` comma-separated integers (as PostgreSQL prints them) into numbers, without a string each. */
function integers(text: string | null | undefined, count: number): Float64Array {
  const out = new Float64Array(count);
  if (!text) return out;
  let k = 0;
  let value = 0;
  let sign = 1;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      out[k++] = sign * value;
      value = 0;
      sign = 1;
    } else if (c === 45) sign = -1;
    else value = value * 10 + (c - 48);
  }
  out[k] = sign * value;
  return out;
}

/** A dictionary of codes, looked up by a hash of their characters (no string is made per field). */
class Dictionary {
  private readonly byHash = new Map<number, number>();
  constructor(private readonly codes: readonly string[]) {
    codes.forEach((code, index) => {
      const hash = Dictionary.hash(code, 0, code.length);
      if (this.byHash.has(hash)) throw new Error(`Dictionary codes with one hash: ${code}`);
      this.byHash.set(hash, index);
    });
  }
  static hash(text: string, start: number, end: number): number {
    let h = 0;
    for (let i = start; i < end; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
    return h;
  }
  /** The index of the code `text` holds from `start` to `end` (`fallback` when unknown). */
  lookup(text: string, start: number, end: number, fallback: number): number {
    const index = this.byHash.get(Dictionary.hash(text, start, end));
    // A hash is only a hint: the code itself must be there.
    if (index === undefined) return fallback;
    const code = this.codes[index]!;
    return code.length === end - start && text.startsWith(code, start) ? index : fallback;
  }
  /** Each of the `count` comma-separated codes of `text` as its index (`fallback` when unknown). */
  indexes(text: string | null | undefined, count: number, fallback: number): Uint8Array {
    const out = new Uint8Array(count).fill(fallback);
    if (!text) return out;
    let start = 0;
    let k = 0;
    for (let i = 0; i <= text.length; i++) {
      if (i < text.length && text.charCodeAt(i) !== 44) continue;
      out[k++] = this.lookup(text, start, i, fallback);
      start = i + 1;
    }
    return out;
  }
}

/**
 * Non-negative integers as `encodeColumn` writes them ("3,10,0"), digit by digit into one buffer: no
 * string per value (joining the two columns of ~57,000 numbers took 15 ms of each rebuilt answer).
 */
export function naturalsColumn(values: ArrayLike<number>): string {
  const count = values.length;
  if (!count) return '';
  // 2^53 has 16 digits; one more byte for the comma.
  const bytes = Buffer.allocUnsafe(count * 17);
  let at = 0;
  for (let k = 0; k < count; k++) {
    if (k) bytes[at++] = 44;
    let value = values[k]!;
    if (!(value >= 0 && value <= Number.MAX_SAFE_INTEGER && Math.floor(value) === value))
      throw new Error(`Not a natural number: ${value}`);
    const begin = at;
    do {
      bytes[at++] = 48 + (value % 10);
      value = Math.floor(value / 10);
    } while (value > 0);
    for (let a = begin, b = at - 1; a < b; a++, b--) {
      const digit = bytes[a]!;
      bytes[a] = bytes[b]!;
      bytes[b] = digit;
    }
  }
  return bytes.toString('latin1', 0, at);
}

/** A column of one-digit values, as `encodeColumn` writes it, built byte by byte. */
class DigitColumn {
  private readonly bytes: Buffer;
  constructor(length: number) {
    this.bytes = Buffer.alloc(Math.max(0, 2 * length - 1), 44);
  }
  set(index: number, digit: number): void {
    this.bytes[2 * index] = 48 + digit;
  }
  text(): string {
    return this.bytes.toString('latin1');
  }
}

/** The position of `value` in the ascending `sorted` (which holds it). */
function positionOf(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

// States and levels are one-digit columns (DigitColumn); the whole query sends the level in three bits.
if (ADHESION_STATES.length > 10 || SCHOOL_LEVELS.length > 8)
  throw new Error('A map column of more than ten values needs encodeColumn.');
const PROVINCE_CODES = new Dictionary(PROVINCES);
const STATE_CODES = new Dictionary(ADHESION_STATES);

/** Each institute's state as its index in ADHESION_STATES; institutes not listed (and a state outside it) read as the first. */
function statesOf(row: StatesColumns | undefined): Map<number, number> {
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
function buildPlaces(row: WholeRow | undefined): { places: MapPlaces; flags: Float64Array } {
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
function assemble(
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

/**
 * Every plesso matching the filters in the columnar encoding of `MapSchoolSitesSchema`: ids ascending
 * as differences, places sorted by longitude with their coordinates as differences. `kept` holds the
 * plessi of each set of place filters between calls (the caller's, per API instance): after a write
 * that moved no plesso (a participation, a detector, an institute's state: most of the programme's
 * writes), one narrow query reads what changed, in the same snapshot as the places' version, and
 * the kept plessi serve when that version is theirs; otherwise the whole query runs (decision 020).
 * `placesVersion`, the places' version read just before (the route reads it with the map's), skips
 * the narrow query when it is not the kept plessi's: a plesso moved, so only the whole query can answer.
 */
export async function mapSchoolSites(
  db: DbOrTx,
  filters: MapFilters,
  kept: Map<string, MapPlaces> = new Map(),
  placesVersion?: string,
): Promise<MapSchoolSites> {
  const placesKey = JSON.stringify([filters.region ?? null, filters.province ?? null, filters.level ?? null]);
  const known = kept.get(placesKey);
  if (known && (placesVersion === undefined || placesVersion === known.version)) {
    const result = (await db.execute(mapProgrammeQuery(filters))) as unknown as { rows: ProgrammeRow[] };
    const row = result.rows[0];
    if (row && row.places_version === known.version) {
      await foldIfLong(db, PLACES_TOPIC, known.version);
      return assemble(known, integers(row.flags, known.count), statesOf(row), filters);
    }
  }
  const result = (await db.execute(mapSchoolSitesQuery(filters))) as unknown as { rows: WholeRow[] };
  const row = result.rows[0];
  const { places, flags } = buildPlaces(row);
  await foldIfLong(db, PLACES_TOPIC, places.version);
  kept.delete(placesKey);
  kept.set(placesKey, places);
  while (kept.size > 16) kept.delete(kept.keys().next().value!);
  return assemble(places, flags, statesOf(row), filters);
}
