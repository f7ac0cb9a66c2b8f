import { describe, expect, it } from 'vitest';
import { csvField, isFormulaLike, romeDateStamp } from './export.ts';

describe('CSV cells (docs/decisions/034)', () => {
  it('writes instants as their date and time in Rome, days as dd/mm/yyyy', () => {
    expect(csvField(new Date('2026-11-24T13:12:05.454Z'))).toBe('24/11/2026 14:12');
    expect(csvField(new Date('2026-07-01T22:30:00Z'))).toBe('02/07/2026 00:30');
    expect(csvField('2026-11-20', 'date')).toBe('20/11/2026');
    // An instant as a calendar day is its day in Rome (23:30 UTC on the 19th is the 20th there).
    expect(csvField(new Date('2026-11-19T23:30:00Z'), 'date')).toBe('20/11/2026');
    expect(csvField(null, 'date')).toBe('');
  });

  it('writes numbers with a decimal comma and no grouping, percentages with one decimal', () => {
    expect(csvField(1234567)).toBe('1234567');
    expect(csvField(3.5)).toBe('3,5');
    expect(csvField(60, 'percent')).toBe('60,0');
    expect(csvField(33.333, 'percent')).toBe('33,3');
    expect(csvField(true)).toBe('Sì');
  });

  it('neutralises what a spreadsheet would run, and leaves phone numbers and dashed names alone', () => {
    for (const text of [
      '=1+1',
      '@SUM(A1)',
      '+HYPERLINK("http://x")',
      "-2+3+cmd|' /C calc'!A0",
      '\t=1',
      '-Sheet1!A1',
    ])
      expect(isFormulaLike(text), text).toBe(true);
    for (const text of ['+39 333 765 4321', '- SEZ. ASSOCIATA', '-', '+1', 'Rossi', '1+1'])
      expect(isFormulaLike(text), text).toBe(false);
    expect(csvField('+39 333 765 4321')).toBe('+39 333 765 4321');
    expect(csvField('- SEZ. ASSOCIATA')).toBe('- SEZ. ASSOCIATA');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+HYPERLINK("x")')).toBe(`"'+HYPERLINK(""x"")"`);
    expect(csvField('a;b')).toBe('"a;b"');
  });

  it('names files with the date in Rome', () => {
    expect(romeDateStamp(new Date('2026-11-27T23:30:00Z'))).toBe('2026-11-28');
    expect(romeDateStamp(new Date('2026-11-27T10:00:00Z'))).toBe('2026-11-27');
  });
});
