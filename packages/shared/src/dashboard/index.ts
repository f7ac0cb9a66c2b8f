export * from './dashboard.endpoints.ts';
