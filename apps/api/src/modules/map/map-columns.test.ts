import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeColumn, parseColumn } from '@portale/shared/map';
import { naturalsColumn } from './map-columns.ts';

describe('naturalsColumn', () => {
  it('writes what encodeColumn writes, and parseColumn reads the numbers back', () => {
    const natural = fc.oneof(
      fc.nat(),
      fc.maxSafeNat(),
      fc.constantFrom(0, 9, 10, 99, 100, Number.MAX_SAFE_INTEGER),
    );
    fc.assert(
      fc.property(fc.array(natural, { maxLength: 200 }), (values) => {
        const text = naturalsColumn(values);
        expect(text).toBe(encodeColumn(values));
        expect(Array.from(parseColumn(text, values.length))).toEqual(values);
        expect(naturalsColumn(Float64Array.from(values))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what is not a natural number', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      expect(() => naturalsColumn([1, bad])).toThrow();
  });
});
