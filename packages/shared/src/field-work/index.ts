export * from './field-work.constants.ts';
export * from './field-work.schemas.ts';
export * from './field-work.endpoints.ts';
export * from './report-imports.ts';
export * from './visit-report-conflicts.ts';
export * from './detector-overview.ts';
export * from './report-photos.ts';
