import { SIGNATURE_METHOD_LABELS } from '@portale/shared/adhesions';
import { ENROLMENT_INVITATION_STATE_LABELS, HANDOVER_ROLE_LABELS } from '@portale/shared/enrolment';
import {
  ADHESION_STATE_LABELS,
  ADHESION_STATES,
  SCHOOL_LEVEL_LABELS,
  SCHOOL_LEVELS,
  TEACHER_REVIEW_STATE_LABELS,
} from '@portale/shared/registry';
import type { SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { TEACHER_KIND_LABELS } from '@portale/shared/teachers';

export const LEVEL_FILTER: SelectFilter = {
  name: 'level',
  label: 'Grado scolastico',
  anyLabel: 'Tutti i gradi',
  options: SCHOOL_LEVELS.map((l) => ({ value: l, label: SCHOOL_LEVEL_LABELS[l] })),
};

export const ADHESION_FILTER: SelectFilter = {
  name: 'adhesionState',
  label: 'Stato di adesione',
  anyLabel: 'Tutti gli stati',
  options: ADHESION_STATES.map((s) => ({ value: s, label: ADHESION_STATE_LABELS[s] })),
};

export const STATE_SCHOOL_FILTER: SelectFilter = {
  name: 'stateSchool',
  label: 'Statale o paritaria',
  anyLabel: 'Statali e paritarie',
  options: [
    { value: 'true', label: 'Statali' },
    { value: 'false', label: 'Paritarie' },
  ],
};

export const PARTICIPATING_FILTER: SelectFilter = {
  name: 'participating',
  label: 'Partecipazione',
  anyLabel: 'Tutti i plessi',
  options: [
    { value: 'true', label: 'Partecipanti' },
    { value: 'false', label: 'Non partecipanti' },
  ],
};

/** Italian names of the fields the audit shows. */
export const FIELD_LABELS: Record<string, string> = {
  name: 'Nome',
  address: 'Indirizzo',
  postalCode: 'CAP',
  email: 'E-mail',
  certifiedEmail: 'PEC',
  phone: 'Telefono',
  website: 'Sito web',
  participating: 'Partecipa',
  adhesionState: 'Stato di adesione',
  note: 'Nota',
  version: 'Versione del documento',
  sha256: 'Impronta (SHA-256)',
  documentVersion: 'Versione del documento',
  documentSha256: 'Impronta del documento',
  schoolSiteIds: 'Plessi partecipanti (numeri)',
  enrolmentId: 'Iscrizione numero',
  principalUserId: 'Dirigente (utente numero)',
  firstContactUserId: 'Referente (utente numero)',
  applicantPhone: 'Cellulare di chi ha iscritto',
  createdUserIds: 'Account creati (numeri)',
  invitedUserIds: 'Account invitati (numeri)',
  refusedStaffUserIds: 'Account dello staff non collegati (numeri)',
  method: 'Modalità di firma',
  signatureId: 'Firma numero',
  signedFileSha256: 'Impronta del file firmato',
  attempts: 'Tentativi',
  invitationId: 'Invito numero',
  role: 'Ruolo',
  userId: 'Utente numero',
  accountCreated: 'Account creato',
  holderUserId: 'Chi ricopriva il ruolo (utente numero)',
  replacedInvitationIds: 'Inviti sostituiti (numeri)',
  adhesionKept: 'Adesione firmata mantenuta',
  previousRoleRevoked: 'Ruolo tolto a chi è stato sostituito',
  state: 'Stato',
};

/** Italian names of stored values, per field (issue 35, item 9: the history shows no internal values). */
export const AUDIT_VALUE_LABELS: Record<string, Record<string, string>> = {
  adhesionState: ADHESION_STATE_LABELS,
  method: SIGNATURE_METHOD_LABELS,
  role: HANDOVER_ROLE_LABELS,
  state: ENROLMENT_INVITATION_STATE_LABELS,
};

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'institute.updated': "Modifica dei dati dell'istituto",
  'school-site.updated': 'Modifica dei dati del plesso',
  'institute.adhesion_state': 'Cambio dello stato di adesione',
  'institute.enrolled': 'Iscrizione al programma',
  'adhesion.document.generated': 'Nuova versione del documento di adesione',
  'adhesion.signature.code_sent': 'Invio del codice SMS per la firma',
  'adhesion.signature.code_wrong': 'Codice SMS di firma errato',
  'adhesion.signed': 'Firma del documento di adesione',
  'adhesion.data.corrected': 'Correzione dei plessi partecipanti',
  'adhesion.reminders_sent': 'Invio di un sollecito',
  'institute.handover_invited': 'Invito a un nuovo dirigente o referente',
  'institute.handover_cancelled': 'Invito a un nuovo dirigente o referente annullato',
  'institute.handover': 'Passaggio di consegne: nuovo dirigente o referente',
  update: 'Modifica',
  create: 'Creazione',
};

export function reviewStateLabel(state: string): string {
  return (TEACHER_REVIEW_STATE_LABELS as Record<string, string>)[state] ?? state;
}

/** The kind of a registered teacher as shown in lists (labels from shared). */
export function teacherKindLabel(kind: string): string {
  return (TEACHER_KIND_LABELS as Record<string, string>)[kind] ?? kind;
}
