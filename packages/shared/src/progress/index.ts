export * from './progress.schemas.ts';
export * from './progress.endpoints.ts';
