// The face of modules/adhesions: what other modules may import from it (decision 044). Nothing else leaves it.
export { transitionAdhesion } from './adhesion-state.repository.ts';
export { ADHESIONS_TEMPLATES } from './adhesions.templates.ts';
