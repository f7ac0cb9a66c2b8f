export * from './survey.constants.ts';
export * from './surveys.schemas.ts';
export * from './surveys.endpoints.ts';
export * from './access-codes.schemas.ts';
export * from './access-codes.endpoints.ts';
export * from './results.schemas.ts';
export * from './results.endpoints.ts';
