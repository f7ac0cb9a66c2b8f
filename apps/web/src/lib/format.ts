import { onFirstUse } from '@portale/shared/lazy';
const ZONE = 'Europe/Rome';
const dateTime = onFirstUse(() => new Intl.DateTimeFormat('it-IT', { dateStyle: 'long', timeStyle: 'short', timeZone: ZONE }));
const shortDateTime = onFirstUse(() => new Intl.DateTimeFormat('it-IT', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: ZONE,
}));
const date = onFirstUse(() => new Intl.DateTimeFormat('it-IT', { dateStyle: 'long', timeZone: ZONE }));
// Italian style groups thousands from four digits on (1.234), which CLDR's it-IT leaves out.
const integer = onFirstUse(() => new Intl.NumberFormat('it-IT', { useGrouping: 'always', maximumFractionDigits: 0 }));
const decimal = onFirstUse(() => new Intl.NumberFormat('it-IT', { useGrouping: 'always', maximumFractionDigits: 1 }));

/** An ISO instant shown in Europe/Rome with the Italian format. */
export function formatDateTime(iso: string): string {
  return dateTime().format(new Date(iso));
}

/** An ISO instant as a compact Italian date and time (tables), in Europe/Rome. */
export function formatShortDateTime(iso: string): string {
  return shortDateTime().format(new Date(iso));
}

/** An ISO instant as an Italian date, in Europe/Rome. */
export function formatDate(iso: string): string {
  return date().format(new Date(iso));
}

/** A count with Italian thousands separators (19.659). */
export function formatNumber(value: number): string {
  return integer().format(value);
}

/** A size in bytes, kB or MB with an Italian decimal comma. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${integer().format(bytes)} byte`;
  if (bytes < 1024 * 1024) return `${decimal().format(bytes / 1024)} kB`;
  return `${decimal().format(bytes / (1024 * 1024))} MB`;
}

/** "1 istituto" / "2 istituti": a count with the right Italian noun. */
export function formatCount(value: number, one: string, many: string): string {
  return `${formatNumber(value)} ${value === 1 ? one : many}`;
}
