import { describe, expect, it } from 'vitest';
import { decodeMapColumns, encodeColumn, MAP_COORD_SCALE } from '@portale/shared/map';
import { ADHESION_STATES, SCHOOL_LEVELS } from '@portale/shared/registry';
import { countByRegion } from './site-counts-table.tsx';

describe('countByRegion', () => {
  it('counts the plessi per province and region (registry order), by participation, detector and state', () => {
    // Pavia (two places), Milano and Roma; one Roma plesso without coordinates still counts.
    const sites = decodeMapColumns({
      count: 5,
      placeCount: 4,
      scale: MAP_COORD_SCALE,
      dictionaries: { state: [...ADHESION_STATES], level: [...SCHOOL_LEVELS], province: ['PV', 'MI', 'RM'] },
      places: {
        lon: encodeColumn([91_587, 1_000, 300, null]),
        lat: encodeColumn([451_847, 100, 200, null]),
        province: encodeColumn([0, 0, 1, 2]),
      },
      idDelta: encodeColumn([1, 1, 1, 1, 1]),
      place: encodeColumn([0, 1, 1, 2, 3]),
      state: encodeColumn([0, 1, 1, 2, 0]),
      level: encodeColumn([0, 0, 0, 0, 0]),
      participating: encodeColumn([1, 1, 0, 0, 1]),
      detector: encodeColumn([0, 1, 0, 0, 0]),
    });
    const rows = countByRegion(sites);
    expect(
      rows.map((r) => [r.region, r.counts.total, r.provinces.map((p) => [p.province, p.counts.total])]),
    ).toEqual([
      ['Lazio', 1, [['RM', 1]]],
      [
        'Lombardia',
        4,
        [
          ['MI', 1],
          ['PV', 3],
        ],
      ],
    ]);
    const lombardia = rows[1]!.counts;
    expect([lombardia.participating, lombardia.detector]).toEqual([2, 1]);
    expect(lombardia.byState[ADHESION_STATES[0]]).toBe(1);
    expect(lombardia.byState[ADHESION_STATES[1]]).toBe(2);
    expect(lombardia.byState[ADHESION_STATES[2]]).toBe(1);
  });
});
