// The face of modules/field-work: what other modules may import from it (decision 044). Nothing else leaves it.
export { setVisitReviewState, visitReviewContent } from './visits.repository.ts';
export { FIELD_WORK_TEMPLATES } from './field-work.templates.ts';
