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
};

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'institute.updated': "Modifica dei dati dell'istituto",
  'school-site.updated': 'Modifica dei dati del plesso',
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
