import { sql, type SQL } from 'drizzle-orm';
import { ADHESION_STATES, PROVINCES, SCHOOL_LEVELS } from '@portale/shared/registry';
import { encodeColumn, MAP_COORD_SCALE, type MapFilters, type MapSchoolSites } from '@portale/shared/map';
import type { DbOrTx } from '../../db/transaction.ts';

function whereOf(filters: MapFilters): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filters.region) conditions.push(sql`s.region = ${filters.region}`);
  if (filters.province) conditions.push(sql`s.province = ${filters.province}`);
  if (filters.level) conditions.push(sql`s.school_level = ${filters.level}`);
  if (filters.adhesionState) conditions.push(sql`i.adhesion_state = ${filters.adhesionState}`);
  if (filters.participating !== undefined) conditions.push(sql`s.participating = ${filters.participating}`);
  if (filters.detector === 'assigned') conditions.push(sql`s.detector_user_id is not null`);
  if (filters.detector === 'unassigned') conditions.push(sql`s.detector_user_id is null`);
  return sql.join(conditions, sql` and `);
}

/** The columns as comma-separated text: PostgreSQL builds them in one pass, JavaScript splits them (far cheaper than parsing rows or arrays). */
type TextColumns = Record<'ids' | 'place' | 'state' | 'level' | 'flags', string | null>;

/** `array['a','b']::text[]` from constants of our own (never user input). */
function textArray(values: readonly string[]): SQL {
  return sql.raw(`array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[]`);
}

function split(text: string | null | undefined): string[] {
  return text ? text.split(',') : [];
}

/** The one query of the map (exported for the benchmark's raw-SQL reference). */
export function mapSchoolSitesQuery(filters: MapFilters): SQL {
  // Each plesso's place as one exact integer: ((lon + 2e6) × 2^22 + (lat + 2e6)) × 128 + province
  // (coordinates × 1e4 stay below 2^21 in magnitude, a province index below 127; 127 = unknown).
  return sql`
    select string_agg(id::text, ',') as ids,
      string_agg(coalesce(((lon + 2000000) * 4194304 + (lat + 2000000)) * 128 + province, -1 - province)::text, ',') as place,
      string_agg(state::text, ',') as state,
      string_agg(level::text, ',') as level,
      string_agg(flags::text, ',') as flags
    from (
      select s.id,
        round(s.longitude * ${MAP_COORD_SCALE})::bigint as lon,
        round(s.latitude * ${MAP_COORD_SCALE})::bigint as lat,
        coalesce(array_position(${textArray(PROVINCES)}, s.province) - 1, 127) as province,
        array_position(${textArray(ADHESION_STATES)}, i.adhesion_state) - 1 as state,
        coalesce(array_position(${textArray(SCHOOL_LEVELS)}, s.school_level) - 1, ${SCHOOL_LEVELS.length - 1}) as level,
        s.participating::int + 2 * (s.detector_user_id is not null)::int as flags
      from school_sites s join institutes i on i.id = s.institute_id
      where ${whereOf(filters)}
    ) as sites`;
}

/**
 * Every plesso matching the filters in the columnar encoding of `MapSchoolSitesSchema`: ids ascending
 * as differences, and each plesso pointing at one of the distinct places (the registry places plessi
 * at their municipality's centroid, so ~7,000 places serve ~57,000 plessi), the places sorted by
 * longitude with their coordinates as differences.
 */
export async function mapSchoolSites(db: DbOrTx, filters: MapFilters): Promise<MapSchoolSites> {
  const result = (await db.execute(mapSchoolSitesQuery(filters))) as unknown as { rows: TextColumns[] };
  const row = result.rows[0];
  const ids = split(row?.ids);
  const places = split(row?.place);
  const states = split(row?.state);
  const levels = split(row?.level);
  const flags = split(row?.flags);
  const n = ids.length;
  const id = new Float64Array(n);
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    id[i] = +ids[i]!;
    key[i] = +places[i]!;
  }

  // Distinct places sorted by key (longitude, then latitude, then province); no coordinates last.
  const distinct = [...new Set(key)].sort((a, b) => (a < 0 ? Infinity : a) - (b < 0 ? Infinity : b) || a - b);
  const placeOf = new Map<number, number>();
  const placeLon: (number | null)[] = new Array(distinct.length);
  const placeLat: (number | null)[] = new Array(distinct.length);
  const placeProvince: number[] = new Array(distinct.length);
  let previousLon = 0;
  let previousLat = 0;
  distinct.forEach((k, index) => {
    placeOf.set(k, index);
    if (k < 0) {
      placeLon[index] = null;
      placeLat[index] = null;
      placeProvince[index] = -1 - k === 127 ? -1 : -1 - k;
      return;
    }
    const p = k % 128;
    const xy = (k - p) / 128;
    const y = (xy % 4_194_304) - 2_000_000;
    const x = Math.round((xy - (y + 2_000_000)) / 4_194_304) - 2_000_000;
    placeLon[index] = x - previousLon;
    placeLat[index] = y - previousLat;
    placeProvince[index] = p === 127 ? -1 : p;
    previousLon = x;
    previousLat = y;
  });

  // Plessi in id order (the table's order already, almost always: sorted only when needed).
  let order: number[] | null = null;
  for (let i = 1; i < n; i++) {
    if (id[i]! < id[i - 1]!) {
      order = Array.from({ length: n }, (_, k) => k).sort((a, b) => id[a]! - id[b]!);
      break;
    }
  }
  const out = {
    idDelta: new Array<number>(n),
    place: new Array<number>(n),
    state: new Array<number>(n),
    level: new Array<number>(n),
    participating: new Array<number>(n),
    detector: new Array<number>(n),
  };
  let previousId = 0;
  for (let k = 0; k < n; k++) {
    const i = order ? order[k]! : k;
    out.idDelta[k] = id[i]! - previousId;
    previousId = id[i]!;
    out.place[k] = placeOf.get(key[i]!)!;
    out.state[k] = +states[i]!;
    out.level[k] = +levels[i]!;
    const f = +flags[i]!;
    out.participating[k] = f & 1;
    out.detector[k] = f >> 1;
  }
  return {
    count: n,
    placeCount: distinct.length,
    scale: MAP_COORD_SCALE,
    dictionaries: { state: [...ADHESION_STATES], level: [...SCHOOL_LEVELS], province: [...PROVINCES] },
    places: { lon: encodeColumn(placeLon), lat: encodeColumn(placeLat), province: encodeColumn(placeProvince) },
    idDelta: encodeColumn(out.idDelta),
    place: encodeColumn(out.place),
    state: encodeColumn(out.state),
    level: encodeColumn(out.level),
    participating: encodeColumn(out.participating),
    detector: encodeColumn(out.detector),
  };
}
