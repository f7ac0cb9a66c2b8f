// The face of modules/reviews: what other modules may import from it (decision 044). Nothing else leaves it.
export { REVIEWS_TEMPLATES } from './reviews.templates.ts';
