import { describe, expect, it } from 'vitest';
import { unsentLabel, waitingFor } from './sync-age.ts';

describe('how long a report has waited', () => {
  const now = new Date('2026-11-28T12:00:00Z');
  it('says hours under a day and days after, in Italian', () => {
    expect(waitingFor('2026-11-28T11:30:00Z', now)).toBe("da meno di un'ora");
    expect(waitingFor('2026-11-28T11:00:00Z', now)).toBe("da un'ora");
    expect(waitingFor('2026-11-28T01:00:00Z', now)).toBe('da 11 ore');
    expect(waitingFor('2026-11-27T11:00:00Z', now)).toBe('da un giorno');
    expect(waitingFor('2026-11-25T12:00:00Z', now)).toBe('da 3 giorni');
  });
  it('never says a negative age (a device clock ahead of the server)', () => {
    expect(waitingFor('2026-11-29T12:00:00Z', now)).toBe("da meno di un'ora");
  });
});

describe("staff's view of a detector's devices", () => {
  const now = new Date('2026-11-28T12:00:00Z');
  const at = '2026-11-28T11:00:00Z';
  it('says how many reports wait and since when', () => {
    expect(
      unsentLabel({ unsentReports: 2, oldestUnsentAt: '2026-11-25T10:00:00Z', queueReportedAt: at }, now),
    ).toBe('2 report non inviati da 3 giorni');
    expect(
      unsentLabel({ unsentReports: 1, oldestUnsentAt: '2026-11-28T07:00:00Z', queueReportedAt: at }, now),
    ).toBe('1 report non inviato da 5 ore');
  });
  it('tells "none" from "never heard from the device"', () => {
    expect(unsentLabel({ unsentReports: 0, oldestUnsentAt: null, queueReportedAt: at }, now)).toBe('Nessuno');
    expect(unsentLabel({ unsentReports: 0, oldestUnsentAt: null, queueReportedAt: null }, now)).toBe(
      'Nessun dato dal dispositivo',
    );
  });
});
