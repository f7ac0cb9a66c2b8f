export * from './substitution.constants.ts';
export * from './substitutions.schemas.ts';
export * from './substitutions.endpoints.ts';
