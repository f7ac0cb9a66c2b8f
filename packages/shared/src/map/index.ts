export * from './map.schemas.ts';
export * from './map.endpoints.ts';
