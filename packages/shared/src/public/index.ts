export * from './consent.schemas.ts';
export * from './contact.schemas.ts';
export * from './public.schemas.ts';
export * from './programme.ts';
export * from './public.endpoints.ts';
