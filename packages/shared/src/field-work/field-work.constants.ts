/** Visit states (product §5): `pianificata` → `svolta` (report → review `visite`) | `annullata` | `mancata`. */
export const VISIT_STATES = ['pianificata', 'svolta', 'annullata', 'mancata'] as const;
export type VisitState = (typeof VISIT_STATES)[number];
export const VISIT_STATE_LABELS: Record<VisitState, string> = {
  pianificata: 'Pianificata',
  svolta: 'Svolta',
  annullata: 'Annullata',
  mancata: 'Mancata',
};

/** The legal moves of a visit. A `svolta` visit whose report is sent back stays `svolta`: only its report changes. */
export const VISIT_TRANSITIONS: Record<VisitState, readonly VisitState[]> = {
  pianificata: ['svolta', 'annullata', 'mancata'],
  svolta: [],
  annullata: [],
  mancata: [],
};

export function canTransitionVisit(from: VisitState, to: VisitState): boolean {
  return VISIT_TRANSITIONS[from].includes(to);
}

/** How long a planned visit lasts in the calendar event. */
export const VISIT_DURATION_MINUTES = 120;
export const VISIT_REPORT_MAX = 5000;
export const VISIT_NOTE_MAX = 1000;
/** A bulk assignment touches at most this many plessi in one request. */
export const BULK_ASSIGN_MAX = 5000;
