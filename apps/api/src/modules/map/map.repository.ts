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
type TextColumns = Record<'ids' | 'lon' | 'lat' | 'state' | 'level' | 'province' | 'flags', string | null>;

const indexOf = (values: readonly string[]) => new Map(values.map((v, i) => [v, i]));
const STATE_INDEX = indexOf(ADHESION_STATES);
const LEVEL_INDEX = indexOf(SCHOOL_LEVELS);
const PROVINCE_INDEX = indexOf(PROVINCES);

function split(text: string | null | undefined): string[] {
  return text ? text.split(',') : [];
}

/**
 * Every plesso matching the filters in the columnar encoding of `MapSchoolSitesSchema`: ids ascending
 * as differences, and each plesso pointing at one of the distinct places (the registry places plessi
 * at their municipality's centroid, so ~7,000 places serve ~57,000 plessi), the places sorted by
 * longitude with their coordinates as differences.
 */
export async function mapSchoolSites(db: DbOrTx, filters: MapFilters): Promise<MapSchoolSites> {
  const result = (await db.execute(sql`
    select string_agg(s.id::text, ',') as ids,
      string_agg(coalesce(round(s.longitude * ${MAP_COORD_SCALE})::int::text, ''), ',') as lon,
      string_agg(coalesce(round(s.latitude * ${MAP_COORD_SCALE})::int::text, ''), ',') as lat,
      string_agg(i.adhesion_state, ',') as state,
      string_agg(s.school_level, ',') as level,
      string_agg(s.province, ',') as province,
      string_agg((s.participating::int + 2 * (s.detector_user_id is not null)::int)::text, ',') as flags
    from school_sites s join institutes i on i.id = s.institute_id
    where ${whereOf(filters)}`)) as unknown as { rows: TextColumns[] };
  const row = result.rows[0];
  const ids = split(row?.ids).map(Number);
  const lon = split(row?.lon);
  const lat = split(row?.lat);
  const state = split(row?.state);
  const level = split(row?.level);
  const province = split(row?.province);
  const flags = split(row?.flags).map(Number);
  const n = ids.length;

  // Plessi in id order.
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => ids[a]! - ids[b]!);

  // Distinct places (longitude, latitude, province), sorted by longitude then latitude.
  const placeKey = (i: number) => `${lon[i]}|${lat[i]}|${province[i]}`;
  const places = new Map<string, { lon: number | null; lat: number | null; province: number; index: number }>();
  for (let i = 0; i < n; i++) {
    const key = placeKey(i);
    if (!places.has(key)) {
      places.set(key, {
        lon: lon[i] ? Number(lon[i]) : null,
        lat: lat[i] ? Number(lat[i]) : null,
        province: PROVINCE_INDEX.get(province[i]!) ?? -1,
        index: 0,
      });
    }
  }
  const sortedPlaces = [...places.values()].sort((a, b) => (a.lon ?? Infinity) - (b.lon ?? Infinity) || (a.lat ?? Infinity) - (b.lat ?? Infinity) || a.province - b.province);
  const placeLon: (number | null)[] = [];
  const placeLat: (number | null)[] = [];
  let previousLon = 0;
  let previousLat = 0;
  sortedPlaces.forEach((place, index) => {
    place.index = index;
    if (place.lon === null || place.lat === null) {
      placeLon.push(null);
      placeLat.push(null);
    } else {
      placeLon.push(place.lon - previousLon);
      placeLat.push(place.lat - previousLat);
      previousLon = place.lon;
      previousLat = place.lat;
    }
  });

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
    const i = order[k]!;
    out.idDelta[k] = ids[i]! - previousId;
    previousId = ids[i]!;
    out.place[k] = places.get(placeKey(i))!.index;
    out.state[k] = STATE_INDEX.get(state[i]!) ?? 0;
    out.level[k] = LEVEL_INDEX.get(level[i]!) ?? SCHOOL_LEVELS.length - 1;
    out.participating[k] = flags[i]! & 1;
    out.detector[k] = flags[i]! >> 1;
  }
  return {
    count: n,
    placeCount: sortedPlaces.length,
    scale: MAP_COORD_SCALE,
    dictionaries: { state: [...ADHESION_STATES], level: [...SCHOOL_LEVELS], province: [...PROVINCES] },
    places: { lon: encodeColumn(placeLon), lat: encodeColumn(placeLat), province: encodeColumn(sortedPlaces.map((p) => p.province)) },
    idDelta: encodeColumn(out.idDelta),
    place: encodeColumn(out.place),
    state: encodeColumn(out.state),
    level: encodeColumn(out.level),
    participating: encodeColumn(out.participating),
    detector: encodeColumn(out.detector),
  };
}
