import { describe, expect, it } from 'vitest';
import { personalDataFileName } from './personal-data.tsx';

describe('personalDataFileName', () => {
  it('names the file with the date in Rome, not in UTC', () => {
    // 00:30 in Rome on 28 November is still 27 November in UTC.
    expect(personalDataFileName(new Date('2026-11-27T23:30:00Z'))).toBe('i-miei-dati-2026-11-28.json');
    expect(personalDataFileName(new Date('2026-11-27T10:00:00Z'))).toBe('i-miei-dati-2026-11-27.json');
    // Summer time: 00:30 in Rome is 22:30 UTC of the day before.
    expect(personalDataFileName(new Date('2026-07-14T22:30:00Z'))).toBe('i-miei-dati-2026-07-15.json');
  });
});
