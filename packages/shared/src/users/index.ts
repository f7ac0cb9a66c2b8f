export * from './users.schemas.ts';
export * from './users.endpoints.ts';
export * from './user-admin.ts';
