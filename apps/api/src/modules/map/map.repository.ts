import { sql, type SQL } from 'drizzle-orm';
import { SCHOOL_LEVELS } from '@portale/shared/registry';
import { MAP_COORD_SCALE, type MapFilters, type MapSchoolSites } from '@portale/shared/map';
import type { DbOrTx } from '../../db/transaction.ts';
import { dataVersionSql, foldIfLong } from '../../lib/data-version.repository.ts';
import { enrolledInstitute } from '../registry/index.ts';
import { integers } from './map-columns.ts';
import {
  assemble,
  buildPlaces,
  statesOf,
  type MapPlaces,
  type ProgrammeRow,
  type WholeRow,
} from './map-places.ts';

export type { MapPlaces } from './map-places.ts';

/** The data-version topic of what places a plesso (migration 0015). */
export const PLACES_TOPIC = 'map-places';

/**
 * The filters on what the map keeps between writes (which plessi, where, which level), applied in
 * SQL. Participation, detector and the institute's state change with the programme: they are
 * applied to the kept plessi in JavaScript (`dynamicFilterOf` in map-places.ts).
 */
function placesWhereOf(filters: MapFilters): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filters.region) conditions.push(sql`s.region = ${filters.region}`);
  if (filters.province) conditions.push(sql`s.province = ${filters.province}`);
  if (filters.level) conditions.push(sql`s.school_level = ${filters.level}`);
  return sql.join(conditions, sql` and `);
}

/** Participation (1) and detector (2) of a plesso as one number. */
const FLAG_BITS = sql`(s.participating::int + 2 * (s.detector_user_id is not null)::int)`;
const FLAGS = sql`${FLAG_BITS}::text`;
/** A plesso's level as its index in SCHOOL_LEVELS (an unknown level reads as the last, 'altro'). */
const LEVEL_INDEX = sql`case s.school_level ${sql.join(
  SCHOOL_LEVELS.map((level, index) => sql`when ${level} then ${index}::int`),
  sql` `,
)} else ${SCHOOL_LEVELS.length - 1}::int end`;
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
