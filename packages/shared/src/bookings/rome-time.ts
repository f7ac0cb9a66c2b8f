import { onFirstUse } from '../lazy.ts';
/**
 * Wall-clock times in Europe/Rome ("2026-12-03T15:30", what a `datetime-local` field gives) to and
 * from UTC instants, whatever the time zone of the machine running the code.
 */
const PARTS = onFirstUse(
  () =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Rome',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }),
);

/** The wall clock of Rome at `instant`, as numbers (year, month 1–12, day, hour 0–23, minute, second). */
export function romeParts(instant: Date): {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
} {
  const out: Record<string, number> = {};
  for (const p of PARTS().formatToParts(instant)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return {
    year: out.year!,
    month: out.month!,
    day: out.day!,
    hour: out.hour!,
    minute: out.minute!,
    second: out.second!,
  };
}

/** The date in Rome at `instant` (`2026-11-28` at 00:30 Rome, still the 27th in UTC), for file names. */
export function romeDateStamp(instant: Date): string {
  const p = romeParts(instant);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** Minutes Rome is ahead of UTC at `instant` (60 or 120). */
function romeOffsetMinutes(instant: Date): number {
  const p = romeParts(instant);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

export const ROME_LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** `2026-12-03T15:30` (Rome) → the UTC instant; `undefined` when it is not a real date and time. */
export function romeLocalToDate(local: string): Date | undefined {
  const m = ROME_LOCAL_PATTERN.exec(local);
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const naive = Date.UTC(y, mo - 1, d, h, mi);
  const check = new Date(naive);
  if (
    check.getUTCFullYear() !== y ||
    check.getUTCMonth() !== mo - 1 ||
    check.getUTCDate() !== d ||
    h > 23 ||
    mi > 59
  )
    return undefined;
  let instant = naive - romeOffsetMinutes(new Date(naive)) * 60_000;
  instant = naive - romeOffsetMinutes(new Date(instant)) * 60_000;
  return new Date(instant);
}

/** A UTC instant → `2026-12-03T15:30` in Rome (for a `datetime-local` field). */
export function dateToRomeLocal(instant: Date | string): string {
  const p = romeParts(new Date(instant));
  const two = (n: number) => String(n).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`;
}

const DATE = onFirstUse(
  () =>
    new Intl.DateTimeFormat('it-IT', {
      timeZone: 'Europe/Rome',
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }),
);
const TIME = onFirstUse(
  () => new Intl.DateTimeFormat('it-IT', { timeZone: 'Europe/Rome', hour: '2-digit', minute: '2-digit' }),
);

/** "giovedì 3 dicembre 2026, dalle 15:30 alle 17:00" (same day) or with both dates. */
export function formatSlotWhen(startsAt: Date | string, endsAt: Date | string): string {
  const start = new Date(startsAt);
  const end = new Date(endsAt);
  const startDay = DATE().format(start);
  const endDay = DATE().format(end);
  if (startDay === endDay) return `${startDay}, dalle ${TIME().format(start)} alle ${TIME().format(end)}`;
  return `dal ${startDay}, ore ${TIME().format(start)}, al ${endDay}, ore ${TIME().format(end)}`;
}
