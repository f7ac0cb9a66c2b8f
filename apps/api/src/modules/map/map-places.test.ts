import { describe, expect, it } from 'vitest';
import { decodeMapSchoolSites, type MapSchoolSite } from '@portale/shared/map';
import { ADHESION_STATES, SCHOOL_LEVELS } from '@portale/shared/registry';
import { assemble, buildPlaces, statesOf, type WholeRow } from './map-places.ts';

interface Site {
  id: number;
  /** Degrees × MAP_COORD_SCALE, or null without coordinates. */
  lon: number | null;
  lat: number | null;
  province: string;
  participating: boolean;
  detector: boolean;
  level: (typeof SCHOOL_LEVELS)[number];
  institute: number;
}

/** The whole query's row for these plessi, as PostgreSQL writes it (map.repository.ts). */
function wholeRow(sites: Site[], states: Record<number, (typeof ADHESION_STATES)[number]>): WholeRow {
  const fields = sites.flatMap((s) => [
    s.id,
    s.lon === null || s.lat === null ? -1 : (s.lon + 2_000_000) * 4_194_304 + (s.lat + 2_000_000),
    s.province,
    (Number(s.participating) + 2 * Number(s.detector)) * 8 + SCHOOL_LEVELS.indexOf(s.level),
    s.institute,
  ]);
  const ids = Object.keys(states);
  return {
    sites: fields.join(','),
    institute_ids: ids.join(','),
    institute_states: ids.map((id) => states[Number(id)]).join(','),
    places_version: '7',
  };
}

const SITES: Site[] = [
  {
    id: 30,
    lon: 91_900,
    lat: 454_642,
    province: 'MI',
    participating: true,
    detector: false,
    level: 'primaria',
    institute: 1,
  },
  {
    id: 4,
    lon: 91_900,
    lat: 454_642,
    province: 'MI',
    participating: false,
    detector: true,
    level: 'infanzia',
    institute: 2,
  },
  {
    id: 12,
    lon: null,
    lat: null,
    province: 'XX',
    participating: false,
    detector: false,
    level: 'altro',
    institute: 1,
  },
  {
    id: 7,
    lon: -31_000,
    lat: 380_000,
    province: 'PA',
    participating: true,
    detector: true,
    level: 'primaria',
    institute: 3,
  },
];

/** What the web app decodes for a plesso of SITES. */
function decoded(site: Site, state: MapSchoolSite['state']) {
  return {
    id: site.id,
    lon: site.lon === null ? null : site.lon / 10_000,
    lat: site.lat === null ? null : site.lat / 10_000,
    state,
    level: site.level,
    province: site.province === 'XX' ? '' : site.province,
    participating: site.participating,
    detector: site.detector,
  };
}

describe('buildPlaces and assemble', () => {
  const row = wholeRow(SITES, { 1: 'iscritto', 3: 'adesione_firmata' });
  const { places, flags } = buildPlaces(row);
  const byId = [...SITES].sort((a, b) => a.id - b.id);
  const stateOf = (site: Site) =>
    site.institute === 1 ? 'iscritto' : site.institute === 3 ? 'adesione_firmata' : 'nessuna';

  it('keeps the plessi in id order on their distinct places, at the version read', () => {
    expect(places.version).toBe('7');
    expect(Array.from(places.id)).toEqual([4, 7, 12, 30]);
    // Two plessi share Milan; the places are sorted by longitude, the one without coordinates last.
    expect(places.placeX.length).toBe(3);
    expect(Array.from(places.place)).toEqual([1, 0, 2, 1]);
  });

  it('answers every plesso, decoded back as it was written', () => {
    const answer = assemble(places, flags, statesOf(row), {});
    expect(answer.count).toBe(4);
    expect(answer.placeCount).toBe(3);
    expect(decodeMapSchoolSites(answer).map(({ place: _place, ...rest }) => rest)).toEqual(
      byId.map((site) => decoded(site, stateOf(site))),
    );
  });

  it('answers only the plessi and places that pass the programme filters', () => {
    const answer = assemble(places, flags, statesOf(row), { participating: true });
    expect(answer.placeCount).toBe(2);
    expect(decodeMapSchoolSites(answer).map((site) => site.id)).toEqual([7, 30]);
    const enrolled = assemble(places, flags, statesOf(row), {
      adhesionState: 'iscritto',
      detector: 'unassigned',
    });
    expect(decodeMapSchoolSites(enrolled).map((site) => site.id)).toEqual([12, 30]);
  });

  it('answers nothing, without failing, for no plessi', () => {
    const empty = buildPlaces(wholeRow([], {}));
    const answer = assemble(empty.places, empty.flags, statesOf(undefined), {});
    expect(answer.count).toBe(0);
    expect(decodeMapSchoolSites(answer)).toEqual([]);
  });
});
