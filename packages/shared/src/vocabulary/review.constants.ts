// Terms several features share (review types, states, decisions, correctable fields): no imports, so
// accounts, adhesions and field work use them without depending on the review queue's schemas (issue 36).

/** Review types of `/portale/revisioni/{type}` (product §3); any other type is a 404. */
export const REVIEW_TYPES = ['insegnanti', 'adesioni', 'visite'] as const;
export type ReviewType = (typeof REVIEW_TYPES)[number];
export const REVIEW_TYPE_LABELS: Record<ReviewType, string> = {
  insegnanti: 'Registrazioni di insegnanti ed educatori',
  adesioni: 'Adesioni formali',
  visite: 'Resoconti delle visite',
};

/** States of a review item (product §3). */
export const REVIEW_STATES = ['in_attesa', 'approvata', 'da_correggere', 'respinta'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
export const REVIEW_STATE_LABELS: Record<ReviewState, string> = {
  in_attesa: 'In attesa',
  approvata: 'Approvata',
  da_correggere: 'Da correggere',
  respinta: 'Respinta',
};

/** A reviewer's decision and the state it leads to; `request_changes` and `reject` need a note. */
export const REVIEW_DECISIONS = ['approve', 'request_changes', 'reject'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];
export const REVIEW_DECISION_STATE: Record<ReviewDecision, Exclude<ReviewState, 'in_attesa'>> = {
  approve: 'approvata',
  request_changes: 'da_correggere',
  reject: 'respinta',
};
export const REVIEW_DECISION_LABELS: Record<ReviewDecision, string> = {
  approve: 'Approva',
  request_changes: 'Chiedi correzioni',
  reject: 'Respingi',
};
export function decisionNeedsNote(decision: ReviewDecision): boolean {
  return decision !== 'approve';
}

/**
 * What a reviewer can flag when asking for corrections, per queue (issue 35, item 2; decision 039): exactly
 * the fields the person can edit when sent back. The person's correction page marks the flagged ones.
 */
export const REVIEW_CORRECTABLE_FIELDS = {
  insegnanti: ['schoolSite', 'subjects', 'fiscalCode'],
  adesioni: ['schoolSites'],
  visite: ['report', 'teachersMet'],
} as const satisfies Record<ReviewType, readonly string[]>;
export type ReviewField = (typeof REVIEW_CORRECTABLE_FIELDS)[ReviewType][number];
export const REVIEW_FIELDS = [
  ...new Set(Object.values(REVIEW_CORRECTABLE_FIELDS).flat()),
] as unknown as readonly [ReviewField, ...ReviewField[]];
export const REVIEW_FIELD_LABELS: Record<ReviewField, string> = {
  schoolSite: 'Plesso',
  subjects: 'Materie o ruolo',
  fiscalCode: 'Codice fiscale',
  schoolSites: 'Plessi partecipanti',
  report: 'Resoconto della visita',
  teachersMet: 'Insegnanti incontrati',
};
/** Whether a field can be flagged in a queue (an unknown or foreign field is refused with a 422). */
export function isCorrectableField(type: ReviewType, field: string): boolean {
  return (REVIEW_CORRECTABLE_FIELDS[type] as readonly string[]).includes(field);
}
