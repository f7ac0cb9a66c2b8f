export * from './users.ts';
export * from './auth.ts';
export * from './schools.ts';
export * from './accounts.ts';
export * from './public.ts';
export * from './onboarding.ts';
export * from './bookings.ts';
export * from './field-work.ts';
