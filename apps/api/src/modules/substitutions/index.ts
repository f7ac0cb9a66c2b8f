// The face of modules/substitutions: what other modules may import from it (decision 044). Nothing else leaves it.
export { SUBSTITUTIONS_TEMPLATES } from './substitutions.templates.ts';
