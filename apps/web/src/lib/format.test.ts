import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBytes, formatDay, formatNumber } from './format.ts';

// formatNumber and formatDay are built without Intl (its first use costs a page 40–80 ms): they must
// say what Intl says, with the app's Italian style (thousands grouped from four digits on).
const INTEGER = new Intl.NumberFormat('it-IT', { useGrouping: 'always', maximumFractionDigits: 0 });
const DAY = new Intl.DateTimeFormat('it-IT', { timeZone: 'UTC', dateStyle: 'long' });

describe('formatNumber', () => {
  it('groups thousands with a dot from four digits on', () => {
    expect([0, 7, 999, 1234, 19659, 56887, 1000000, -1234].map(formatNumber)).toEqual(['0', '7', '999', '1.234', '19.659', '56.887', '1.000.000', '-1.234']);
  });

  it('says what Intl says for any integer and any rounded number', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => formatNumber(n) === INTEGER.format(n)), { numRuns: 5000 });
    fc.assert(fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (n) => formatNumber(n) === INTEGER.format(n).replace(/^-0$/, '0')), { numRuns: 5000 });
  });

  it('keeps what is not a finite number readable', () => {
    expect([Number.NaN, Infinity].map(formatNumber)).toEqual(['NaN', 'Infinity']);
  });

  it('serves the byte sizes', () => {
    expect(formatBytes(1000)).toBe('1.000 byte');
  });
});

describe('formatDay', () => {
  it('says what Intl says for every calendar day from 1900 to 2100', () => {
    const day = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    fc.assert(fc.property(day, (iso) => formatDay(iso) === DAY.format(new Date(`${iso}T00:00:00Z`))), { numRuns: 5000 });
  });

  it('leaves what is not a calendar day as it came', () => {
    expect([formatDay('2027-13-01'), formatDay('ieri')]).toEqual(['2027-13-01', 'ieri']);
  });
});
