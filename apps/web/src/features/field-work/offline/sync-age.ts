/**
 * How long a report has waited, in Italian words ("da 3 giorni"), for the detector's sync status and
 * staff's view of a detector's device (issue 39). Whole hours under a day, whole days after.
 */
export function waitingFor(sinceIso: string, now: Date = new Date()): string {
  const ms = Math.max(0, now.getTime() - new Date(sinceIso).getTime());
  const hours = Math.floor(ms / 3_600_000);
  if (hours < 1) return "da meno di un'ora";
  if (hours < 24) return hours === 1 ? "da un'ora" : `da ${hours} ore`;
  const days = Math.floor(hours / 24);
  return days === 1 ? 'da un giorno' : `da ${days} giorni`;
}

/** A detector's devices' queue as staff read it: "2 report non inviati da 3 giorni". */
export function unsentLabel(
  state: { unsentReports: number; oldestUnsentAt: string | null; queueReportedAt: string | null },
  now: Date = new Date(),
): string {
  if (!state.queueReportedAt) return 'Nessun dato dal dispositivo';
  if (state.unsentReports === 0) return 'Nessuno';
  const count =
    state.unsentReports === 1 ? '1 report non inviato' : `${state.unsentReports} report non inviati`;
  return state.oldestUnsentAt ? `${count} ${waitingFor(state.oldestUnsentAt, now)}` : count;
}
