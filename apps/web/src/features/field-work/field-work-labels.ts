import { PROVINCES_BY_REGION, REGIONS, SCHOOL_LEVEL_LABELS, SCHOOL_LEVELS } from '@portale/shared/registry';
import type { SelectFilter } from '../../components/data-table/filter-bar.tsx';

export const LEVEL_FILTER: SelectFilter = {
  name: 'level',
  label: 'Grado scolastico',
  anyLabel: 'Tutti i gradi',
  options: SCHOOL_LEVELS.map((l) => ({ value: l, label: SCHOOL_LEVEL_LABELS[l] })),
};

export const ALL_PROVINCES = REGIONS.flatMap((r) => PROVINCES_BY_REGION[r]).sort();

export const PROVINCE_FILTER: SelectFilter = {
  name: 'province',
  label: 'Provincia',
  anyLabel: 'Tutte le province',
  options: ALL_PROVINCES.map((p) => ({ value: p, label: p })),
};

export const PLANNED_FILTER: SelectFilter = {
  name: 'plannedVisit',
  label: 'Prossima visita',
  anyLabel: 'Tutti i plessi',
  options: [
    { value: 'true', label: 'Con una visita pianificata' },
    { value: 'false', label: 'Senza visite pianificate' },
  ],
};

export const VISIT_STATE_BADGES = {
  pianificata: 'bg-primary',
  svolta: 'bg-success',
  annullata: 'bg-secondary',
  mancata: 'bg-warning',
} as const;
