export * from '../vocabulary/review.constants.ts';
export * from './reviews.schemas.ts';
export * from './reviews.endpoints.ts';
