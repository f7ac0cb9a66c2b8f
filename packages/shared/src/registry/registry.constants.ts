/** The 20 Italian regions as the ISTAT list names them (the registry's `region` values). */
export const REGIONS = [
  'Abruzzo',
  'Basilicata',
  'Calabria',
  'Campania',
  'Emilia-Romagna',
  'Friuli-Venezia Giulia',
  'Lazio',
  'Liguria',
  'Lombardia',
  'Marche',
  'Molise',
  'Piemonte',
  'Puglia',
  'Sardegna',
  'Sicilia',
  'Toscana',
  'Trentino-Alto Adige/Südtirol',
  'Umbria',
  "Valle d'Aosta/Vallée d'Aoste",
  'Veneto',
] as const;

/** The regions as a select's choices (filters of lists, map, progress, results). */
export const REGION_OPTIONS: readonly { value: string; label: string }[] = REGIONS.map((r) => ({
  value: r,
  label: r,
}));
export type Region = (typeof REGIONS)[number];

/** Province codes (sigle) by region, for the filter bars. */
export const PROVINCES_BY_REGION: Record<Region, readonly string[]> = {
  Abruzzo: ['AQ', 'CH', 'PE', 'TE'],
  Basilicata: ['MT', 'PZ'],
  Calabria: ['CS', 'CZ', 'KR', 'RC', 'VV'],
  Campania: ['AV', 'BN', 'CE', 'NA', 'SA'],
  'Emilia-Romagna': ['BO', 'FC', 'FE', 'MO', 'PC', 'PR', 'RA', 'RE', 'RN'],
  'Friuli-Venezia Giulia': ['GO', 'PN', 'TS', 'UD'],
  Lazio: ['FR', 'LT', 'RI', 'RM', 'VT'],
  Liguria: ['GE', 'IM', 'SP', 'SV'],
  Lombardia: ['BG', 'BS', 'CO', 'CR', 'LC', 'LO', 'MB', 'MI', 'MN', 'PV', 'SO', 'VA'],
  Marche: ['AN', 'AP', 'FM', 'MC', 'PU'],
  Molise: ['CB', 'IS'],
  Piemonte: ['AL', 'AT', 'BI', 'CN', 'NO', 'TO', 'VB', 'VC'],
  Puglia: ['BA', 'BR', 'BT', 'FG', 'LE', 'TA'],
  Sardegna: ['CA', 'NU', 'OR', 'SS', 'SU'],
  Sicilia: ['AG', 'CL', 'CT', 'EN', 'ME', 'PA', 'RG', 'SR', 'TP'],
  Toscana: ['AR', 'FI', 'GR', 'LI', 'LU', 'MS', 'PI', 'PO', 'PT', 'SI'],
  'Trentino-Alto Adige/Südtirol': ['BZ', 'TN'],
  Umbria: ['PG', 'TR'],
  "Valle d'Aosta/Vallée d'Aoste": ['AO'],
  Veneto: ['BL', 'PD', 'RO', 'TV', 'VE', 'VI', 'VR'],
};
export const PROVINCES = Object.values(PROVINCES_BY_REGION).flat().sort() as [string, ...string[]];

/** School levels of a plesso (product §3). */
export const SCHOOL_LEVELS = [
  'infanzia',
  'primaria',
  'secondaria_primo_grado',
  'secondaria_secondo_grado',
  'altro',
] as const;
export type SchoolLevel = (typeof SCHOOL_LEVELS)[number];
export const SCHOOL_LEVEL_LABELS: Record<SchoolLevel, string> = {
  infanzia: 'Scuola dell’infanzia',
  primaria: 'Scuola primaria',
  secondaria_primo_grado: 'Secondaria di I grado',
  secondaria_secondo_grado: 'Secondaria di II grado',
  altro: 'Altro',
};

/** Institute adhesion states (product §5). */
export const ADHESION_STATES = [
  'nessuna',
  'iscritto',
  'adesione_firmata',
  'attivo',
  'da_correggere',
  'respinto',
  'ritirato',
] as const;
export type AdhesionState = (typeof ADHESION_STATES)[number];
export const ADHESION_STATE_LABELS: Record<AdhesionState, string> = {
  nessuna: 'Nessuna adesione',
  iscritto: 'Iscritto',
  adesione_firmata: 'Adesione firmata',
  attivo: 'Attivo',
  da_correggere: 'Da correggere',
  respinto: 'Respinto',
  ritirato: 'Ritirato',
};

/**
 * The adhesion state machine of product §5, in one place: the states each state may move to.
 * `nessuna → iscritto` is the enrolment; `adesione_firmata` the principal's signature; the review
 * decides `attivo`, `da_correggere` (back to signing) or `respinto`; `attivo → ritirato` is a withdrawal.
 */
export const ADHESION_TRANSITIONS: Record<AdhesionState, readonly AdhesionState[]> = {
  nessuna: ['iscritto'],
  iscritto: ['adesione_firmata'],
  adesione_firmata: ['attivo', 'da_correggere', 'respinto'],
  da_correggere: ['adesione_firmata'],
  attivo: ['ritirato'],
  respinto: [],
  ritirato: [],
};

/** May an institute move from `from` to `to`? */
export function canTransitionAdhesion(from: AdhesionState, to: AdhesionState): boolean {
  return ADHESION_TRANSITIONS[from].includes(to);
}

/** Teacher registration review states (product §5). */
export const TEACHER_REVIEW_STATES = ['in_attesa', 'approvata', 'da_correggere', 'respinta'] as const;
export type TeacherReviewState = (typeof TEACHER_REVIEW_STATES)[number];
export const TEACHER_REVIEW_STATE_LABELS: Record<TeacherReviewState, string> = {
  in_attesa: 'In attesa',
  approvata: 'Approvata',
  da_correggere: 'Da correggere',
  respinta: 'Respinta',
};
