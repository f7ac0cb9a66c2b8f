export * from './documents.schemas.ts';
export * from './documents.endpoints.ts';
