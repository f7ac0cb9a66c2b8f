import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBytes, formatDay, formatDecimal, formatNumber } from './format.ts';

// formatNumber, formatDecimal and formatDay are built without Intl (its first use costs a page 40–80 ms): they must
// say what Intl says, with the app's Italian style (thousands grouped from four digits on).
const INTEGER = new Intl.NumberFormat('it-IT', { useGrouping: 'always', maximumFractionDigits: 0 });
const DAY = new Intl.DateTimeFormat('it-IT', { timeZone: 'UTC', dateStyle: 'long' });

describe('formatNumber', () => {
  it('groups thousands with a dot from four digits on', () => {
    expect([0, 7, 999, 1234, 19659, 56887, 1000000, -1234].map(formatNumber)).toEqual([
      '0',
      '7',
      '999',
      '1.234',
      '19.659',
      '56.887',
      '1.000.000',
      '-1.234',
    ]);
  });

  it('says what Intl says for any integer and any rounded number', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => formatNumber(n) === INTEGER.format(n)),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(
        fc.double({ min: -1e15, max: 1e15, noNaN: true }),
        (n) => formatNumber(n) === INTEGER.format(n),
      ),
      { numRuns: 5000 },
    );
  });

  it('keeps what is not a finite number readable', () => {
    expect([Number.NaN, Infinity].map(formatNumber)).toEqual(['NaN', 'Infinity']);
  });

  it('serves the byte sizes with at most one decimal', () => {
    expect([1000, 1536, 2048, 5 * 1024 * 1024 + 100_000].map(formatBytes)).toEqual([
      '1.000 byte',
      '1,5 kB',
      '2 kB',
      '5,1 MB',
    ]);
  });
});

describe('formatDecimal', () => {
  it('writes percentages and means the Italian way', () => {
    expect([
      formatDecimal(12.345, 1),
      formatDecimal(100, 1),
      formatDecimal(3.456, 2),
      formatDecimal(12345.678, 2),
    ]).toEqual(['12,3', '100,0', '3,46', '12.345,68']);
    // Halves of the shortest decimal form go up, as in Intl (toFixed would give 0.1, 2.67 and 1.00).
    expect([
      formatDecimal(0.15, 1),
      formatDecimal(2.675, 2),
      formatDecimal(1.005, 2),
      formatDecimal(-0.04, 1),
    ]).toEqual(['0,2', '2,68', '1,01', '-0,0']);
  });

  it('says what Intl says for any number and count of decimals', () => {
    const formats = [0, 1, 2, 3].map(
      (d) =>
        new Intl.NumberFormat('it-IT', {
          useGrouping: 'always',
          minimumFractionDigits: d,
          maximumFractionDigits: d,
        }),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: -1e15, max: 1e15, noNaN: true }),
          fc.integer({ min: -100_000, max: 100_000 }).map((n) => n / 1000),
        ),
        fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const),
        (n, d) => formatDecimal(n, d) === formats[d]!.format(n),
      ),
      { numRuns: 10_000 },
    );
  });
});

describe('formatDay', () => {
  it('says what Intl says for every calendar day from 1900 to 2100', () => {
    const day = fc
      .date({
        min: new Date('1900-01-01T00:00:00Z'),
        max: new Date('2100-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, (iso) => formatDay(iso) === DAY.format(new Date(`${iso}T00:00:00Z`))),
      { numRuns: 5000 },
    );
  });

  it('leaves what is not a calendar day as it came', () => {
    expect([formatDay('2027-13-01'), formatDay('ieri')]).toEqual(['2027-13-01', 'ieri']);
  });
});
