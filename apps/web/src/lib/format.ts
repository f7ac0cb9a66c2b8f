import { onFirstUse } from '@portale/shared/lazy';
const ZONE = 'Europe/Rome';
const dateTime = onFirstUse(
  () => new Intl.DateTimeFormat('it-IT', { dateStyle: 'long', timeStyle: 'short', timeZone: ZONE }),
);
const shortDateTime = onFirstUse(
  () =>
    new Intl.DateTimeFormat('it-IT', {
      dateStyle: 'short',
      timeStyle: 'short',
      timeZone: ZONE,
    }),
);
const date = onFirstUse(() => new Intl.DateTimeFormat('it-IT', { dateStyle: 'long', timeZone: ZONE }));

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
 * A number with a fixed count of decimals (0 to 3), the Italian decimal comma and thousands grouped
 * from four digits on (1.234,5; CLDR's it-IT leaves them out below 10.000), rounded as Intl rounds:
 * half away from zero, on the number's shortest decimal form (0.15 → 0,2, where `toFixed` gives 0.1).
 * Built without Intl: the first Intl formatter of a page costs 40–80 ms on a slow machine (ICU loads
 * its data), one long task on the public pages that show a figure; the unit test checks it against Intl.
 */
export function formatDecimal(value: number, decimals: 0 | 1 | 2 | 3): string {
  const abs = Math.abs(value);
  if (!Number.isFinite(value) || abs >= 1e21) return String(value);
  // Below 1e-6 the shortest form has an exponent; such a number rounds to zero at 3 decimals.
  const [int = '0', frac = ''] = abs < 1e-6 ? ['0'] : String(abs).split('.');
  let digits = int + frac.slice(0, decimals).padEnd(decimals, '0');
  if ((frac[decimals] ?? '0') >= '5') digits = (BigInt(digits) + 1n).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  let grouped = whole.slice(0, whole.length % 3 || 3);
  for (let i = grouped.length; i < whole.length; i += 3) grouped += `.${whole.slice(i, i + 3)}`;
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return decimals ? `${sign}${grouped},${digits.slice(whole.length)}` : `${sign}${grouped}`;
}

/** A count with Italian thousands separators (19.659); see `formatDecimal`. */
export function formatNumber(value: number): string {
  return formatDecimal(value, 0);
}

const MONTHS = [
  'gennaio',
  'febbraio',
  'marzo',
  'aprile',
  'maggio',
  'giugno',
  'luglio',
  'agosto',
  'settembre',
  'ottobre',
  'novembre',
  'dicembre',
];

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
  if (bytes < 1024 * 1024) return `${formatDecimal(bytes / 1024, 1).replace(/,0$/, '')} kB`;
  return `${formatDecimal(bytes / (1024 * 1024), 1).replace(/,0$/, '')} MB`;
}

/** "1 istituto" / "2 istituti": a count with the right Italian noun. */
export function formatCount(value: number, one: string, many: string): string {
  return `${formatNumber(value)} ${value === 1 ? one : many}`;
}
