import { onFirstUse } from '@portale/shared/lazy';
const ZONE = 'Europe/Rome';
const dateTime = onFirstUse(() => new Intl.DateTimeFormat('it-IT', { dateStyle: 'long', timeStyle: 'short', timeZone: ZONE }));
const shortDateTime = onFirstUse(() => new Intl.DateTimeFormat('it-IT', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: ZONE,
}));
const date = onFirstUse(() => new Intl.DateTimeFormat('it-IT', { dateStyle: 'long', timeZone: ZONE }));
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

/**
 * A whole number with Italian thousands separators from four digits on (1.234; CLDR's it-IT leaves
 * them out below 10.000), rounded as Intl rounds (half away from zero). Built without Intl: the first
 * Intl formatter of a page costs 40–80 ms on a slow machine (ICU loads its data), one long task on
 * the public pages that show a figure; the unit test checks it against Intl.
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER) return String(value);
  const rounded = Math.sign(value) * Math.round(Math.abs(value));
  const digits = String(Math.abs(rounded));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let i = grouped.length; i < digits.length; i += 3) grouped += `.${digits.slice(i, i + 3)}`;
  return rounded < 0 ? `-${grouped}` : grouped;
}

const MONTHS = ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'];

/** A calendar day (YYYY-MM-DD, no time zone) as an Italian date: "1 marzo 2027". Without Intl, as `formatNumber`. */
export function formatDay(isoDay: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || !month) return isoDay;
  return `${Number(match[3])} ${month} ${match[1]}`;
}

/** A size in bytes, kB or MB with an Italian decimal comma. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} byte`;
  if (bytes < 1024 * 1024) return `${decimal().format(bytes / 1024)} kB`;
  return `${decimal().format(bytes / (1024 * 1024))} MB`;
}

/** "1 istituto" / "2 istituti": a count with the right Italian noun. */
export function formatCount(value: number, one: string, many: string): string {
  return `${formatNumber(value)} ${value === 1 ? one : many}`;
}
