import { sql, type SQL } from 'drizzle-orm';
import { ADHESION_STATES, PROVINCES, SCHOOL_LEVELS } from '@portale/shared/registry';
import { encodeColumn, MAP_COORD_SCALE, type MapFilters, type MapSchoolSites } from '@portale/shared/map';
import type { DbOrTx } from '../../db/transaction.ts';

function whereOf(filters: MapFilters): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filters.region) conditions.push(sql`s.region = ${filters.region}`);
  if (filters.province) conditions.push(sql`s.province = ${filters.province}`);
  if (filters.level) conditions.push(sql`s.school_level = ${filters.level}`);
  if (filters.adhesionState) conditions.push(sql`s.institute_id in (select id from institutes where adhesion_state = ${filters.adhesionState})`);
  if (filters.participating !== undefined) conditions.push(sql`s.participating = ${filters.participating}`);
  if (filters.detector === 'assigned') conditions.push(sql`s.detector_user_id is not null`);
  if (filters.detector === 'unassigned') conditions.push(sql`s.detector_user_id is null`);
  return sql.join(conditions, sql` and `);
}

/** The columns as comma-separated text: PostgreSQL builds them in one pass, JavaScript splits them (far cheaper than parsing rows or arrays). */
type TextColumns = Record<'ids' | 'place' | 'province' | 'level' | 'flags' | 'institute' | 'institute_ids' | 'institute_states', string | null>;

/**
 * The one query of the map (exported for the benchmark's raw-SQL reference): one statement, so one
 * snapshot. The plessi and their institutes' states are aggregated apart and joined in JavaScript
 * (a hash join of the two tables cost PostgreSQL a third of the query), and codes travel as text that
 * JavaScript maps to their index (`array_position` over the 107 province codes cost 130 ms a call).
 */
export function mapSchoolSitesQuery(filters: MapFilters): SQL {
  // Each plesso's coordinates as one exact integer, (lon + 2e6) × 2^22 + (lat + 2e6) (coordinates × 1e4
  // stay below 2^21 in magnitude), -1 without them.
  const lon = sql`round(s.longitude * ${MAP_COORD_SCALE})::bigint`;
  const lat = sql`round(s.latitude * ${MAP_COORD_SCALE})::bigint`;
  return sql`
    with sites as (
      select string_agg(s.id::text, ',') as ids,
        string_agg(coalesce((${lon} + 2000000) * 4194304 + (${lat} + 2000000), -1)::text, ',') as place,
        string_agg(s.province, ',') as province,
        string_agg(s.school_level, ',') as level,
        string_agg((s.participating::int + 2 * (s.detector_user_id is not null)::int)::text, ',') as flags,
        string_agg(s.institute_id::text, ',') as institute
      from school_sites s
      where ${whereOf(filters)}
    ), states as (
      select string_agg(id::text, ',') as institute_ids, string_agg(adhesion_state, ',') as institute_states from institutes
    )
    select * from sites, states`;
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
  /** Each of the `count` comma-separated codes of `text` as its index (`fallback` when unknown). */
  indexes(text: string | null | undefined, count: number, fallback: number): Uint8Array {
    const out = new Uint8Array(count).fill(fallback);
    if (!text) return out;
    let start = 0;
    let k = 0;
    for (let i = 0; i <= text.length; i++) {
      if (i < text.length && text.charCodeAt(i) !== 44) continue;
      const index = this.byHash.get(Dictionary.hash(text, start, i));
      // A hash is only a hint: the code itself must be there.
      if (index !== undefined) {
        const code = this.codes[index]!;
        if (code.length === i - start && text.startsWith(code, start)) out[k] = index;
      }
      k++;
      start = i + 1;
    }
    return out;
  }
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

// States and levels are one-digit columns (DigitColumn).
if (ADHESION_STATES.length > 10 || SCHOOL_LEVELS.length > 10) throw new Error('A map column of more than ten values needs encodeColumn.');
const PROVINCE_CODES = new Dictionary(PROVINCES);
const LEVEL_CODES = new Dictionary(SCHOOL_LEVELS);
const STATE_CODES = new Dictionary(ADHESION_STATES);

/**
 * Every plesso matching the filters in the columnar encoding of `MapSchoolSitesSchema`: ids ascending
 * as differences, and each plesso pointing at one of the distinct places (the registry places plessi
 * at their municipality's centroid, so ~7,000 places serve ~57,000 plessi), the places sorted by
 * longitude with their coordinates as differences. Built with typed arrays and sorted searches, not
 * a string or a map entry per plesso: this runs again after every write the map shows (decision 020).
 */
export async function mapSchoolSites(db: DbOrTx, filters: MapFilters): Promise<MapSchoolSites> {
  const result = (await db.execute(mapSchoolSitesQuery(filters))) as unknown as { rows: TextColumns[] };
  const row = result.rows[0];
  const n = fieldCount(row?.ids);
  const id = integers(row?.ids, n);
  const xy = integers(row?.place, n);
  const province = PROVINCE_CODES.indexes(row?.province, n, 127);
  const level = LEVEL_CODES.indexes(row?.level, n, SCHOOL_LEVELS.length - 1);
  const flags = integers(row?.flags, n);
  const institute = integers(row?.institute, n);

  // Each institute's state; a state outside the dictionary (the column has no CHECK) reads as the first.
  const instituteCount = fieldCount(row?.institute_ids);
  const instituteIds = integers(row?.institute_ids, instituteCount);
  const instituteStates = STATE_CODES.indexes(row?.institute_states, instituteCount, 0);
  const stateOf = new Map<number, number>();
  for (let i = 0; i < instituteIds.length; i++) stateOf.set(instituteIds[i]!, instituteStates[i]!);

  // A place's key: its coordinates × 128 + its province's index (127: unknown), exact below 2^53;
  // without coordinates, -1 - the province's index.
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) key[i] = xy[i]! < 0 ? -1 - province[i]! : xy[i]! * 128 + province[i]!;

  // Distinct places ascending by key (longitude, then latitude, then province); those without
  // coordinates (negative keys, first in the sorted array) go last.
  const sorted = key.slice().sort();
  let distinctCount = 0;
  for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[distinctCount++] = sorted[i]!;
  const distinct = sorted.subarray(0, distinctCount);
  const negatives = positionOf(distinct, 0);
  const positives = distinctCount - negatives;
  const placeIndex = (k: number) => {
    const position = positionOf(distinct, k);
    return position < negatives ? positives + position : position - negatives;
  };
  const placeLon: (number | null)[] = new Array(distinctCount);
  const placeLat: (number | null)[] = new Array(distinctCount);
  const placeProvince: number[] = new Array(distinctCount);
  let previousLon = 0;
  let previousLat = 0;
  for (let position = 0; position < distinctCount; position++) {
    const k = distinct[position]!;
    const index = position < negatives ? positives + position : position - negatives;
    if (k < 0) {
      placeLon[index] = null;
      placeLat[index] = null;
      placeProvince[index] = -1 - k === 127 ? -1 : -1 - k;
      continue;
    }
    const p = k % 128;
    const xyKey = (k - p) / 128;
    const y = (xyKey % 4_194_304) - 2_000_000;
    const x = Math.round((xyKey - (y + 2_000_000)) / 4_194_304) - 2_000_000;
    placeLon[index] = x - previousLon;
    placeLat[index] = y - previousLat;
    placeProvince[index] = p === 127 ? -1 : p;
    previousLon = x;
    previousLat = y;
  }

  // Plessi in id order (the table's order already, almost always: sorted only when needed).
  let order: number[] | null = null;
  for (let i = 1; i < n; i++) {
    if (id[i]! < id[i - 1]!) {
      order = Array.from({ length: n }, (_, k) => k).sort((a, b) => id[a]! - id[b]!);
      break;
    }
  }
  const idDelta = new Array<number>(n);
  const place = new Array<number>(n);
  // The one-digit columns are written as bytes ("d,d,…"): no number is turned into a string.
  const state = new DigitColumn(n);
  const levels = new DigitColumn(n);
  const participating = new DigitColumn(n);
  const detector = new DigitColumn(n);
  let previousId = 0;
  for (let k = 0; k < n; k++) {
    const i = order ? order[k]! : k;
    idDelta[k] = id[i]! - previousId;
    previousId = id[i]!;
    place[k] = placeIndex(key[i]!);
    state.set(k, stateOf.get(institute[i]!) ?? 0);
    levels.set(k, level[i]!);
    participating.set(k, flags[i]! & 1);
    detector.set(k, flags[i]! >> 1);
  }
  return {
    count: n,
    placeCount: distinctCount,
    scale: MAP_COORD_SCALE,
    dictionaries: { state: [...ADHESION_STATES], level: [...SCHOOL_LEVELS], province: [...PROVINCES] },
    places: { lon: encodeColumn(placeLon), lat: encodeColumn(placeLat), province: encodeColumn(placeProvince) },
    idDelta: encodeColumn(idDelta),
    place: encodeColumn(place),
    state: state.text(),
    level: levels.text(),
    participating: participating.text(),
    detector: detector.text(),
  };
}
