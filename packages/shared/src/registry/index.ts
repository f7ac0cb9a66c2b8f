export * from './registry.constants.ts';
export * from './institutes.schemas.ts';
export * from './institutes.endpoints.ts';
export * from './school-sites.schemas.ts';
export * from './school-sites.endpoints.ts';
export * from './audit.schemas.ts';
