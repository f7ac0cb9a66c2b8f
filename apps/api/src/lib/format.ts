const ROME = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** "21 novembre 2026 alle ore 10:00" in Europe/Rome, for message bodies. */
export function formatRomeDateTime(date: Date): string {
  const parts = Object.fromEntries(ROME.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.day} ${parts.month} ${parts.year} alle ore ${parts.hour}:${parts.minute}`;
}
