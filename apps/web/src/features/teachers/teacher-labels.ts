import {
  TEACHER_REVIEW_STATE_LABELS,
  TEACHER_REVIEW_STATES,
  type TeacherReviewState,
} from '@portale/shared/registry';
import { TEACHER_KIND_LABELS } from '@portale/shared/teachers';
import type { SelectFilter } from '../../components/data-table/filter-bar.tsx';

export const KIND_FILTER: SelectFilter = {
  name: 'kind',
  label: 'Tipo',
  anyLabel: 'Tutti i tipi',
  options: Object.entries(TEACHER_KIND_LABELS).map(([value, label]) => ({ value, label })),
};

export const REVIEW_FILTER: SelectFilter = {
  name: 'reviewState',
  label: 'Revisione della registrazione',
  anyLabel: 'Tutti gli stati',
  options: TEACHER_REVIEW_STATES.map((s) => ({ value: s, label: TEACHER_REVIEW_STATE_LABELS[s] })),
};

/** Badge colour of each review state (Bootstrap Italia palette, readable contrast). */
export const REVIEW_STATE_BADGES: Record<TeacherReviewState, string> = {
  in_attesa: 'bg-primary',
  approvata: 'bg-success',
  da_correggere: 'bg-warning',
  respinta: 'bg-danger',
};
