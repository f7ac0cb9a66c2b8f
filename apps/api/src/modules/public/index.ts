// The face of modules/public: what other modules may import from it (decision 044). Nothing else leaves it.
export { PUBLIC_TEMPLATES } from './public.templates.ts';
