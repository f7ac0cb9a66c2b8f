import {
  ADHESION_STATE_LABELS,
  ADHESION_STATES,
  PROVINCES_BY_REGION,
  REGIONS,
  SCHOOL_LEVEL_LABELS,
  SCHOOL_LEVELS,
  type AdhesionState,
  type Region,
} from '@portale/shared/registry';
import { DETECTOR_FILTER_LABELS, DETECTOR_FILTER_VALUES } from '@portale/shared/map';

/**
 * Point colour of each adhesion state: distinct hues, each at least 3:1 against the land colour and
 * white (WCAG 1.4.11); the state is also in the popup and in the table, never in colour alone.
 */
export const STATE_COLORS: Record<AdhesionState, string> = {
  nessuna: '#5f6b78',
  iscritto: '#0066cc',
  adesione_firmata: '#7a3db8',
  attivo: '#00774f',
  da_correggere: '#a35200',
  respinto: '#c0203d',
  ritirato: '#4a3422',
};

export interface MapFilterDef {
  name: string;
  label: string;
  anyLabel: string;
  options: readonly { value: string; label: string }[];
}

export const MAP_SELECTS: readonly MapFilterDef[] = [
  {
    name: 'level',
    label: 'Grado scolastico',
    anyLabel: 'Tutti i gradi',
    options: SCHOOL_LEVELS.map((l) => ({ value: l, label: SCHOOL_LEVEL_LABELS[l] })),
  },
  {
    name: 'adhesionState',
    label: "Stato di adesione dell'istituto",
    anyLabel: 'Tutti gli stati',
    options: ADHESION_STATES.map((s) => ({ value: s, label: ADHESION_STATE_LABELS[s] })),
  },
  {
    name: 'participating',
    label: 'Partecipazione',
    anyLabel: 'Tutti i plessi',
    options: [
      { value: 'true', label: 'Partecipanti' },
      { value: 'false', label: 'Non partecipanti' },
    ],
  },
  {
    name: 'detector',
    label: 'Rilevatore',
    anyLabel: 'Con e senza rilevatore',
    options: DETECTOR_FILTER_VALUES.map((d) => ({ value: d, label: DETECTOR_FILTER_LABELS[d] })),
  },
];

/** The region of each province code. */
export const REGION_OF_PROVINCE: Record<string, Region> = Object.fromEntries(
  REGIONS.flatMap((region) => PROVINCES_BY_REGION[region].map((p) => [p, region] as const)),
);

/** Italian bounds (lon/lat) for the first view. */
export const ITALY_BOUNDS: [number, number, number, number] = [6.6, 35.4, 18.6, 47.1];
