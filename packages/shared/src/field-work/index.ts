export * from './field-work.constants.ts';
export * from './field-work.schemas.ts';
export * from './field-work.endpoints.ts';
