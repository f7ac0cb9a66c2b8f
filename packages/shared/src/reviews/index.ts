export * from './review.constants.ts';
