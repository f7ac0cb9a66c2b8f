import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADHESION_STATES, SCHOOL_LEVELS } from '../registry/index.ts';
import {
  decodeMapColumns,
  decodeMapSchoolSites,
  encodeColumn,
  MAP_COLUMN_PATTERN,
  MAP_COORD_SCALE,
  MapSchoolSitesSchema,
  parseColumn,
  type MapSchoolSites,
} from './map.schemas.ts';

/** Three plessi: two share a place (Pavia), one has no coordinates. */
function answer(overrides: Partial<MapSchoolSites> = {}): MapSchoolSites {
  return MapSchoolSitesSchema.parse({
    count: 3,
    placeCount: 2,
    scale: MAP_COORD_SCALE,
    dictionaries: { state: [...ADHESION_STATES], level: [...SCHOOL_LEVELS], province: ['PV', 'RM'] },
    places: {
      lon: encodeColumn([91_587, null]),
      lat: encodeColumn([451_847, null]),
      province: encodeColumn([0, 1]),
    },
    idDelta: encodeColumn([4, 3, 100]),
    place: encodeColumn([0, 1, 0]),
    state: encodeColumn([1, 0, 2]),
    level: encodeColumn([0, 1, 0]),
    participating: encodeColumn([1, 0, 0]),
    detector: encodeColumn([0, 0, 1]),
    ...overrides,
  });
}

describe('MAP_COLUMN_PATTERN', () => {
  const grouped = /^(-?\d+)?(,(-?\d+)?)*$/;
  it('accepts exactly the columns of the grouped pattern', () => {
    const text = fc.string({ unit: fc.constantFrom('-', ',', '0', '7', 'a', ' ', '\n'), maxLength: 12 });
    fc.assert(
      fc.property(text, (t) => MAP_COLUMN_PATTERN.test(t) === grouped.test(t)),
      { numRuns: 20_000 },
    );
  });
  it('accepts a whole country of values in one linear scan', () => {
    const text = encodeColumn(
      Array.from({ length: 60_000 }, (_, i) => (i % 50 ? ((i * 7919) % 3000) - 1000 : null)),
    );
    expect(MAP_COLUMN_PATTERN.test(text)).toBe(true);
    expect(MAP_COLUMN_PATTERN.test(`${text},-`)).toBe(false);
  });
});

describe('parseColumn', () => {
  it('reads integers, negative ones and missing values (NaN)', () => {
    expect(Array.from(parseColumn('12,-3,,0', 4))).toEqual([12, -3, NaN, 0]);
    expect(Array.from(parseColumn('', 1))).toEqual([NaN]);
    expect(parseColumn('', 0)).toHaveLength(0);
  });
  it('refuses anything but integers, and a wrong number of values', () => {
    for (const text of ['1,a', '1.5', '-', '1,-', '--1', ' 1'])
      expect(() => parseColumn(text, text.split(',').length), text).toThrow();
    expect(() => parseColumn('1,2,3', 2)).toThrow();
    expect(() => parseColumn('1,2', 3)).toThrow();
  });
});

describe('decodeMapColumns', () => {
  it('turns the answer into typed columns: ids summed, places with degrees, NaN without coordinates', () => {
    const columns = decodeMapColumns(answer());
    expect(columns.count).toBe(3);
    expect(Array.from(columns.id)).toEqual([4, 7, 107]);
    expect(Array.from(columns.place)).toEqual([0, 1, 0]);
    expect(columns.places.count).toBe(2);
    expect(columns.places.lon[0]).toBeCloseTo(9.1587);
    expect(columns.places.lat[0]).toBeCloseTo(45.1847);
    expect(columns.places.lon[1]).toBeNaN();
    expect(columns.places.province).toEqual(['PV', 'RM']);
    expect(Array.from(columns.participating)).toEqual([1, 0, 0]);
    expect(Array.from(columns.detector)).toEqual([0, 0, 1]);
  });
  it('gives the same plessi as the rows', () => {
    expect(decodeMapSchoolSites(answer())).toEqual([
      {
        id: 4,
        place: 0,
        lon: 9.1587,
        lat: 45.1847,
        state: ADHESION_STATES[1],
        level: SCHOOL_LEVELS[0],
        province: 'PV',
        participating: true,
        detector: false,
      },
      {
        id: 7,
        place: 1,
        lon: null,
        lat: null,
        state: ADHESION_STATES[0],
        level: SCHOOL_LEVELS[1],
        province: 'RM',
        participating: false,
        detector: false,
      },
      {
        id: 107,
        place: 0,
        lon: 9.1587,
        lat: 45.1847,
        state: ADHESION_STATES[2],
        level: SCHOOL_LEVELS[0],
        province: 'PV',
        participating: false,
        detector: true,
      },
    ]);
  });
  it('refuses a plesso whose place is not in the answer', () => {
    expect(() => decodeMapColumns(answer({ place: encodeColumn([0, 2, 0]) }))).toThrow(/Luogo sconosciuto/);
    expect(() => decodeMapColumns(answer({ place: encodeColumn([0, null, 0]) }))).toThrow(
      /Luogo sconosciuto/,
    );
  });
  it('reads an empty answer', () => {
    const empty = answer({
      count: 0,
      placeCount: 0,
      places: { lon: '', lat: '', province: '' },
      idDelta: '',
      place: '',
      state: '',
      level: '',
      participating: '',
      detector: '',
    });
    expect(decodeMapColumns(empty).count).toBe(0);
    expect(decodeMapSchoolSites(empty)).toEqual([]);
  });
});
