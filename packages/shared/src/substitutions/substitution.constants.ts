/** Substitution states (product §5): `richiesta` → `approvata` | `respinta`. */
export const SUBSTITUTION_STATES = ['richiesta', 'approvata', 'respinta'] as const;
export type SubstitutionState = (typeof SUBSTITUTION_STATES)[number];
export const SUBSTITUTION_STATE_LABELS: Record<SubstitutionState, string> = {
  richiesta: 'Richiesta',
  approvata: 'Approvata',
  respinta: 'Respinta',
};
export const SUBSTITUTION_TRANSITIONS: Record<SubstitutionState, readonly SubstitutionState[]> = {
  richiesta: ['approvata', 'respinta'],
  approvata: [],
  respinta: [],
};
export function canTransitionSubstitution(from: SubstitutionState, to: SubstitutionState): boolean {
  return SUBSTITUTION_TRANSITIONS[from].includes(to);
}
export const SUBSTITUTION_REASON_MAX = 1000;
export const SUBSTITUTION_NOTE_MAX = 1000;
