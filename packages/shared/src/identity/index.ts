export * from './fiscal-number.ts';
export * from './identity.schemas.ts';
export * from './identity.endpoints.ts';
