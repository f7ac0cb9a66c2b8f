import type { Endpoint } from '@portale/shared/http';
import { buildPath } from '@portale/shared/http';
import {
  REVIEW_STATE_LABELS,
  REVIEW_STATES,
  type ReviewState,
  type ReviewType,
} from '@portale/shared/reviews';
import type { SelectFilter } from '../../components/data-table/filter-bar.tsx';
import { sortOptionsOf } from '../../components/data-table/list-params.ts';

/** Badge colour of each review state (Bootstrap Italia palette, readable contrast). */
export const REVIEW_STATE_BADGES: Record<ReviewState, string> = {
  in_attesa: 'bg-primary',
  approvata: 'bg-success',
  da_correggere: 'bg-warning',
  respinta: 'bg-danger',
};

export const STATE_FILTER: SelectFilter = {
  name: 'state',
  label: 'Stato',
  anyLabel: 'Tutti gli stati',
  options: REVIEW_STATES.map((s) => ({ value: s, label: REVIEW_STATE_LABELS[s] })),
};

export const DEFAULT_SORT = 'submittedAt';
export const SORT_OPTIONS = sortOptionsOf([
  { value: 'submittedAt', label: 'Data di invio' },
  { value: 'decidedAt', label: 'Data della decisione' },
  { value: 'title', label: 'Nome' },
]);

/** What a queue's rows are called, and what their code column holds. */
export const QUEUE_TEXTS: Record<
  ReviewType,
  { one: string; many: string; code: string; place: string; search: string; noMatch: string; subject: string }
> = {
  insegnanti: {
    one: 'registrazione trovata',
    many: 'registrazioni trovate',
    code: 'E-mail',
    place: 'Plesso',
    subject: 'Insegnante o educatore',
    search: 'Parte del nome, del cognome o dell’indirizzo e-mail.',
    noMatch: 'Nessuna registrazione corrisponde alla ricerca e ai filtri.',
  },
  adesioni: {
    one: 'adesione trovata',
    many: 'adesioni trovate',
    code: 'Codice meccanografico',
    place: 'Comune',
    subject: 'Istituto',
    search: 'Parte del nome, del comune o il codice meccanografico dell’istituto.',
    noMatch: 'Nessuna adesione corrisponde alla ricerca e ai filtri.',
  },
  visite: {
    one: 'resoconto trovato',
    many: 'resoconti trovati',
    code: 'Codice',
    place: 'Plesso',
    subject: 'Visita',
    search: 'Parte del nome del plesso o del rilevatore.',
    noMatch: 'Nessun resoconto di visita è ancora arrivato in revisione.',
  },
};

/** An endpoint with `:type` already in its path, for the list helpers that send only a query. */
export function boundTo<E extends Endpoint>(endpoint: E, type: ReviewType): E {
  return { ...endpoint, path: buildPath(endpoint.path, { type }) };
}
