// The face of modules/review-queue: what other modules may import from it (decision 044). Nothing else leaves it.
export { submitForReview } from './review-submission.repository.ts';
