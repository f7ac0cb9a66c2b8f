/** Action states (product §5): `da_fare` → `in_corso` → `completata` → `verificata` (staff); staff may send a `completata` back to `in_corso`. */
export const ACTION_STATES = ['da_fare', 'in_corso', 'completata', 'verificata'] as const;
export type ActionState = (typeof ACTION_STATES)[number];
export const ACTION_STATE_LABELS: Record<ActionState, string> = {
  da_fare: 'Da fare',
  in_corso: 'In corso',
  completata: 'Completata',
  verificata: 'Verificata',
};
export const ACTION_TRANSITIONS: Record<ActionState, readonly ActionState[]> = {
  da_fare: ['in_corso'],
  in_corso: ['completata'],
  completata: ['verificata', 'in_corso'],
  verificata: [],
};
export function canTransitionAction(from: ActionState, to: ActionState): boolean {
  return ACTION_TRANSITIONS[from].includes(to);
}

/** Whom an action model is for (product §3). */
export const ACTION_TARGETS = ['istituto', 'plesso', 'insegnante'] as const;
export type ActionTarget = (typeof ACTION_TARGETS)[number];
export const ACTION_TARGET_LABELS: Record<ActionTarget, string> = {
  istituto: 'Istituto',
  plesso: 'Plesso',
  insegnante: 'Insegnante',
};

/** The evidence a model requires to complete an action. */
export const ACTION_EVIDENCE = ['nessuna', 'testo', 'file'] as const;
export type ActionEvidence = (typeof ACTION_EVIDENCE)[number];
export const ACTION_EVIDENCE_LABELS: Record<ActionEvidence, string> = {
  nessuna: 'Nessuna',
  testo: 'Testo',
  file: 'File',
};
export const ACTION_EVIDENCE_TEXT_MAX = 4000;
export const ACTION_EVIDENCE_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** A bulk assignment creates at most this many actions in one request. */
export const ACTION_BULK_MAX = 20000;
