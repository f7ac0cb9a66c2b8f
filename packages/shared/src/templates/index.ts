export * from './template.constants.ts';
export * from './templates.schemas.ts';
export * from './templates.endpoints.ts';
