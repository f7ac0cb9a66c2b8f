const dateTime = new Intl.DateTimeFormat('it-IT', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Rome' });

/** An ISO instant shown in Europe/Rome with the Italian format. */
export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}
