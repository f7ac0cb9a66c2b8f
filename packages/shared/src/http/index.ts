export * from './api-error.ts';
export * from './auth-endpoints.ts';
export * from './endpoint.ts';
export * from './health.endpoints.ts';
