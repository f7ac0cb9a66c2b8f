export * from './teachers.schemas.ts';
export * from './teachers.endpoints.ts';
